// The background jobs the spec lists for each kind of change (spec "Background processing"), queued in one place with
// typed kinds and payloads, and the worker's one wake-up. Callers say what changed; this file says which job that is.
// Every way of queueing a job is a function here (test/foundation/stores.test.ts fails on any other caller of the queue's
// inserts).
import type { Store } from "../../db/store";
import type { Deps } from "../../deps";
import { enqueueAccountJobs, enqueueJob } from "../../jobs/queue";

export function createJobs(store: Store) {
  return {
    /**
     * A new idea, or a change to its title, body or parent: the full pass (embedding, auto-tags, related ideas,
     * duplicate check, the parent relation). Also what recovery re-queues for an idea whose job was lost.
     */
    fullPass: (ideaId: number, now: string) => enqueueJob(store, { kind: "full", ideaId }, now),
    /** Only the status or the tags changed: the lighter metadata update, which does not re-embed. */
    metadataUpdate: (ideaId: number, now: string) => enqueueJob(store, { kind: "light", ideaId }, now),
    /** An edit of a live idea: the full pass when its text or parent changed, else the metadata update. */
    ideaEdited(ideaId: number, reembed: boolean, now: string): Promise<void> {
      return reembed ? this.fullPass(ideaId, now) : this.metadataUpdate(ideaId, now);
    },
    /** A new or renamed tag: its embedding, so it can appear in similar-tag results. */
    tagEmbedding: (tagId: number, now: string) => enqueueJob(store, { kind: "tag-embed", payload: { tag_id: tagId } }, now),
    /**
     * The account's re-scoring pass (pipeline/rescore.ts): the full pass for each of its live ideas that has a vector,
     * in one statement; an idea with a full pass already waiting keeps that one. Returns how many were queued.
     */
    rescoringPass: (userId: string, now: string) => enqueueAccountJobs(store, "full", userId, now),
  };
}
export type Jobs = ReturnType<typeof createJobs>;

/**
 * Wakes the job worker; call it once after the queueing transaction committed, so the worker never wakes before the
 * job is visible. A failing wake-up only delays the work until the worker's next round: logged, never thrown.
 */
export function wakeWorker(deps: Deps): void {
  try {
    deps.engines.onJobQueued?.();
  } catch (e) {
    deps.log.warn("job wake-up failed", { error: (e as Error).message });
  }
}
