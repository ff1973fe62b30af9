// Google Keep, as Google Takeout exports it: one JSON file per note under Takeout/Keep/, beside HTML copies and attachments.
import type { ImportInput, SkippedItem, SourceNote, SourceReader } from "./types";
import { baseName, decodeText, externalLinks, firstEntries, isJsonEntry, isJunk, mergeLinks, note, parseJsonOrSkip, peekText, stripExt, titleFromText, validDate } from "./reader-kit";

interface KeepNote {
  title?: string; textContent?: string; listContent?: { text?: string; isChecked?: boolean }[];
  labels?: { name?: string }[]; annotations?: { url?: string; title?: string; description?: string }[];
  attachments?: { filePath?: string; mimetype?: string }[];
  isTrashed?: boolean; isArchived?: boolean; isPinned?: boolean;
  createdTimestampUsec?: number | string; userEditedTimestampUsec?: number | string;
}

const KEEP_KEYS = /"(userEditedTimestampUsec|createdTimestampUsec|isTrashed)"\s*:/;
const fromUsec = (v: number | string | undefined) => (v === undefined || v === null || v === "" ? undefined : validDate(new Date(Number(v) / 1000)));

/** Checklist items become a Markdown task list; a checked item keeps its tick. */
const checklist = (items: NonNullable<KeepNote["listContent"]>) =>
  items.map((i) => `- [${i.isChecked ? "x" : " "}] ${(i.text ?? "").replace(/\n+/g, " ").trim()}`).join("\n");

export function keepNote(path: string, k: KeepNote): SourceNote | SkippedItem {
  if (k.isTrashed) return { skipped: path, reason: "in Keep's trash" };
  // Takeout names files after titles, so a renamed note changes file; its creation time (µs) stays, and names it.
  const origin = k.createdTimestampUsec ? `keep:${k.createdTimestampUsec}` : path;
  const text = (k.textContent ?? "").replace(/\r\n?/g, "\n");
  const body = [text.trim() ? text : "", k.listContent?.length ? checklist(k.listContent) : ""].filter(Boolean).join("\n\n");
  const title = (k.title ?? "").trim() || titleFromText(body) || stripExt(baseName(path));
  const links = externalLinks(body);
  for (const a of k.annotations ?? []) if (a.url && /^https?:\/\//i.test(a.url)) mergeLinks(links, [{ url: a.url, title: a.title?.trim() || null }]);
  return note({
    origin, title, body,
    tags: (k.labels ?? []).map((l) => (l.name ?? "").trim()).filter(Boolean),
    archived: k.isArchived === true, pinned: k.isPinned === true,
    created_at: fromUsec(k.createdTimestampUsec), updated_at: fromUsec(k.userEditedTimestampUsec) ?? fromUsec(k.createdTimestampUsec),
    links,
  });
}

export const keepReader: SourceReader = {
  id: "keep",
  label: "Google Keep (Google Takeout)",
  async detect(input: ImportInput) {
    for (const e of await firstEntries(input)) {
      if (!isJunk(e.path) && await isJsonEntry(e) && KEEP_KEYS.test(await peekText(e, 2048))) return true;
    }
    return false;
  },
  async *read(input: ImportInput): AsyncIterable<SourceNote | SkippedItem> {
    for await (const e of input.entries()) {
      if (isJunk(e.path) || e.path.endsWith("/")) continue;
      // The HTML files are Takeout's rendering of the same notes, and Labels.txt repeats the labels: the JSON carries both.
      // Attachment files are listed once, under the note that holds them (below), not a second time by file.
      if (!(await isJsonEntry(e))) continue;
      const { text, problem } = decodeText(await e.bytes());
      const parsed = parseJsonOrSkip(text, e.path);
      if ("skipped" in parsed) { yield parsed; continue; }
      const k = parsed.doc as KeepNote;
      if (!k || typeof k !== "object" || Array.isArray(k) || !("textContent" in k || "listContent" in k || "title" in k)) {
        yield { skipped: e.path, reason: "not a Keep note" };
        continue;
      }
      const n = keepNote(e.path, k);
      if ("skipped" in n) { yield n; continue; }
      if (problem) n.problems.push(problem);
      for (const a of k.attachments ?? []) yield { skipped: `${e.path}: ${a.filePath ?? "attachment"}`, reason: `attachment (${a.mimetype ?? "file"}) not imported` };
      yield n;
    }
  },
};
