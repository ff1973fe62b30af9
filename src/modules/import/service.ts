// Import rules: read our JSON export or Markdown vault, check the Free cap, write everything in one transaction.
import type { Deps } from "../../deps";
import { AppError, badRequest } from "../../errors";
import { FREE_IDEA_LIMIT, type Plan } from "../../auth/plans";
import { enqueueJob } from "../../jobs/queue";
import { toStamp } from "../../lib/time";
import type { ExportFile } from "../export/model";
import { truncateNote } from "../relations/service";
import { createImportRepo } from "./repo";
import { zipToExportDocument } from "./from-zip";
import { jsonLocate, validateImport } from "./validate";

export interface ImportResult {
  imported: { ideas: number; tags: number; links: number; relations: number };
  skipped: { relations: number; files: string[] };
}

export type Progress = (done: number, total: number) => void;
const PROGRESS_EVERY = 500;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const isZip = (bytes: Uint8Array, contentType: string | null) =>
  /^application\/(x-)?zip(-compressed)?\b/i.test(contentType ?? "") || ZIP_MAGIC.every((b, i) => bytes[i] === b);

export function createImportService(deps: Deps) {
  const repo = createImportRepo(deps.db);

  function ideaCap(current: number, adding: number): AppError {
    return new AppError(403, {
      error: "idea_limit_reached",
      message: `Importing ${adding} ideas would take this Free account past its limit of ${FREE_IDEA_LIMIT} active ideas (it holds ${current}). Archive ideas or upgrade to Pro, then import again.`,
      currentCount: current,
      limit: FREE_IDEA_LIMIT,
      upgradeUrl: deps.config.upgrade_url,
      featureRequestUrl: deps.config.feature_request_url,
    });
  }

  /** Parses and validates either format into the JSON document shape. */
  function read(bytes: Uint8Array, contentType: string | null): { file: ExportFile; skippedFiles: string[] } {
    if (isZip(bytes, contentType)) {
      const { doc, skippedFiles } = zipToExportDocument(bytes);
      const files = (doc as { paths: string[] }).paths;
      // Problems are reported by file name, the way the user sees the vault.
      const file = validateImport(doc, (p) => {
        const m = /^\/ideas\/(\d+)(\/.*)?$/.exec(p);
        return m ? `${files[Number(m[1])]}${m[2] ?? ""}` : jsonLocate(p);
      });
      return { file, skippedFiles };
    }
    let doc: unknown;
    try {
      doc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw badRequest("Invalid JSON body");
    }
    return { file: validateImport(doc), skippedFiles: [] };
  }

  /** Everything in one transaction: a failure leaves the account exactly as it was. */
  function write(userId: string, plan: Plan, file: ExportFile, onProgress?: Progress): ImportResult {
    const now = toStamp(deps.clock());
    // Numbers are re-assigned in the original order; ideas without a number keep their place in the file.
    const ideas = file.ideas
      .map((idea, index) => ({ idea, index }))
      .sort((a, b) => (a.idea.number ?? Infinity) - (b.idea.number ?? Infinity) || a.index - b.index)
      .map((x) => x.idea);
    const result: ImportResult = { imported: { ideas: 0, tags: 0, links: 0, relations: 0 }, skipped: { relations: 0, files: [] } };
    deps.db.transaction(() => {
      if (plan === "free") {
        const current = repo.countActive(userId);
        if (current + ideas.length > FREE_IDEA_LIMIT) throw ideaCap(current, ideas.length);
      }
      const vocabulary = new Map((file.tags ?? []).map((t) => [t.name, t]));
      const tagIds = new Map<string, number>();
      const ensureTag = (name: string): number => {
        const known = tagIds.get(name);
        if (known !== undefined) return known;
        const wanted = vocabulary.get(name);
        const existing = repo.findTag(userId, name);
        let id: number;
        if (existing) {
          id = existing.id;
          // The account's own colour wins; a colourless existing tag takes the imported one.
          if (existing.color === null && wanted?.color) repo.fillTagColor(id, wanted.color);
        } else {
          id = repo.insertTag(userId, name, wanted?.color ?? null, wanted?.created_at ?? now);
          enqueueJob(deps.db, "tag-embed", null, now, { tag_id: id });
          result.imported.tags++;
        }
        tagIds.set(name, id);
        return id;
      };
      for (const name of vocabulary.keys()) ensureTag(name);

      const first = repo.reserveNumbers(userId, ideas.length);
      const newId = new Map<number, number>();
      ideas.forEach((idea, k) => {
        const created = idea.created_at ?? now;
        const id = repo.insertIdea({
          user_id: userId,
          number: first + k,
          title: idea.title,
          body: idea.body ?? "",
          status: idea.status ?? "captured",
          source: idea.source ?? "api",
          source_url: idea.source_url ?? null,
          source_summary: idea.source_summary ?? null,
          created_at: created,
          updated_at: idea.updated_at ?? created,
        });
        newId.set(idea.id, id);
        for (const name of new Set(idea.tags ?? [])) repo.attachTag(id, ensureTag(name));
        for (const l of idea.links ?? []) {
          repo.insertLink(id, { url: l.url, title: l.title ?? null, link_type: l.link_type ?? "url", created_at: l.created_at ?? now });
          result.imported.links++;
        }
        // Imported ideas get the whole background pass: embedding, auto-relations, duplicate check.
        enqueueJob(deps.db, "full", id, now);
        result.imported.ideas++;
        if (onProgress && (result.imported.ideas % PROGRESS_EVERY === 0 || result.imported.ideas === ideas.length)) {
          onProgress(result.imported.ideas, ideas.length);
        }
      });

      for (const idea of ideas) {
        const parent = idea.parent_id == null ? undefined : newId.get(idea.parent_id);
        if (parent !== undefined && parent !== newId.get(idea.id)) repo.setParent(newId.get(idea.id)!, parent);
      }

      for (const idea of ideas) {
        for (const r of idea.relations ?? []) {
          const source = newId.get(r.source_idea_id);
          const target = newId.get(r.target_idea_id);
          // Ends outside the file (or a self-pair) cannot be recreated; a repeated pair is stored once.
          const stored = source !== undefined && target !== undefined && source !== target &&
            repo.insertRelation(userId, {
              source, target, relation_type: r.relation_type, score: r.score ?? null, note: truncateNote(r.note),
              created_by: r.created_by ?? "user", created_at: r.created_at ?? now,
            });
          if (stored) result.imported.relations++;
          else result.skipped.relations++;
        }
      }
    })();
    deps.engines.onJobQueued?.();
    return result;
  }

  return {
    importBytes(userId: string, plan: Plan, bytes: Uint8Array, contentType: string | null, onProgress?: Progress): ImportResult {
      if (bytes.length > deps.config.import_body_limit_bytes) throw new AppError(413, { error: "Request body too large" });
      const { file, skippedFiles } = read(bytes, contentType);
      const result = write(userId, plan, file, onProgress);
      result.skipped.files = skippedFiles;
      return result;
    },
  };
}
