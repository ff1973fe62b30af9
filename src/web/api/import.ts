// Import for the settings page: POST /user/import with the file as the raw body, first as a dry run, then for real.
import { request } from "./client";
import type { ImportReport as ApiImportReport, NotesImportReport } from "../../contract/responses";

/** The sources the server reads; "" lets it detect the source from the file. */
export const IMPORT_SOURCES = [
  { id: "", label: "Detect from the file" },
  { id: "idearepo", label: "idearepo export (JSON or Markdown ZIP)" },
  { id: "markdown", label: "Markdown folder (ZIP)" },
  { id: "obsidian", label: "Obsidian vault (ZIP)" },
  { id: "logseq", label: "Logseq graph (ZIP)" },
  { id: "keep", label: "Google Keep (Google Takeout)" },
  { id: "apple-notes", label: "Apple Notes (Markdown or HTML export)" },
  { id: "notion", label: "Notion (Markdown & CSV export)" },
  { id: "evernote", label: "Evernote (.enex)" },
  { id: "memos", label: "Memos (memos_prod.db or API export)" },
  { id: "karakeep", label: "Karakeep (JSON export)" },
] as const;

/** What the page shows of an answer, whichever report shape the server sent. */
export interface ImportReport {
  dryRun: boolean;
  source: string | null;
  created: number;
  updated: number;
  unchanged: number;
  skipped: { item: string; reason: string }[];
  problems: { item: string; problem: string }[];
  tags: number | null;
  links: number | null;
  relations: number | null;
  queued: number | null;
}

/**
 * POST /user/import's answer: third-party sources report created/updated/unchanged, skipped items with reasons and
 * per-note problems; our own JSON/vault formats answer the older `{imported:{ideas,…}, skipped:{relations, files}}`.
 */
type RawReport = ApiImportReport;

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export function toReport(raw: RawReport, dryRun: boolean): ImportReport {
  // Read as the notes report, whose fields our own report's are a part of.
  const i: Partial<NotesImportReport["imported"]> = raw.imported ?? {};
  const skipped: Partial<NotesImportReport["skipped"]> = raw.skipped ?? {};
  const notes: Partial<NotesImportReport> = "source" in raw ? raw : {};
  const items = skipped.items ?? [];
  // Files skipped by our own vault format carry no reason of their own.
  const files = (skipped.files ?? []).filter((f) => !items.some((x) => x.skipped === f)).map((f) => ({ item: f, reason: "not an idea note" }));
  return {
    dryRun: raw.dry_run ?? dryRun,
    source: notes.source ?? null,
    created: num(i.created) ?? num(i.ideas) ?? 0,
    updated: num(i.updated) ?? 0,
    unchanged: num(i.unchanged) ?? 0,
    skipped: [...items.map((x) => ({ item: x.skipped, reason: x.reason })), ...files],
    problems: (notes.problems ?? []).map((p) => ({ item: p.origin, problem: p.problem })),
    tags: num(i.tags),
    links: num(i.links),
    relations: num(i.relations),
    queued: num(notes.queued),
  };
}

/** The file is the raw body; its name rides along so the server can detect the source (".enex", "memos_prod.db"). */
export async function importFile(file: File, opts: { source?: string; dryRun: boolean }): Promise<ImportReport> {
  const type = /\.zip$/i.test(file.name) || /zip/.test(file.type) ? "application/zip" : /\.json$/i.test(file.name) ? "application/json" : "application/octet-stream";
  const raw = await request<RawReport>("POST", "/user/import", {
    body: new Blob([file], { type }),
    query: { dry_run: opts.dryRun ? "true" : undefined, from: opts.source || undefined, name: file.name },
  });
  return toReport(raw ?? {}, opts.dryRun);
}
