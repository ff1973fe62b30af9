// The spec's timestamp format (UTC 'YYYY-MM-DD HH:MM:SS') and an injectable clock.
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export function toStamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace("T", " ");
}

export function fromStamp(s: string): Date {
  return new Date(s.replace(" ", "T") + "Z");
}

export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * 86_400_000);
}

export const utcDay = (d: Date) => d.toISOString().slice(0, 10);
export const utcMonth = (d: Date) => d.toISOString().slice(0, 7);
