// The lookups other modules reach through deps.engines: similar tags (stored tag vectors) and the health summary.
import type { Db } from "../db/open";
import { readState, targetGeneration, vectorIdRange } from "../vectors/generations";
import { vectorStore } from "../vectors/store";
import { servingGeneration, type ModelSet } from "./models";

export interface SimilarTag {
  name: string;
  idea_count: number;
  similarity: number;
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
  const rows = db
    .query<{ id: number; name: string; idea_count: number }, [string, string]>(
      `SELECT t.id, t.name, (SELECT count(*) FROM idea_tags it JOIN ideas i ON i.id = it.idea_id
                             WHERE it.tag_id = t.id AND i.is_archived = 0) AS idea_count
       FROM tags t WHERE t.user_id = ?1 AND t.vectorize_id IS NOT NULL AND t.id IN (SELECT value FROM json_each(?2))`,
    )
    .all(userId, JSON.stringify(near.map((n) => n.id)));
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
  const total = db.query<{ n: number }, []>("SELECT count(*) AS n FROM ideas WHERE is_archived = 0").get()!.n;
  const done = target
    ? db
        .query<{ n: number }, [string, string]>(
          "SELECT count(*) AS n FROM ideas WHERE is_archived = 0 AND vectorize_id >= ?1 AND vectorize_id < ?2",
        )
        .get(...vectorIdRange(target.gen))!.n
    : 0;
  return {
    embeddings: {
      model: target?.model_id ?? null,
      search_model: s.active?.model_id ?? null,
      reindexing: s.building !== null,
      pending: total - done,
      total,
    },
  };
}
