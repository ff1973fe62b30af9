// The reindex backlog: ideas and tags whose vector is of another generation than the target, embedded in slices when
// no job is ready, and the switch to the new model once none is left. Slices never run the neighbour steps.
import type { Deps } from "../deps";
import { toStamp } from "../lib/time";
import { switchIfComplete, targetGeneration, type EmbeddingState } from "../vectors/generations";
import { embedBatch, freshVector, storeItem, type Batch } from "./batch";
import { ideaText, type EmbedItem } from "./embed";
import type { ModelSet } from "./models";
import type { PipelineRepo } from "./repo";

/** Items per reindex slice; large for the same reason as the runner's BATCH_JOBS (less padding per model call). */
export const REINDEX_BATCH = 256;

const yieldToHttp = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createReindexer(deps: Deps, models: ModelSet, repo: PipelineRepo) {
  const { log } = deps;
  /** Items being embedded right now, so the next slice does not pick them again. */
  const inFlight = new Set<string>();
  /** Items that failed to embed in this process: skipped until restart so a bad text cannot spin the loop. */
  const poisoned = new Set<string>();
  const key = (item: Pick<EmbedItem, "kind" | "id">) => `${item.kind}:${item.id}`;

  return {
    /** Embeds the next slice of the backlog; null when none is left (after switching models if a build completed). */
    async prepare(state: EmbeddingState): Promise<Batch | null> {
      const target = targetGeneration(state)!;
      const free = (kind: "idea" | "tag", id: number) => !inFlight.has(`${kind}:${id}`) && !poisoned.has(`${kind}:${id}`);
      const items: EmbedItem[] = [
        ...(await repo.ideasOutsideGen(target.gen, REINDEX_BATCH * 2)).filter((i) => free("idea", i.id))
          .map((i): EmbedItem => ({ kind: "idea", id: i.id, userId: i.user_id, text: ideaText(i.title, i.body) })),
        ...(await repo.tagsOutsideGen(target.gen, REINDEX_BATCH * 2)).filter((t) => free("tag", t.id))
          .map((t): EmbedItem => ({ kind: "tag", id: t.id, userId: t.user_id, text: t.name })),
      ].slice(0, REINDEX_BATCH);
      if (items.length === 0) {
        if (state.building && inFlight.size === 0) {
          const active = await switchIfComplete(deps.store, toStamp(deps.clock()));
          if (active) log.info("embedding model switched; old vectors dropped", { model: active.model_id, generation: active.gen });
        }
        return null;
      }
      for (const i of items) inFlight.add(key(i));
      const batch = await embedBatch(deps.store, models, log, { kind: "reindex", jobs: [], state, gens: [target], items: new Map([[0, items]]) });
      if (batch.failed.size > 0) {
        for (const i of items) if (!freshVector(batch, target.gen, i)) poisoned.add(key(i));
        log.warn("reindex: some texts could not be embedded; they are retried after a restart", { count: poisoned.size });
      }
      return batch;
    },

    /** Stores a slice one item per short transaction (items archived or deleted meanwhile are skipped); returns the count. */
    async apply(batch: Batch): Promise<number> {
      const items = batch.items.get(0)!;
      for (const item of items) {
        await deps.store.tx(async () => {
          const live = item.kind === "idea" ? await repo.idea(item.id) : await repo.tag(item.id);
          if (live && !("is_archived" in live && live.is_archived)) await storeItem(deps.store, batch, item);
        });
        inFlight.delete(key(item));
      }
      await yieldToHttp();
      return items.length;
    },

    /** Forgets a slice that will not be written (shutdown); its items are picked again by a later slice. */
    release(batch: Batch): void {
      for (const item of batch.items.get(0) ?? []) inFlight.delete(key(item));
    },
  };
}
export type Reindexer = ReturnType<typeof createReindexer>;
