// Apple Notes as the usual exporters write it: Account/Folder/Sub/Note.(md|html|txt); folders become tags, "Recently Deleted" is trash.
import type { ImportInput, SkippedItem, SourceNote, SourceReader } from "./types";
import { parseFrontMatter } from "../../../lib/yaml";
import { htmlTitle, htmlToMarkdown } from "./html-to-markdown";
import { baseName, decodeText, dirName, extOf, externalLinks, firstEntries, hashtags, isJunk, note, stripExt, titleFromText, validDate } from "./reader-kit";

/** Top-level folders the exporters name after the account (Exporter, apple-notes-exporter, notes-exporter, Obsidian's importer). */
const ACCOUNT = /^(icloud|on my (mac|iphone|ipad)|google|gmail|exchange|outlook|yahoo|.*@.*)$/i;
const TRASH = /^recently deleted$/i;
/** The default folder every account has; a tag on every note would say nothing. */
const DEFAULT_FOLDER = /^notes$/i;
const NOTE_EXT = new Set(["md", "markdown", "txt", "html", "htm"]);

/** Folder path → tag, below the account folder (and below a single wrapping folder the ZIP may add). */
function folderTag(dir: string, wrapper: string | null): { tag: string | null; trashed: boolean } {
  let parts = dir ? dir.split("/") : [];
  if (wrapper && parts[0] === wrapper) parts = parts.slice(1);
  if (parts.length && ACCOUNT.test(parts[0])) parts = parts.slice(1);
  // Exporter puts the notes it could only write as HTML under "Failed Exports": still notes, in no folder.
  if (parts[0] === "Failed Exports") parts = [];
  // Attachment folders some exporters create beside the note are not Notes folders.
  parts = parts.filter((p) => !/^(attachments?|_attachments|media|images|assets|.*_files)$/i.test(p));
  if (parts.some((p) => TRASH.test(p))) return { tag: null, trashed: true };
  if (parts.length === 1 && DEFAULT_FOLDER.test(parts[0])) parts = [];
  return { tag: parts.length ? parts.join("/") : null, trashed: false };
}

const FM = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
const dateField = (fm: Record<string, unknown>, keys: string[]) => {
  for (const k of keys) {
    const v = fm[k];
    if (typeof v === "string" || typeof v === "number") {
      const d = validDate(new Date(typeof v === "number" ? v * 1000 : /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(v) ? `${v.replace(" ", "T")}Z` : v));
      if (d) return d;
    }
  }
  return undefined;
};

export function appleNote(path: string, text: string, modified: Date | undefined, tag: string | null): SourceNote {
  const problems: string[] = [];
  let body: string;
  let title: string | null = null;
  let created: Date | undefined;
  let origin = path;
  let updated: Date | undefined = modified;
  const tags = tag ? [tag] : [];
  if (/^html?$/.test(extOf(path))) {
    const converted = htmlToMarkdown(text);
    body = converted.markdown;
    title = htmlTitle(text);
    problems.push(...converted.problems);
    if (converted.media) problems.push(`${converted.media} image${converted.media === 1 ? "" : "s"} or attachment${converted.media === 1 ? "" : "s"} not imported`);
  } else {
    body = text.replace(/\r\n?/g, "\n");
    const m = FM.exec(body);
    if (m) {
      const fm = parseFrontMatter(m[1]);
      if (fm) {
        body = body.slice(m[0].length);
        if (typeof fm.title === "string" && fm.title.trim()) title = fm.title.trim();
        // Exporters that write the note's Core Data id let a renamed or moved note keep its idea.
        const id = fm.id ?? fm.note_id ?? fm.noteId;
        if ((typeof id === "string" && id.trim()) || typeof id === "number") origin = `apple-notes:${String(id).trim()}`;
        created = dateField(fm, ["created", "creationDate", "created_at", "date"]);
        updated = dateField(fm, ["modified", "modificationDate", "updated", "updated_at"]) ?? updated;
        const fmTags = fm.tags ?? fm.folder;
        if (Array.isArray(fmTags)) tags.push(...fmTags.map(String));
        else if (typeof fmTags === "string" && fmTags.trim() && !tag) tags.push(fmTags.trim());
      } else problems.push("front matter could not be read; it was kept in the body");
    }
  }
  // Apple Notes has no title field: the first line is the title, and the exporters repeat it at the top of the body.
  const lines = body.split("\n");
  const first = lines.findIndex((l) => l.trim() !== "");
  const firstLine = first >= 0 ? titleFromText(lines[first]) : "";
  title ||= firstLine || stripExt(baseName(path));
  if (first >= 0 && firstLine === title) body = lines.slice(first + 1).join("\n");
  body = body.trim();
  const links = externalLinks(body);
  return note({
    origin, title, body, tags: [...new Set([...tags, ...hashtags(body)])],
    created_at: created, updated_at: updated, links, problems,
  });
}

export const appleNotesReader: SourceReader = {
  id: "apple-notes",
  label: "Apple Notes (Markdown or HTML export)",
  async detect(input: ImportInput) {
    // Only an account folder ("iCloud", "On My Mac") at the top tells these exports apart from any folder of notes.
    for (const e of await firstEntries(input)) {
      if (isJunk(e.path) || !NOTE_EXT.has(extOf(e.path))) continue;
      const parts = e.path.split("/");
      if (parts.slice(0, 2).some((p, i) => i < parts.length - 1 && /^(icloud|on my (mac|iphone|ipad))$/i.test(p))) return true;
    }
    return false;
  },
  async *read(input: ImportInput): AsyncIterable<SourceNote | SkippedItem> {
    const tops = new Set<string>();
    const entries = [];
    for await (const e of input.entries()) {
      if (isJunk(e.path) || e.path.endsWith("/")) continue;
      entries.push(e);
      tops.add(e.path.includes("/") ? e.path.slice(0, e.path.indexOf("/")) : "");
    }
    // A ZIP made of the export folder wraps everything in that folder's name: it is not a Notes folder.
    const only = tops.size === 1 ? [...tops][0] : null;
    const wrapper = only && !ACCOUNT.test(only) ? only : null;
    for (const e of entries) {
      const ext = extOf(e.path);
      const { tag, trashed } = folderTag(dirName(e.path), wrapper);
      if (!NOTE_EXT.has(ext)) { yield { skipped: e.path, reason: "attachment not imported" }; continue; }
      if (trashed) { yield { skipped: e.path, reason: "in Recently Deleted (Apple Notes' trash)" }; continue; }
      const { text, problem } = decodeText(await e.bytes());
      const n = appleNote(e.path, text, e.modified, tag);
      if (problem) n.problems.push(problem);
      yield n;
    }
  },
};
