// The hourly recovery job: re-queues ideas that slipped through (a lost queue write, a crash), re-embeds renamed
// tags, frees orphaned vectors, and wakes the runner so an unfinished reindex keeps going.
import type { Deps } from "../deps";
import type { ScheduledJob } from "../jobs/scheduled-job";
import { toStamp } from "../lib/time";
import { createJobs, wakeWorker } from "../modules/filing/jobs";
import { readState } from "../vectors/generations";
import { vectorStore } from "../vectors/store";
import { pipelineQueue } from "./batch";
import { createPipelineRepo } from "./repo";

/**
 * Queues a full pass for every live idea that was never embedded and has no full pass queued. Ideas embedded by an
 * older model need no job: the runner's reindex slices pick them up by their vectorize_id generation.
 */
export async function requeueUnprocessed(deps: Deps): Promise<number> {
  const repo = createPipelineRepo(deps.store);
  const now = toStamp(deps.clock());
  const jobs = createJobs(deps.store);
  return deps.store.tx(async () => {
    const ids = await pipelineQueue(deps.store).withoutJob("full", await repo.unembeddedIdeaIds());
    for (const id of ids) await jobs.fullPass(id, now);
    return ids.length;
  });
}

/** Renamed tags keep their old vector until this pass (or the tag-embed job their rename queued) re-embeds them. */
export async function requeueRenamedTags(deps: Deps): Promise<number> {
  const s = await readState(deps.store);
  const now = toStamp(deps.clock());
  const jobs = createJobs(deps.store);
  return deps.store.tx(async () => {
    let n = 0;
    for (const g of [s.active, s.building]) {
      if (!g) continue;
      for (const id of await vectorStore(deps.store, g).renamedTagIds()) {
        await jobs.tagEmbedding(id, now);
        n++;
      }
    }
    return n;
  });
}

/** Vectors whose idea or tag is gone. */
export async function pruneOrphanVectors(deps: Deps): Promise<number> {
  const s = await readState(deps.store);
  return deps.store.tx(async () => {
    let n = 0;
    for (const g of [s.active, s.building]) if (g) n += await vectorStore(deps.store, g).pruneOrphans();
    return n;
  });
}

export async function runRecovery(deps: Deps): Promise<{ requeued: number; renamed: number; pruned: number }> {
  const out = { requeued: await requeueUnprocessed(deps), renamed: await requeueRenamedTags(deps), pruned: await pruneOrphanVectors(deps) };
  if (out.requeued || out.renamed || out.pruned) deps.log.info("pipeline recovery", out);
  wakeWorker(deps); // the running worker picks the requeued jobs up now
  return out;
}

export const pipelineRecoveryJob: ScheduledJob = {
  name: "pipeline-recovery",
  pattern: "17 * * * *", // hourly, off the top of the hour when other schedules run
  run: async (deps) => void (await runRecovery(deps)),
};
