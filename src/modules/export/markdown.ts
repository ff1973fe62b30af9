// The Markdown export: a ZIP (an Obsidian vault) built entry by entry; only file names are held for the whole run.
import { Zip, ZipPassThrough } from "fflate";
import { ideaFileStem } from "../../lib/slug";
import type { ExportRepo } from "./repo";
import { ideaPages, type ExportScope } from "./json";
import { renderIdeaMarkdown, type MdRelation } from "./markdown-format";
import type { Chunks } from "./stream";

/** A ZIP entry deflated in one shot by Bun's native zlib; unlike fflate's ZipDeflate it keeps no compressor state. */
class OneShotDeflate extends ZipPassThrough {
  constructor(name: string, mtime: Date) {
    super(name);
    this.compression = 8;
    this.mtime = mtime;
  }
  override process(chunk: Uint8Array, final: boolean): void {
    this.ondata(null, Bun.deflateSync(chunk as Uint8Array<ArrayBuffer>, { level: 6 }), final);
  }
}

/** ZIP stores local wall-clock fields; build a Date whose local fields are the UTC stamp, clamped to DOS range. */
function zipTime(stamp: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(stamp);
  if (!m) return new Date(1980, 0, 1);
  const year = Math.min(2099, Math.max(1980, Number(m[1])));
  return new Date(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/**
 * File stems for every exported idea: `NNNN-slug`. Numbers are unique per account, so stems are too; the suffix
 * loop only guards case-insensitive file systems against the unexpected.
 */
export function fileStems(repo: ExportRepo, scope: ExportScope): Map<number, string> {
  const stems = new Map<number, string>();
  const taken = new Set<string>();
  for (const row of repo.names(scope.userId, scope.maxNumber)) {
    const base = ideaFileStem(row.number, row.title);
    let stem = base;
    for (let n = 2; taken.has(stem.toLowerCase()); n++) stem = `${base}-${n}`;
    taken.add(stem.toLowerCase());
    stems.set(row.id, stem);
  }
  return stems;
}

export function* markdownZipExport(repo: ExportRepo, scope: ExportScope): Chunks {
  const stems = fileStems(repo, scope);
  let out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else out.push(chunk);
  });
  const flush = (): Uint8Array => {
    const joined = Buffer.concat(out);
    out = [];
    return joined;
  };
  const enc = new TextEncoder();
  for (const page of ideaPages(repo, scope)) {
    for (const i of page) {
      const stem = stems.get(i.id);
      if (!stem) continue; // renamed into view after the names pass (cannot happen within the fixed number range)
      const relations: MdRelation[] = [];
      const related = (direction: "out" | "in", otherId: number, r: { relation_type: string; created_by: string; score: number | null; note: string | null }) => {
        const stem = stems.get(otherId);
        if (stem) relations.push({ direction, stem, relation_type: r.relation_type, created_by: r.created_by, score: r.score, note: r.note });
      };
      for (const r of repo.outgoing(i.id, scope.maxNumber)) related("out", r.target_idea_id, r);
      for (const r of repo.incoming(i.id, scope.maxNumber)) related("in", r.source_idea_id, r);
      const text = renderIdeaMarkdown({
        ...i,
        tags: repo.tagNames(i.id),
        links: repo.links(i.id),
        relations,
      });
      const entry = new OneShotDeflate(`${stem}.md`, zipTime(i.updated_at));
      zip.add(entry);
      entry.push(enc.encode(text), true);
    }
    if (failure) throw failure;
    yield flush();
  }
  zip.end();
  if (failure) throw failure;
  yield flush();
}
