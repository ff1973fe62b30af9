// Evernote's .enex export: scanned note by note (never a whole-file tree), ENML converted to Markdown, resources listed as skipped.
import type { ImportEntry, ImportInput, SkippedItem, SourceNote, SourceReader } from "./types";
import { decodeEntities, htmlToMarkdown } from "./html-to-markdown";
import { baseName, extOf, externalLinks, firstEntries, isJunk, mergeLinks, note, peekText, stripExt, validDate } from "./reader-kit";

const CHUNK = 1 << 20;
/** JavaScriptCore collects lazily: without a hint every note's strings pile up (47 MB .enex: 203 MB peak; a hint per 8 MB: 160 MB; per 4 MB: 140 MB but 50 % slower). */
const GC_EVERY_CHUNKS = 8;

/** `20240102T030405Z` (ENEX's only date form) → Date. */
export function enexDate(s: string | undefined): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec((s ?? "").trim());
  return m ? validDate(new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]))) : undefined;
}

/**
 * The notes of an .enex as raw XML strings, decoded a chunk at a time so only one note is held as text at once. A note
 * that spans chunks is kept in pieces, and only each new chunk is searched for its end: appending to one string and
 * searching it again flattened it with every chunk (an unclosed <note> in 60 MB took 20 s).
 */
export async function* noteXml(entry: ImportEntry, chunk = CHUNK): AsyncIterable<string> {
  const bytes = await entry.bytes();
  const decoder = new TextDecoder("utf-8");
  let buf = "";
  let open: string[] | null = null; // the pieces of a note whose end has not been seen yet
  let tail = ""; // that note's last 6 characters, for an end tag split between chunks
  for (let at = 0; at < bytes.length; at += chunk) {
    const done = at + chunk >= bytes.length;
    const text = decoder.decode(bytes.subarray(at, at + chunk), { stream: !done });
    if (open) {
      const end = (tail + text).indexOf("</note>");
      if (end < 0) {
        open.push(text);
        tail = (tail + text).slice(-6);
      } else {
        const cut = end + 7 - tail.length;
        open.push(text.slice(0, cut));
        yield open.join("");
        open = null;
        buf = text.slice(cut);
      }
    } else buf += text;
    if (!open) {
      for (;;) {
        const start = buf.search(/<note[\s>]/);
        if (start < 0) { buf = buf.slice(-8); break; }
        const end = buf.indexOf("</note>", start);
        if (end < 0) { open = [buf.slice(start)]; tail = buf.slice(-6); buf = ""; break; }
        yield buf.slice(start, end + 7);
        buf = buf.slice(end + 7);
      }
    }
    if (done) break;
    if ((at / chunk) % GC_EVERY_CHUNKS === GC_EVERY_CHUNKS - 1) Bun.gc(false);
  }
}

/**
 * Takes every `<tag …>…</tag>` out of `xml` by plain string search (lazy regexes crawl over a resource's megabytes of
 * base64): returns their inner texts and what is left.
 */
function cut(xml: string, tag: string, once = false): { inner: string[]; rest: string } {
  const inner: string[] = [];
  let rest = "";
  let at = 0;
  for (;;) {
    let start = xml.indexOf(`<${tag}`, at);
    while (start >= 0 && !/[\s>/]/.test(xml[start + tag.length + 1] ?? "")) start = xml.indexOf(`<${tag}`, start + 1);
    const open = start < 0 ? -1 : xml.indexOf(">", start);
    const close = open < 0 ? -1 : xml.indexOf(`</${tag}>`, open);
    if (close < 0) break;
    inner.push(xml.slice(open + 1, close));
    rest += xml.slice(at, start);
    at = close + tag.length + 3;
    if (once) break;
  }
  return { inner, rest: rest + xml.slice(at) };
}

/**
 * The inner texts of `<tag>…</tag>` (or `<tag attrs>…`) in `xml`, as `<tag(?:\s[^>]*)?>([\s\S]*?)</tag>` found them, by
 * search: that pattern went on to the end of the note from every unclosed `<tag>` (200 KB of `<tag>` took 97 s). When
 * one has no `>` or no end tag after it, no later one has either, so the search stops there.
 */
function elementTexts(xml: string, tag: string, once: boolean): string[] {
  const out: string[] = [];
  const open = `<${tag}`;
  for (let at = xml.indexOf(open); at >= 0; at = xml.indexOf(open, at + 1)) {
    const next = xml[at + open.length];
    let start: number;
    if (next === ">") start = at + open.length + 1;
    else if (next !== undefined && /\s/.test(next)) {
      const gt = xml.indexOf(">", at + open.length);
      if (gt < 0) break;
      start = gt + 1;
    } else continue;
    const close = xml.indexOf(`</${tag}>`, start);
    if (close < 0) break;
    out.push(xml.slice(start, close));
    if (once) break;
    at = close + tag.length + 2;
  }
  return out;
}

const text = (xml: string, tag: string) => {
  const [inner] = elementTexts(xml, tag, true);
  return inner === undefined ? undefined : decodeEntities(inner.replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, "$1")).trim();
};
const all = (xml: string, tag: string) => elementTexts(xml, tag, false).map((inner) => decodeEntities(inner).trim());

export function enexNote(xml: string, file: string, seen: Map<string, number>): { note: SourceNote; skipped: SkippedItem[] } {
  // Resources carry base64 data and content carries ENML: cut both out before looking for the note's own fields.
  const { inner: resources, rest: withoutResources } = cut(xml, "resource");
  const { inner: contents, rest } = cut(withoutResources, "content", true);
  const raw = (contents[0] ?? "").trim();
  const enml = raw.startsWith("<![CDATA[") && raw.endsWith("]]>") ? raw.slice(9, -3) : decodeEntities(raw);
  // A resource keeps only its small fields: its base64 <data> is never looked at.
  const resourceFields = resources.map((r) => cut(r, "data", true).rest);
  const title = text(rest, "title") || "Untitled note";
  const created = text(rest, "created");
  // No ids in an .enex: the creation time (or position) in its file names a note across re-exports.
  const base = `${file}#${created ?? title}`;
  const n = (seen.get(base) ?? 0) + 1;
  seen.set(base, n);
  const origin = n === 1 ? base : `${base}~${n}`;
  const converted = htmlToMarkdown(enml);
  const links = externalLinks(converted.markdown);
  const sourceUrl = text(rest, "source-url");
  if (sourceUrl && /^https?:\/\//i.test(sourceUrl)) mergeLinks(links, [{ url: sourceUrl, title: "Source" }]);
  const skipped: SkippedItem[] = resourceFields.map((r, i) => {
    const name = text(r, "file-name") ?? `resource ${i + 1}`;
    return { skipped: `${file}: ${title} → ${name}`, reason: `attachment (${text(r, "mime") ?? "file"}) not imported` };
  });
  const problems = [...converted.problems];
  if (converted.media > resources.length) problems.push(`${converted.media - resources.length} embedded media without data in the export`);
  const updated = enexDate(text(rest, "updated"));
  return {
    note: note({ origin, title, body: converted.markdown, tags: all(rest, "tag").filter(Boolean), created_at: enexDate(created), updated_at: updated ?? enexDate(created), links, problems }),
    skipped,
  };
}

export const evernoteReader: SourceReader = {
  id: "evernote",
  label: "Evernote (.enex)",
  async detect(input: ImportInput) {
    for (const e of await firstEntries(input, 50)) {
      if (isJunk(e.path)) continue;
      if (extOf(e.path) === "enex") return true;
      if (["xml", ""].includes(extOf(e.path)) && /<en-export[\s>]/.test(await peekText(e, 1024))) return true;
    }
    return false;
  },
  async *read(input: ImportInput): AsyncIterable<SourceNote | SkippedItem> {
    const entries: ImportEntry[] = [];
    for await (const e of input.entries()) if (!isJunk(e.path) && !e.path.endsWith("/")) entries.push(e);
    // Evernote writes one .enex per notebook, named after it: with several, the notebook becomes a tag of its notes.
    const notebooks = entries.filter((e) => extOf(e.path) === "enex").length > 1;
    for (const e of entries) {
      if (!["enex", "xml", ""].includes(extOf(e.path))) { yield { skipped: e.path, reason: "not an .enex file" }; continue; }
      const seen = new Map<string, number>();
      const notebook = notebooks ? stripExt(baseName(e.path)).trim() : "";
      let count = 0;
      for await (const xml of noteXml(e)) {
        const { note, skipped } = enexNote(xml, e.path, seen);
        if (notebook && !note.tags.includes(notebook)) note.tags.push(notebook);
        count++;
        yield* skipped;
        yield note;
      }
      if (count === 0) yield { skipped: e.path, reason: "no <note> in this file (is it an Evernote export?)" };
    }
  },
};
