// Reads a Markdown vault (our own export, possibly edited in Obsidian; a ZIP or folder) into the JSON export document shape.
import { strFromU8 } from "fflate";
import { parseFrontMatter } from "../../lib/yaml";
import { parseIdeaMarkdown } from "../export/markdown-format";
import { EXPORT_FORMAT, EXPORT_VERSION } from "../export/model";
import type { ImportInput } from "./sources/types";

const stemOf = (path: string) => path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
const isNote = (path: string) => /\.md$/i.test(path) && !path.startsWith("__MACOSX/") && !stemOf(path).startsWith(".");

/**
 * One idea per `.md` file, ordered by the front matter's number (then name). Wiki-links of the Related section
 * become relations between the files they name; links to files not in the ZIP are dropped. Ids in the returned
 * document are positions, only meaningful inside it.
 */
export async function vaultToExportDocument(input: ImportInput): Promise<{ doc: unknown; skippedFiles: string[] }> {
  const skippedFiles: string[] = [];
  const parsed: Array<{ path: string; stem: string; fm: Record<string, unknown>; md: NonNullable<ReturnType<typeof parseIdeaMarkdown>> }> = [];
  for await (const entry of input.entries()) {
    if (!isNote(entry.path)) continue;
    const path = entry.path;
    const md = parseIdeaMarkdown(strFromU8(await entry.bytes()));
    const fm = md && parseFrontMatter(md.frontMatter);
    if (!md || !fm) {
      skippedFiles.push(path);
      continue;
    }
    parsed.push({ path, stem: stemOf(path), fm, md });
  }
  const num = (v: unknown) => (typeof v === "number" ? v : Number.MAX_SAFE_INTEGER);
  parsed.sort((a, b) => num(a.fm.number) - num(b.fm.number) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const idByStem = new Map(parsed.map((p, i) => [p.stem, i + 1]));
  const str = (v: unknown) => (v === null || v === undefined ? undefined : typeof v === "number" ? String(v) : v);
  const ideas = parsed.map((p, i) => ({
    id: i + 1,
    number: typeof p.fm.number === "number" ? p.fm.number : undefined,
    title: str(p.fm.title),
    body: p.md.body,
    status: str(p.fm.status),
    source: str(p.fm.source),
    source_url: str(p.fm.source_url) ?? null,
    created_at: str(p.fm.created),
    updated_at: str(p.fm.updated),
    tags: Array.isArray(p.fm.tags) ? p.fm.tags.map(String) : p.fm.tags === null || p.fm.tags === undefined ? [] : p.fm.tags,
    links: p.md.links,
    relations: p.md.relations
      .filter((r) => idByStem.has(r.stem))
      .map((r) => ({ source_idea_id: i + 1, target_idea_id: idByStem.get(r.stem)!, relation_type: r.relation_type, score: r.score, note: r.note, created_by: r.created_by })),
  }));
  // `paths` rides along (unknown keys are ignored by validation) so problems can be reported by file name.
  return { doc: { format: EXPORT_FORMAT, version: EXPORT_VERSION, ideas, paths: parsed.map((p) => p.path) }, skippedFiles };
}
