// The queue consumer: claims batches, embeds them in the model worker while the previous batch's rows are written,
// then stores vectors and runs the full pass one idea per short transaction, yielding to HTTP between ideas.
import type { Deps } from "../deps";
import { effectivePlan } from "../auth/plans";
import { createQueue, type JobRow } from "../jobs/queue";
import { toStamp } from "../lib/time";
import { parseSettings } from "../modules/users/settings";
import { readState, switchIfComplete, targetGeneration, vectorId, type EmbeddingState } from "../vectors/generations";
import { forgetStoresExcept, vectorStore } from "../vectors/store";
import { embedBatch, freshVector, itemsForJobs, writableGenerations, type Batch } from "./batch";
import { ideaText, isCurrent, textHash, type EmbedItem } from "./embed";
import { servingGeneration, type ModelSet } from "./models";
import { createPipelineRepo, PIPELINE_JOB_KINDS } from "./repo";
import { removeIdeaVectors } from "./archive";
import { runIdeaSteps } from "./steps";
import { isStorageFull } from "../db/storage";

/**
 * Jobs claimed per batch. The model client sorts a call's texts by length into small batches, and USE-lite pads each
 * batch to its longest text, so a bigger claim means less padding: measured on idea-like texts, 32 per call gave
 * 66% of the sorted-throughput ceiling, 128 gave 90%, 256 gave 97%. Captures still go first when the queue is short
 * (a claim takes what is ready), and search queries interleave with the model's small batches.
 */
export const BATCH_JOBS = 256;
/** Items per reindex slice (embedding only, no neighbour steps); large for the same reason. */
export const REINDEX_BATCH = 256;
/** Longest idle sleep; a wake-up (new job) or a retry coming due ends it sooner. */
const IDLE_MS = 60_000;

const yieldToHttp = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Retry delay after a failure: 30 s doubling per attempt, at most an hour. The job is never dropped. */
const backoffMs = (attempts: number) => Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));
/**
 * Pause after a whole round failed (the database refuses writes: disk full, I/O error): 0.5 s doubling, at most a
 * minute, so a persistent fault costs neither a busy loop nor a log line every 50 ms. New work still wakes it.
 */
const roundBackoffMs = (failures: number) => Math.min(60_000, 500 * 2 ** Math.max(0, failures - 1));

export interface RunnerOptions {
  /** false: leave the job queue to the server and only work through the reindex backlog (CLI `reindex`). */
  jobs?: boolean;
}

export function createRunner(deps: Deps, models: ModelSet, opts: RunnerOptions = {}) {
  const { db, log } = deps;
  const repo = createPipelineRepo(db);
  const queue = createQueue(db);
  const stamp = () => toStamp(deps.clock());
  /** Reindex items being embedded right now, so the next slice does not pick them again. */
  const inFlight = new Set<string>();
  /** Reindex items that failed to embed in this process: skipped until restart so a bad text cannot spin the loop. */
  const poisoned = new Set<string>();
  let stopped = false;
  let running: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  let loopDone: Promise<void> | null = null;
  let processed = 0;

  /** The live state; statements of generations that vanished (another process switched) are forgotten. */
  function currentState(): EmbeddingState {
    const s = readState(db);
    forgetStoresExcept(db, [s.active?.gen, s.building?.gen]);
    return s;
  }

  async function prepare(): Promise<Batch | null> {
    const state = currentState();
    const target = targetGeneration(state);
    if (!target) return null;
    const gens = writableGenerations(state, models);
    const jobs = opts.jobs === false ? [] : repo.claim(stamp(), BATCH_JOBS);
    if (jobs.length > 0) {
      return embedBatch(db, models, log, { kind: "jobs", jobs, state, gens, items: itemsForJobs(db, repo, state, jobs) });
    }
    if (!models.clientFor(target)) return null;
    return prepareReindex(state);
  }

  async function prepareReindex(state: EmbeddingState): Promise<Batch | null> {
    const target = targetGeneration(state)!;
    const free = (kind: "idea" | "tag", id: number) => !inFlight.has(`${kind}:${id}`) && !poisoned.has(`${kind}:${id}`);
    const items: EmbedItem[] = [
      ...repo.ideasOutsideGen(target.gen, REINDEX_BATCH * 2).filter((i) => free("idea", i.id))
        .map((i): EmbedItem => ({ kind: "idea", id: i.id, userId: i.user_id, text: ideaText(i.title, i.body) })),
      ...repo.tagsOutsideGen(target.gen, REINDEX_BATCH * 2).filter((t) => free("tag", t.id))
        .map((t): EmbedItem => ({ kind: "tag", id: t.id, userId: t.user_id, text: t.name })),
    ].slice(0, REINDEX_BATCH);
    if (items.length === 0) {
      if (state.building && inFlight.size === 0) {
        const active = switchIfComplete(db, stamp());
        if (active) log.info("embedding model switched; old vectors dropped", { model: active.model_id, generation: active.gen });
      }
      return null;
    }
    for (const i of items) inFlight.add(`${i.kind}:${i.id}`);
    const batch = await embedBatch(db, models, log, { kind: "reindex", jobs: [], state, gens: [target], items: new Map([[0, items]]) });
    if (batch.failed.size > 0) {
      for (const i of items) if (!freshVector(batch, target.gen, i)) poisoned.add(`${i.kind}:${i.id}`);
      log.warn("reindex: some texts could not be embedded; they are retried after a restart", { count: poisoned.size });
    }
    return batch;
  }

  function storeItem(batch: Batch, item: EmbedItem): void {
    const state = batch.state;
    const target = targetGeneration(state)!;
    let current = false;
    for (const g of batch.gens) {
      const v = freshVector(batch, g.gen, item);
      const store = vectorStore(db, g);
      if (item.kind === "idea") {
        if (v) store.putIdea(item.id, item.userId, v, textHash(item.text));
      } else if (v) store.putTag(item.id, item.userId, v, item.text);
      // No new vector means the stored one was already current, or embedding failed: check which.
      if (g.gen === target.gen) current = !!v || isCurrent(db, g, item);
    }
    // Without a current vector of the target generation (its model not loaded here, or embedding failed) the id
    // stays as it is, so the item is picked up again.
    if (!current) return;
    if (item.kind === "idea") repo.setIdeaVectorId(item.id, vectorId(target.gen, item.id));
    else repo.setTagVectorId(item.id, vectorId(target.gen, item.id));
  }

  function applyJob(batch: Batch, job: JobRow, now: string): void {
    const items = batch.items.get(job.id) ?? [];
    db.transaction(() => {
      if (job.kind !== "full" || job.idea_id === null) {
        for (const item of items) if (item.kind !== "tag" || repo.tag(item.id)) storeItem(batch, item);
        return;
      }
      const idea = repo.idea(job.idea_id);
      if (!idea) return;
      if (idea.is_archived) {
        removeIdeaVectors(db, job.idea_id);
        return;
      }
      const item = items.find((i) => i.kind === "idea");
      if (item) storeItem(batch, item);
      const serving = servingGeneration(batch.state, models);
      if (!serving) return;
      const store = vectorStore(db, serving);
      const vector = (item && freshVector(batch, serving.gen, item)) ?? store.ideaVector(idea.id);
      if (!vector) return;
      const settings = parseSettings(idea.settings_json);
      runIdeaSteps({ repo, store, now, plan: effectivePlan(idea, deps.clock()), settings }, idea, vector);
    })();
  }

  async function apply(batch: Batch): Promise<void> {
    if (batch.kind === "reindex") {
      const items = batch.items.get(0)!;
      for (const item of items) {
        db.transaction(() => {
          const live = item.kind === "idea" ? repo.idea(item.id) : repo.tag(item.id);
          if (live && !("is_archived" in live && live.is_archived)) storeItem(batch, item);
        })();
        inFlight.delete(`${item.kind}:${item.id}`);
        processed++;
      }
      await yieldToHttp();
      return;
    }
    for (const job of batch.jobs) {
      const failure = batch.failed.get(job.id);
      try {
        if (failure) throw new Error(failure);
        applyJob(batch, job, stamp());
        queue.complete(job.id);
        processed++;
      } catch (e) {
        // A full disk is no fault of this job: the whole round stops and backs off, the job keeps its turn.
        if (isStorageFull(e)) throw e;
        const message = (e as Error).message;
        log.warn("pipeline job failed; retrying later", { job_id: job.id, kind: job.kind, idea_id: job.idea_id, attempts: job.attempts, error: message });
        queue.retry(job.id, toStamp(new Date(deps.clock().getTime() + backoffMs(job.attempts))), message);
      }
      await yieldToHttp();
    }
  }

  /** Runs batches until nothing is ready. The next batch is claimed and embedded while this one is written. */
  async function runUntilIdle(): Promise<void> {
    // A failing prepare() is awaited one apply() later; the no-op handler keeps it from counting as unhandled meanwhile.
    const ahead = () => {
      const p = prepare();
      p.catch(() => {});
      return p;
    };
    let next = ahead();
    for (;;) {
      const current = await next;
      if (!current) return;
      if (stopped) return release(current);
      next = ahead();
      try {
        await apply(current);
      } catch (e) {
        // The batch claimed ahead is never applied now: hand it back (best effort; the loop's recovery retries).
        await next.then((b) => b && release(b)).catch(() => {});
        throw e;
      }
    }
  }

  /**
   * After a failed round, jobs whose completion or retry could not be written stay locked and would wait for a
   * restart; this runner is the only consumer of pipeline jobs in the process, so with no round running it can
   * release every claim (at-least-once, as after a crash).
   */
  function releaseClaims(): void {
    const locked = db
      .query<{ id: number; run_after: string }, []>(
        `SELECT id, run_after FROM jobs WHERE locked_at IS NOT NULL AND kind IN (${PIPELINE_JOB_KINDS.map((k) => `'${k}'`).join(", ")})`,
      )
      .all();
    for (const j of locked) queue.retry(j.id, j.run_after, "released after a failed pipeline round");
  }

  /** Hands a claimed but unwritten batch back at shutdown; its jobs run again on the next start. */
  function release(batch: Batch): void {
    for (const job of batch.jobs) queue.retry(job.id, stamp(), "released at shutdown");
    for (const item of batch.items.get(0) ?? []) inFlight.delete(`${item.kind}:${item.id}`);
  }

  /** One caller at a time: the loop and drain() never interleave batches. */
  async function exclusive(): Promise<void> {
    while (running) await running;
    running = runUntilIdle().finally(() => (running = null));
    return running;
  }

  function sleep(minMs = 50): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    let untilDue = IDLE_MS;
    try {
      const due = repo.nextRunAfter();
      if (due) untilDue = new Date(due.replace(" ", "T") + "Z").getTime() - deps.clock().getTime();
    } catch {
      // the database is failing: the minimum pause applies
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(minMs, Math.min(IDLE_MS, untilDue)));
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  }

  return {
    /** Starts the background loop (the server); tests call drain() instead. */
    start(): void {
      loopDone = (async () => {
        let failures = 0;
        while (!stopped) {
          try {
            // Claims a failed round could not hand back (the release is a write too) are released before going on.
            if (failures > 0) releaseClaims();
            await exclusive();
            if (failures > 0) log.info("pipeline loop recovered", { failed_rounds: failures });
            failures = 0;
          } catch (e) {
            failures++;
            // The first failure of a streak, then ever more rarely: a full disk must not also fill the log.
            if ((failures & (failures - 1)) === 0) log.error("pipeline loop failed", { error: (e as Error).message, failed_rounds: failures });
          }
          if (!stopped) await sleep(failures > 0 ? roundBackoffMs(failures) : 50);
        }
      })();
    },
    /** New work is queued: end the idle sleep now. */
    wake(): void {
      woken = true;
      wakeUp?.();
    },
    /** Processes everything ready now (jobs, then the reindex backlog) and returns when nothing is left. */
    async drain(): Promise<void> {
      await exclusive();
      // Work queued while the last batch was written is picked up by one more round.
      await exclusive();
    },
    processedCount: () => processed,
    async stop(): Promise<void> {
      stopped = true;
      wakeUp?.();
      await loopDone;
      await running;
    },
  };
}
export type Runner = ReturnType<typeof createRunner>;
