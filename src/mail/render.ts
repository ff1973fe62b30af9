// Shared pieces of the plain-text and HTML mail bodies; every user-supplied string passes through esc() in HTML.
export function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Titles may hold line breaks; mail lines must not. */
export const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export interface Section {
  heading: string;
  /** Each line as plain text and as an HTML fragment (already escaped). */
  lines: Array<{ text: string; html: string }>;
  /** How many items were left out of the list. */
  more: number;
}

export function textSection(s: Section): string {
  const out = [s.heading.toUpperCase(), ...s.lines.map((l) => `- ${l.text}`)];
  if (s.more > 0) out.push(`  …and ${s.more} more`);
  return out.join("\n");
}

const H2 = 'style="font-size:16px;margin:24px 0 8px;color:#222"';
const MUTED = 'style="color:#666;font-size:12px;margin-top:32px"';

export function htmlSection(s: Section): string {
  const items = s.lines.map((l) => `<li style="margin:4px 0">${l.html}</li>`).join("");
  const more = s.more > 0 ? `<p style="margin:4px 0;color:#666">…and ${s.more} more</p>` : "";
  return `<h2 ${H2}>${esc(s.heading)}</h2><ul style="padding-left:20px;margin:0">${items}</ul>${more}`;
}

export function htmlDocument(title: string, paragraphs: string[], sections: Section[], footer: string): string {
  return [
    "<!doctype html>",
    `<html><head><meta charset="utf-8"><title>${esc(title)}</title></head>`,
    '<body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:#222;max-width:640px;margin:0 auto;padding:16px">',
    ...paragraphs.map((p) => `<p>${p}</p>`),
    ...sections.map(htmlSection),
    `<p ${MUTED}>${footer}</p>`,
    "</body></html>",
  ].join("\n");
}

/** Splits a list into what is shown and how many are left out. */
export function capList<T>(items: T[], max: number): { shown: T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

export const ideaRef = (number: number, title: string) => ({ text: `#${number} ${oneLine(title)}`, html: `#${number} ${esc(oneLine(title))}` });
