// Timestamps: the API's `YYYY-MM-DD HH:MM:SS` is UTC without a zone; shown in the person's own time zone.
export function parseStamp(stamp: string): Date {
  return new Date(stamp.replace(" ", "T") + "Z");
}

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 86400],
  ["month", 30 * 86400],
  ["week", 7 * 86400],
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 days ago", "yesterday", "just now". */
export function relativeTime(stamp: string, now = Date.now()): string {
  const secs = (parseStamp(stamp).getTime() - now) / 1000;
  for (const [unit, size] of UNITS) if (Math.abs(secs) >= size) return rtf.format(Math.round(secs / size), unit);
  return "just now";
}

// One formatter for every call: toLocaleString() with options builds a new one each time (~1.5 ms apiece, which a
// list of 50 rows with a title on each pays 50 times before it can paint).
const full = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Full local date and time, for title attributes and detail views. */
export function fullTime(stamp: string): string {
  return full.format(parseStamp(stamp));
}
