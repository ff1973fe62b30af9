// The lookups other modules reach through deps.engines: similar tags (stored tag vectors) and the health summary.
import type { Db } from "../db/open";
import { readState, targetGeneration } from "../vectors/generations";
import { vectorStore } from "../vectors/store";
import { servingGeneration, type ModelSet } from "./models";
import { createPipelineRepo, type PipelineRepo } from "./repo";
import type { SimilarTag } from "../contract";

/** GET /health reads the summary on every call: one repo per database rather than its statements looked up each time. */
const repos = new WeakMap<Db, PipelineRepo>();
function repoOf(db: Db): PipelineRepo {
  let repo = repos.get(db);
  if (!repo) repos.set(db, (repo = createPipelineRepo(db)));
  return repo;
}

/**
 * Tags of the account closest to `tagId`, by cosine of the stored tag vectors (no model call, no floor). A renamed
 * tag is compared through the vector of its old name until the background pass re-embeds it. Tags without a vector
 * never appear.
 */
export function similarTags(db: Db, models: ModelSet | null, userId: string, tagId: number, limit: number): SimilarTag[] {
  const g = servingGeneration(readState(db), models);
  if (!g) return [];
  const store = vectorStore(db, g);
  const vector = store.tagVector(tagId);
  if (!vector) return [];
  // A few extra neighbours cover deleted tags whose vectors the hourly pass has not pruned yet.
  const near = store.nearestTags(userId, vector, limit + 6).filter((n) => n.id !== tagId);
  if (near.length === 0) return [];
  const rows = repoOf(db).embeddedTagsWithCounts(userId, near.map((n) => n.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return near
    .filter((n) => byId.has(n.id))
    .slice(0, limit)
    .map((n) => ({ name: byId.get(n.id)!.name, idea_count: byId.get(n.id)!.idea_count, similarity: n.score }));
}

/**
 * The `embeddings` block of GET /health: the model new vectors come from, the one searches use, and how many live
 * ideas still lack a vector of the former (the reindex progress while `reindexing`).
 */
export function embeddingsHealth(db: Db) {
  const s = readState(db);
  const target = targetGeneration(s);
  const repo = repoOf(db);
  const total = repo.countLiveIdeas();
  const done = target ? repo.countLiveIdeasInGen(target.gen) : 0;
  return {
    embeddings: {
      model: target?.model_id ?? null,
      search_model: s.active?.model_id ?? null,
      reindexing: s.building !== null,
      pending: total - done,
      total,
      // Ideas whose pairs are being judged again after their account's calibration moved (rescore.ts).
      rescoring: target ? repo.countRescoring(target.gen) : 0,
    },
  };
}
