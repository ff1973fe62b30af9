// RFC 4180 CSV writing: fields quoted only when needed, quotes doubled, CRLF record separators.
export const UTF8_BOM = "\uFEFF";

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  const s = String(value);
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One record including its CRLF terminator. */
export function csvRow(values: Array<string | number | null | undefined>): string {
  return values.map(csvField).join(",") + "\r\n";
}

