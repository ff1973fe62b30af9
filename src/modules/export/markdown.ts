// The Markdown export: a ZIP (an Obsidian vault) written entry by entry; only file names are held for the whole run.
import { ideaFileStem } from "../../lib/slug";
import { ZipWriter } from "../../lib/zip";
import type { ExportRepo } from "./repo";
import { ideaPages, type ExportScope } from "./json";
import { renderIdeaMarkdown, type MdRelation } from "./markdown-format";
import type { Chunks } from "./stream";

/**
 * File stems for every exported idea: `NNNN-slug`. Numbers are unique per account, so stems are too; the suffix
 * loop only guards case-insensitive file systems against the unexpected.
 */
export async function fileStems(repo: ExportRepo, scope: ExportScope): Promise<Map<number, string>> {
  const stems = new Map<number, string>();
  const taken = new Set<string>();
  for (const row of await repo.names(scope.userId, scope.maxNumber)) {
    const base = ideaFileStem(row.number, row.title);
    let stem = base;
    for (let n = 2; taken.has(stem.toLowerCase()); n++) stem = `${base}-${n}`;
    taken.add(stem.toLowerCase());
    stems.set(row.id, stem);
  }
  return stems;
}

type RelationEnd = { relation_type: string; created_by: string; score: number | null; note: string | null };

export async function* markdownZipExport(repo: ExportRepo, scope: ExportScope): Chunks {
  const stems = await fileStems(repo, scope);
  const zip = new ZipWriter();
  const enc = new TextEncoder();
  for await (const page of ideaPages(repo, scope)) {
    const parts: Uint8Array[] = [];
    for (const i of page) {
      const stem = stems.get(i.id);
      if (!stem) continue; // cannot happen within the fixed number range; never write "undefined.md"
      const relations: MdRelation[] = [];
      // Wiki-links only to files that are in this ZIP.
      const add = (direction: "out" | "in", otherId: number, r: RelationEnd) => {
        const other = stems.get(otherId);
        if (other) relations.push({ direction, stem: other, relation_type: r.relation_type, created_by: r.created_by, score: r.score, note: r.note });
      };
      for (const r of await repo.outgoing(i.id, scope.maxNumber)) add("out", r.target_idea_id, r);
      for (const r of await repo.incoming(i.id, scope.maxNumber)) add("in", r.source_idea_id, r);
      const text = renderIdeaMarkdown({ ...i, tags: await repo.tagNames(i.id), links: await repo.links(i.id), relations });
      parts.push(zip.add(`${stem}.md`, enc.encode(text), i.updated_at));
    }
    yield Buffer.concat(parts);
  }
  yield zip.finish();
}
