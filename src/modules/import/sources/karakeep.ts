// Karakeep (formerly Hoarder), its JSON export: { bookmarks: [...], lists: [...] } with link, text and asset bookmarks.
import type { ImportInput, SkippedItem, SourceNote, SourceReader } from "./types";
import { decodeText, externalLinks, firstEntries, hashtags, isJsonEntry, isJunk, mergeLinks, note, parseJsonOrSkip, peekText, titleFromText, validDate } from "./reader-kit";

interface KarakeepBookmark {
  id?: string; createdAt?: number; title?: string | null; tags?: string[]; lists?: string[];
  content?: { type?: string; url?: string; text?: string; description?: string | null; assetId?: string } | null;
  description?: string | null; summary?: string | null; note?: string | null; archived?: boolean; favourited?: boolean;
}
interface KarakeepExport { bookmarks?: KarakeepBookmark[]; lists?: { id?: string; name?: string }[] }

const looksLikeExport = (head: string) => /^\s*\{\s*"bookmarks"\s*:\s*\[/.test(head) && (/"createdAt"\s*:/.test(head) || /\]\s*(,|\})/.test(head));

/** The part of a URL a person recognises, for a link bookmark without a title. */
function urlTitle(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname.replace(/^www\./, "")}${u.pathname === "/" ? "" : decodeURI(u.pathname)}`.slice(0, 120);
  } catch {
    return url.slice(0, 120);
  }
}

export function karakeepNote(b: KarakeepBookmark, index: number, listNames: Map<string, string>, file: string): SourceNote | SkippedItem {
  const c = b.content ?? null;
  const type = c?.type ?? "asset";
  // The export has no id before late 2025; the creation second and what was saved identify a bookmark as well.
  const origin = b.id ? `bookmark:${b.id}` : `bookmark:${b.createdAt ?? index}:${c?.url ?? (c?.text ?? "").slice(0, 64)}`;
  const userNote = (b.note ?? "").trim();
  const description = (c?.description ?? b.description ?? "").trim();
  const summary = (b.summary ?? "").trim();
  const problems: string[] = [];
  let body: string;
  let title = (b.title ?? "").trim();
  const links: SourceNote["links"] = [];
  if (type === "link" && c?.url) {
    links.push({ url: c.url, title: title || null });
    body = [userNote, description ? `> ${description.replace(/\n+/g, "\n> ")}` : "", summary ? `**Summary:** ${summary}` : ""].filter(Boolean).join("\n\n");
    title ||= urlTitle(c.url);
  } else if (type === "text") {
    const text = (c?.text ?? "").replace(/\r\n?/g, "\n");
    body = [text.trim() ? text : "", userNote].filter(Boolean).join("\n\n");
    title ||= titleFromText(text) || titleFromText(userNote);
  } else {
    // Assets (images, PDFs) are not in the export, only their ids: the bookmark survives only through its words.
    if (!title && !userNote) return { skipped: `${file}: bookmark ${b.id ?? index + 1}`, reason: "an image or PDF bookmark; its file is not in Karakeep's export" };
    body = [userNote, summary ? `**Summary:** ${summary}` : ""].filter(Boolean).join("\n\n");
    title ||= titleFromText(userNote);
    problems.push(`its ${type === "asset" ? "file (image or PDF)" : type} is not in Karakeep's export, only the title and note were imported`);
  }
  mergeLinks(links, externalLinks(body));
  const tags = [...(b.tags ?? []).map((t) => String(t).trim()).filter(Boolean), ...hashtags(userNote)];
  for (const id of b.lists ?? []) { const name = listNames.get(id); if (name) tags.push(name); }
  const created = typeof b.createdAt === "number" ? validDate(new Date(b.createdAt * 1000)) : undefined;
  return note({
    origin, title: title || "Untitled bookmark", body,
    tags: [...new Set(tags)],
    archived: b.archived === true, pinned: b.favourited === true,
    // The export has no modification time: the bookmark counts as last changed when it was saved.
    created_at: created, updated_at: created,
    links, problems,
  });
}

export const karakeepReader: SourceReader = {
  id: "karakeep",
  label: "Karakeep (JSON export)",
  async detect(input: ImportInput) {
    for (const e of await firstEntries(input, 20)) if (!isJunk(e.path) && await isJsonEntry(e) && looksLikeExport(await peekText(e))) return true;
    return false;
  },
  async *read(input: ImportInput): AsyncIterable<SourceNote | SkippedItem> {
    for await (const e of input.entries()) {
      if (isJunk(e.path) || e.path.endsWith("/")) continue;
      if (!(await isJsonEntry(e))) { yield { skipped: e.path, reason: "not a Karakeep JSON export" }; continue; }
      const { text } = decodeText(await e.bytes());
      const parsed = parseJsonOrSkip(text, e.path);
      if ("skipped" in parsed) { yield parsed; continue; }
      const doc = parsed.doc as KarakeepExport;
      if (!doc || !Array.isArray(doc.bookmarks)) { yield { skipped: e.path, reason: "not a Karakeep export (no bookmarks list)" }; continue; }
      const listNames = new Map((doc.lists ?? []).filter((l) => l.id && l.name).map((l) => [l.id!, l.name!.trim()]));
      for (const [i, b] of doc.bookmarks.entries()) {
        if (!b || typeof b !== "object") { yield { skipped: `${e.path}: bookmark ${i + 1}`, reason: "not a bookmark object" }; continue; }
        yield karakeepNote(b, i, listNames, e.path);
      }
    }
  },
};
