// Small helpers the third-party readers share: paths, UTF-8, titles from text, #tags and external URLs in Markdown.
import type { ImportEntry, ImportInput, SkippedItem, SourceNote } from "./types";

export const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);
export const dirName = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");
export const stripExt = (name: string) => name.replace(/\.[^./]+$/, "");
export const extOf = (path: string) => (/\.([^./]+)$/.exec(path)?.[1] ?? "").toLowerCase();
/** macOS resource forks, dot files and `__MACOSX/` copies are never notes (ZIPs made in Finder carry them). */
export const isJunk = (path: string) => path.startsWith("__MACOSX/") || path.split("/").some((p) => p.startsWith(".") && p !== "." && p !== "..");

export const isSkipped = (x: SourceNote | SkippedItem): x is SkippedItem => "skipped" in x;

/** Text of a file; invalid UTF-8 is replaced (U+FFFD) and said so rather than refusing the note. */
export function decodeText(bytes: Uint8Array): { text: string; problem?: string } {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(body) };
  } catch {
    return { text: new TextDecoder("utf-8").decode(body), problem: "not valid UTF-8: unreadable bytes were replaced with �" };
  }
}

/** A file's JSON, or the skipped item that says why not (the reason the import summary shows). */
export function parseJsonOrSkip(text: string, path: string): { doc: unknown } | SkippedItem {
  try {
    return { doc: JSON.parse(text) };
  } catch (err) {
    return { skipped: path, reason: `not valid JSON: ${(err as Error).message}` };
  }
}

/** The first `n` bytes of an entry as text, for detection. */
export async function peekText(entry: ImportEntry, n = 4096): Promise<string> {
  const bytes = await entry.bytes();
  return new TextDecoder("utf-8").decode(bytes.subarray(0, n));
}

/**
 * A single uploaded file may arrive without its name (or with any name): JSON is recognised by its first character
 * as well as by `.json`.
 */
export async function isJsonEntry(entry: ImportEntry): Promise<boolean> {
  if (extOf(entry.path) === "json") return true;
  if (extOf(entry.path) !== "") return false;
  return /^\s*[[{]/.test(await peekText(entry, 64));
}

/** Up to `limit` entries, for cheap detection. */
export async function firstEntries(input: ImportInput, limit = 200): Promise<ImportEntry[]> {
  const out: ImportEntry[] = [];
  for await (const e of input.entries()) {
    out.push(e);
    if (out.length >= limit) break;
  }
  return out;
}

const TITLE_MAX = 120;
/** A title from the first non-empty line of a text: Markdown markers removed, cut at a word near 120 characters. */
export function titleFromText(text: string): string {
  const line = text.split("\n").map((l) => l.trim()).find((l) => l !== "" && !/^(```|---|\*\*\*)/.test(l)) ?? "";
  const plain = line
    .replace(/^#{1,6}\s+/, "").replace(/^>\s*/, "").replace(/^[-*+]\s+(\[[ xX]\]\s+)?/, "").replace(/^\d+[.)]\s+/, "")
    .replace(/!?\[([^[\]]*)\]\([^)[\]]*\)/g, "$1").replace(/[*_`~]+/g, "").trim();
  if (plain.length <= TITLE_MAX) return plain;
  const cut = plain.slice(0, TITLE_MAX);
  const space = cut.lastIndexOf(" ");
  return `${(space > TITLE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Fenced and inline code are not scanned for tags or links. */
const withoutCode = (md: string) => md.replace(/```[\s\S]*?(```|$)/g, " ").replace(/`[^`\n]*`/g, " ");

/** Inline `#tags` (nested `#a/b` kept); `#1`, headings and URL fragments are not tags. */
export function hashtags(md: string): string[] {
  const found = new Set<string>();
  for (const m of withoutCode(md).matchAll(/(^|[\s(（])#([\p{L}\p{N}_\-/]+)/gu)) {
    const tag = m[2].replace(/\/+$/, "");
    if (tag && !/^[\d/]+$/.test(tag)) found.add(tag);
  }
  return [...found];
}

/**
 * External http(s) URLs of a Markdown text, in order, once each: `[title](url)`, `<url>` and bare URLs.
 * Neither part of `[text](url)` may hold a square bracket: a failed start then stops at the next "[", where "anything
 * but ]" ran to the end of the text from every "[" (200 KB of "[" took 148 s on the server's thread).
 */
export function externalLinks(md: string): { url: string; title: string | null }[] {
  const out = new Map<string, string | null>();
  const text = withoutCode(md);
  for (const m of text.matchAll(/(!?)\[([^[\]\n]*)\]\(<?(https?:\/\/[^)[\]\s>]+)>?(?:\s+"[^"\n]*")?\)/g)) {
    if (m[1] === "!") continue; // images are attachments, not links
    if (!out.has(m[3])) out.set(m[3], m[2].trim() || null);
  }
  const rest = text.replace(/!?\[[^[\]\n]*\]\([^)[\]\n]*\)/g, " ");
  for (const m of rest.matchAll(/<?(https?:\/\/[^\s<>()"'\]]+[^\s<>()"'\].,;:!?])>?/g)) if (!out.has(m[1])) out.set(m[1], null);
  return [...out].map(([url, title]) => ({ url, title }));
}

/** Adds links not yet in the list (by URL). */
export function mergeLinks(into: { url: string; title?: string | null }[], more: { url: string; title?: string | null }[]) {
  for (const l of more) if (!into.some((x) => x.url === l.url)) into.push(l);
  return into;
}

export const validDate = (d: Date | undefined): Date | undefined => (d && !Number.isNaN(d.getTime()) ? d : undefined);

/** A note with the fields every reader fills the same way. */
export function note(fields: Partial<SourceNote> & Pick<SourceNote, "origin" | "title" | "body">): SourceNote {
  return { tags: [], links: [], related: [], problems: [], ...fields };
}
