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

// The last day asked for, kept: every API request asks (the daily quota), and toISOString was ~2% of a request.
let lastDay = { from: 0, to: -1, text: "" };
export function utcDay(d: Date): string {
  const t = d.getTime();
  if (t < lastDay.from || t >= lastDay.to) {
    const from = Math.floor(t / 86_400_000) * 86_400_000;
    lastDay = { from, to: from + 86_400_000, text: d.toISOString().slice(0, 10) };
  }
  return lastDay.text;
}
export const utcMonth = (d: Date) => d.toISOString().slice(0, 7);
