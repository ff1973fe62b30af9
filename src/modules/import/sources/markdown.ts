// Markdown folders, Obsidian vaults, Logseq graphs and Basic Memory projects: one note per .md file, read the same way.
import { IDEA_STATUSES } from "../../../contract";
import type { ImportEntry, ImportInput, SkippedItem, SourceNote, SourceReader } from "./types";
import { baseName, decodeText, dirName, extOf, externalLinks, mergeLinks, note, stripExt, validDate } from "./reader-kit";

const NOTE_EXT = new Set(["md", "markdown", "txt"]);
const ATTACHMENT_EXT = /\.(png|jpe?g|gif|webp|svg|bmp|tiff?|heic|avif|pdf|mp3|m4a|wav|ogg|webm|mp4|mov|mkv|zip|canvas|excalidraw|docx?|xlsx?|pptx?|csv|json|edn)$/i;
const STATUSES: ReadonlySet<string> = new Set(IDEA_STATUSES);
const CREATED_KEYS = ["created", "created_at", "createdAt", "date created", "date_created", "creation_date", "creationDate", "date"];
const UPDATED_KEYS = ["updated", "updated_at", "updatedAt", "modified", "date modified", "date_modified", "last_modified", "lastmod", "mtime"];

type Flavour = "markdown" | "obsidian" | "logseq" | "basic-memory";

/** Config folders and OS litter are never notes and not worth listing; everything else that is not a note is. */
function ignored(path: string, flavour: Flavour): boolean {
  if (path.startsWith("__MACOSX/") || /(^|\/)(\.DS_Store|Thumbs\.db|desktop\.ini)$/i.test(path)) return true;
  const parts = path.split("/");
  if (parts.some((p) => p.startsWith(".") && p !== ".trash")) return true; // .obsidian/, .git/, ._resource forks
  return flavour === "logseq" && parts.some((p, i) => p === "logseq" && i < parts.length - 1); // config.edn, bak/, version files
}

const withoutFences = (md: string) => md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm, "\n");
const withoutCode = (md: string) => withoutFences(md).replace(/`[^`\n]*`/g, " ");

/** Inline `#tags` (nested `#a/b` kept, Logseq's `#[[two words]]`); not in code, URLs, headings, or `#123`. */
export function inlineTags(md: string): string[] {
  const found = new Set<string>();
  const text = withoutCode(md)
    .split("\n").filter((l) => !/^\s{0,3}#{1,6}(\s|$)/.test(l)).join("\n")
    // URLs: their fragments are not tags. A scheme is tried only where a run of scheme characters starts (its digits
    // and signs kept, as the scheme begins at its first letter): tried from each letter, 200 KB of letters took 56 s.
    .replace(/(?<![a-z0-9+.-])([0-9+.-]*)[a-z][a-z0-9+.-]*:\/\/[^\s<>)\]]+/gi, "$1 ")
    .replace(/\[\[[^[\]\n]*\]\]/g, (m) => (m.includes("#") ? " " : m)); // [[note#heading]]
  for (const m of text.matchAll(/(^|[\s(（,;])#\[\[([^[\]\n]+)\]\]/gu)) found.add(m[2].trim());
  for (const m of text.matchAll(/(^|[\s(（,;])#([\p{L}\p{N}_\-/]+)/gu)) {
    const tag = m[2].replace(/^\/+|\/+$/g, "");
    if (tag && !/^[\d/]+$/.test(tag)) found.add(tag);
  }
  return [...found];
}

/** Targets of wiki-links and embeds (`[[n]]`, `[[n|alias]]`, `[[n#h]]`, `![[n]]`) and relative Markdown links. */
export function noteReferences(md: string, notePath: string): { related: string[]; attachments: string[] } {
  const related = new Set<string>();
  const attachments = new Set<string>();
  const text = withoutCode(md);
  for (const m of text.matchAll(/(!?)\[\[([^[\]\n]+?)\]\]/g)) {
    const target = m[2].split("|")[0].split("#")[0].trim();
    if (!target) continue; // [[#heading]] points into the note itself
    if (ATTACHMENT_EXT.test(target)) attachments.add(target);
    else related.add(target);
  }
  for (const m of text.matchAll(/(!?)\[[^[\]\n]*\]\(<?([^)[\]\s>]+)>?(?:\s+"[^"\n]*")?\)/g)) {
    const href = m[2];
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#")) continue; // URLs, mailto:, in-note anchors
    let path: string;
    try {
      path = decodeURIComponent(href.split("#")[0].split("?")[0]);
    } catch {
      path = href.split("#")[0];
    }
    const resolved = resolveRelative(dirName(notePath), path);
    if (resolved === null) continue;
    if (/\.(md|markdown)$/i.test(resolved) || !/\.[^./]+$/.test(resolved)) related.add(resolved);
    else attachments.add(resolved);
  }
  return { related: [...related], attachments: [...attachments] };
}

/** `dir` + a relative link, normalised; a leading `/` is the vault root; null when it climbs out of the vault. */
function resolveRelative(dir: string, link: string): string | null {
  const parts = link.startsWith("/") ? [] : dir ? dir.split("/") : [];
  for (const p of link.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(p);
  }
  return parts.length ? parts.join("/") : null;
}

/** Dates as people write them in front matter: ISO, `YYYY-MM-DD HH:MM(:SS)` (read as UTC), a bare date, epoch seconds/ms. */
export function parseLooseDate(v: unknown): Date | undefined {
  if (v instanceof Date) return validDate(v);
  if (typeof v === "number") return validDate(new Date(v > 1e11 ? v : v * 1000));
  if (typeof v !== "string") return undefined;
  const s = v.trim();
  const local = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(:\d{2}(\.\d+)?)?)$/.exec(s);
  if (local) return validDate(new Date(`${local[1]}T${local[2]}Z`));
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return validDate(new Date(`${s}T00:00:00Z`));
  if (/^\d{4}_\d{2}_\d{2}$/.test(s)) return validDate(new Date(`${s.replace(/_/g, "-")}T00:00:00Z`));
  return /^\d{4}-\d{2}-\d{2}T/.test(s) ? validDate(new Date(s)) : undefined;
}

/** A front matter list, or a string of names separated by commas (or, for tags without commas, by spaces: `tags: a b`). */
const asList = (v: unknown, bySpace = true): string[] => {
  if (Array.isArray(v)) return v.flatMap((x) => asList(x, false));
  if (typeof v === "number") return [String(v)];
  if (typeof v !== "string") return [];
  return v.split(v.includes(",") || !bySpace ? /\s*,\s*/ : /\s+/).map((s) => s.replace(/^#/, "").replace(/^\[\[(.*)\]\]$/, "$1").trim()).filter(Boolean);
};

/** Splits off a `---` front matter block; `problem` when it is there but not a YAML mapping (the text is kept whole). */
export function splitFrontMatter(text: string): { fm: Record<string, unknown>; body: string; problem?: string } {
  const m = /^---[ \t]*\n([\s\S]*?)\n(---|\.\.\.)[ \t]*(\n|$)/.exec(text);
  if (!m) return { fm: {}, body: text };
  let fm: unknown;
  try {
    // Bun's native YAML parser: ~70× faster than the yaml package here (0.3 ms a note was most of a vault's import time).
    fm = Bun.YAML.parse(m[1]);
  } catch (e) {
    const why = (e as Error).message.split("\n")[0];
    return { fm: {}, body: text, problem: `front matter is not valid YAML (${why}): imported with the whole text as body` };
  }
  if (fm === null || fm === undefined) return { fm: {}, body: text.slice(m[0].length).replace(/^\n+/, "") };
  if (typeof fm !== "object" || Array.isArray(fm)) {
    return { fm: {}, body: text, problem: "front matter is not a list of keys: imported with the whole text as body" };
  }
  return { fm: fm as Record<string, unknown>, body: text.slice(m[0].length).replace(/^\n+/, "") };
}

/** Logseq keeps page properties as `key:: value` lines at the top of the first block. */
function logseqProperties(body: string): { props: Record<string, string>; body: string } {
  const props: Record<string, string> = {};
  const lines = body.split("\n");
  let i = 0;
  for (; i < lines.length; i++) {
    const m = /^(?:-\s+)?([A-Za-z][\w-]*)::\s*(.*)$/.exec(lines[i].trim());
    if (!m) break;
    props[m[1].toLowerCase()] = m[2];
  }
  return { props, body: i ? lines.slice(i).join("\n").replace(/^\n+/, "") : body };
}

/** Logseq page file names: `%2F` (or the newer `___`) is the namespace separator; journals are `YYYY_MM_DD`. */
function logseqTitle(path: string): string {
  const stem = stripExt(baseName(path));
  if (/(^|\/)journals\//.test(path) && /^\d{4}_\d{2}_\d{2}$/.test(stem)) return stem.replace(/_/g, "-");
  let name = stem.replace(/___/g, "/");
  try {
    name = decodeURIComponent(name);
  } catch { /* a literal % stays */ }
  return name;
}

/**
 * The text of the first `# heading`, its closing `#`s dropped: what `^ {0,3}# +(.+?)(?:\s+#+)?\s*$` (m flag) took, by
 * hand, as that pattern tried its end at every character of a long run of spaces (200 KB of them took over 3 minutes).
 */
function firstHeading(body: string): string | null {
  const text = withoutFences(body);
  const m = /^ {0,3}# +./m.exec(text);
  if (!m) return null;
  const lineEnd = text.slice(m.index).search(/[\n\r\u2028\u2029]/);
  const line = lineEnd < 0 ? text.slice(m.index) : text.slice(m.index, m.index + lineEnd);
  let rest = line.slice(line.indexOf("#") + 1).replace(/^ +/, "");
  if (rest === "") rest = " "; // the spaces give one back: the heading needs a character
  // The shortest start (one character at least) whose remainder is white space, or white space, #s, white space.
  const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
  let end = rest.length;
  while (isSpace(rest[end - 1])) end--;
  let cut = Math.max(end, 1);
  let hashes = end;
  while (rest[hashes - 1] === "#") hashes--;
  let spaces = hashes;
  while (hashes < end && isSpace(rest[spaces - 1])) spaces--;
  if (spaces < hashes && Math.max(spaces, 1) <= hashes - 1) cut = Math.min(cut, Math.max(spaces, 1));
  return rest.slice(0, cut).trim();
}

const scalar = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" ? String(v) : null);

/** One note file → a SourceNote. Exported for tests and for the other Markdown-based flavours. */
export function readMarkdownNote(entry: { path: string; modified?: Date }, bytes: Uint8Array, flavour: Flavour): SourceNote {
  const { text: raw, problem: utf8 } = decodeText(bytes);
  const problems: string[] = utf8 ? [utf8] : [];
  const text = raw.replace(/\r\n?/g, "\n");
  const split = splitFrontMatter(text);
  if (split.problem) problems.push(split.problem);
  const fm = split.fm;
  let body = split.body;
  let props: Record<string, string> = {};
  if (flavour === "logseq") ({ props, body } = logseqProperties(body));

  const title = scalar(fm.title) ?? scalar(props.title) ?? firstHeading(body) ??
    (flavour === "logseq" ? logseqTitle(entry.path) : stripExt(baseName(entry.path)));
  const tags = [...asList(fm.tags), ...asList(fm.tag), ...asList(props.tags), ...inlineTags(body)];
  const aliases = [...asList(fm.aliases, false), ...asList(fm.alias, false), ...asList(props.alias, false)];

  const dateOf = (keys: string[]) => {
    for (const k of keys) {
      if (fm[k] === undefined || fm[k] === null || fm[k] === "") continue;
      const d = parseLooseDate(fm[k]);
      if (d) return d;
      problems.push(`front matter ${k} is not a date I can read (${String(fm[k]).slice(0, 40)}): the file's date is used`);
    }
    return undefined;
  };
  const journal = flavour === "logseq" ? parseLooseDate(stripExt(baseName(entry.path))) : undefined;
  const { created, updated } = noteDates(dateOf(CREATED_KEYS) ?? journal, dateOf(UPDATED_KEYS), validDate(entry.modified), problems);

  const links = externalLinks(body);
  for (const k of ["url", "source", "source_url", "link"]) {
    const u = scalar(fm[k]);
    if (u && /^https?:\/\/\S+$/i.test(u)) mergeLinks(links, [{ url: u, title: null }]);
  }
  const refs = noteReferences(body, entry.path);
  const status = typeof fm.status === "string" && STATUSES.has(fm.status.toLowerCase()) ? fm.status.toLowerCase() as SourceNote["status"] : undefined;
  const n = note({
    origin: entry.path, title, body, tags, status,
    archived: fm.archived === true ? true : undefined,
    created_at: created, updated_at: updated,
    links, related: refs.related, problems,
  });
  if (aliases.length) n.aliases = aliases;
  return n;
}

/**
 * A note keeps the times its text states; the file's date only fills in what is missing and yields to a stated time,
 * and updated is never before created. So a stated updated earlier than the file's date (a vault zipped today) pulls
 * a missing created down to it rather than being lifted to the ZIP's date; a stated created later than the file's
 * date is also the update time; and when both are stated the wrong way round, created stands and the note says so.
 */
function noteDates(statedCreated: Date | undefined, statedUpdated: Date | undefined, fileDate: Date | undefined, problems: string[]) {
  let created = statedCreated ?? fileDate ?? statedUpdated;
  let updated = statedUpdated ?? fileDate ?? created;
  if (created && updated && updated < created) {
    if (!statedCreated) created = updated;
    else {
      if (statedUpdated) problems.push(`front matter says it was updated (${statedUpdated.toISOString()}) before it was created (${statedCreated.toISOString()}): updated is taken as created`);
      updated = created;
    }
  }
  return { created, updated };
}

async function anyEntry(input: ImportInput, test: (e: ImportEntry) => boolean): Promise<boolean> {
  for await (const e of input.entries()) if (test(e)) return true;
  return false;
}

function flavourReader(id: Flavour, label: string, detect: (input: ImportInput) => Promise<boolean>): SourceReader {
  return {
    id, label, detect, store: "markdown",
    async *read(input: ImportInput): AsyncIterable<SourceNote | SkippedItem> {
      for await (const e of input.entries()) {
        if (e.path.endsWith("/")) continue;
        if (/(^|\/)\.trash\//.test(e.path)) { yield { skipped: e.path, reason: "in Obsidian's trash" }; continue; }
        if (ignored(e.path, id)) continue;
        if (!NOTE_EXT.has(extOf(e.path))) { yield { skipped: e.path, reason: "attachment not imported" }; continue; }
        yield readMarkdownNote(e, await e.bytes(), id);
      }
    },
  };
}

const isNotePath = (p: string) => NOTE_EXT.has(extOf(p)) && !ignored(p, "markdown");

export const obsidianReader = flavourReader("obsidian", "Obsidian vault (ZIP or folder)", (input) =>
  anyEntry(input, (e) => /(^|\/)\.obsidian\//.test(e.path) && e.path.split("/").indexOf(".obsidian") <= 1));

export const logseqReader = flavourReader("logseq", "Logseq graph (ZIP or folder)", async (input) => {
  let pages = false, journals = false;
  for await (const e of input.entries()) {
    if (/(^|\/)logseq\/config\.edn$/.test(e.path)) return true;
    if (/(^|\/)pages\/[^/]+\.md$/.test(e.path)) pages = true;
    if (/(^|\/)journals\/\d{4}_\d{2}_\d{2}\.md$/.test(e.path)) journals = true;
    if (pages && journals) return true;
  }
  return false;
});

/** Basic Memory writes front matter with a `permalink` (and `type`) into every note. */
export const basicMemoryReader = flavourReader("basic-memory", "Basic Memory project (ZIP or folder)", async (input) => {
  let seen = 0, marked = 0;
  for await (const e of input.entries()) {
    if (!isNotePath(e.path) || extOf(e.path) === "txt") continue;
    const head = new TextDecoder().decode((await e.bytes()).subarray(0, 1024)).replace(/\r\n?/g, "\n");
    const fm = /^---\n([\s\S]*?)\n---/.exec(head)?.[1] ?? "";
    if (/^permalink:\s*\S/m.test(fm)) marked++;
    if (++seen >= 10) break;
  }
  return seen > 0 && marked * 2 > seen;
});

export const markdownReader = flavourReader("markdown", "Markdown folder (ZIP or folder)", (input) =>
  anyEntry(input, (e) => isNotePath(e.path) && extOf(e.path) !== "txt"));
