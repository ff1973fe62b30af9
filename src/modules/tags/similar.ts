// GET /tags/:name/similar's lookup: the account's tags nearest a tag by its stored vector. Bound on
// deps.engines.tagSimilar while the pipeline runs (pipeline/process.ts), since it reads the generation it serves.
import type { Store } from "../../db/store";
import type { SimilarTag } from "../../contract/responses";
import { servingGeneration, type ModelSet } from "../../pipeline/models";
import { readState } from "../../vectors/generations";
import { vectorStore } from "../../vectors/store";
import { createTagsRepo } from "./repo";
import type { TagSimilarEngine } from "./model";

/**
 * Tags of the account closest to `tagId`, by cosine of the stored tag vectors (no model call, no floor). A renamed
 * tag is compared through the vector of its old name until the background pass re-embeds it. Tags without a vector
 * never appear.
 */
export function createSimilarTags(store: Store, models: ModelSet | null): TagSimilarEngine {
  const repo = createTagsRepo(store);
  return async (userId: string, tagId: number, limit: number): Promise<SimilarTag[]> => {
    const g = servingGeneration(await readState(store), models);
    if (!g) return [];
    const vectors = vectorStore(store, g);
    const vector = await vectors.tagVector(tagId);
    if (!vector) return [];
    // A few extra neighbours cover deleted tags whose vectors the hourly pass has not pruned yet.
    const near = (await vectors.nearestTags(userId, vector, limit + 6)).filter((n) => n.id !== tagId);
    if (near.length === 0) return [];
    const byId = new Map((await repo.embeddedWithCounts(userId, near.map((n) => n.id))).map((r) => [r.id, r]));
    return near
      .filter((n) => byId.has(n.id))
      .slice(0, limit)
      .map((n) => ({ name: byId.get(n.id)!.name, idea_count: byId.get(n.id)!.idea_count, similarity: n.score }));
  };
}
