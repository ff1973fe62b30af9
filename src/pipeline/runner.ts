// The queue consumer: claims batches, embeds them in the model worker while the previous batch's rows are written,
// then stores vectors and runs the full pass one idea per short transaction, yielding to HTTP between ideas. When no
// job is ready it works through the reindex backlog (reindex.ts).
import type { Deps } from "../deps";
import { effectivePlan } from "../auth/plans";
import type { JobRow } from "../jobs/queue";
import { fromStamp, toStamp } from "../lib/time";
import { parseSettings } from "../contract";
import { readState, targetGeneration, type EmbeddingState } from "../vectors/generations";
import { forgetStoresExcept, vectorStore } from "../vectors/store";
import { embedBatch, freshVector, itemsForJobs, pipelineQueue, storeItem, writableGenerations, type Batch } from "./batch";
import { createReindexer } from "./reindex";
import { servingGeneration, type ModelSet } from "./models";
import { createRelationsRepo } from "../modules/relations/repo";
import { createTagsRepo } from "../modules/tags/repo";
import { createDuplicatesRepo } from "../modules/duplicates/repo";
import { createKeywordSearch } from "../modules/search/keyword";
import { createSearchRepo } from "../modules/search/repo";
import { createPipelineRepo } from "./repo";
import { removeIdeaVectors } from "./archive";
import { runIdeaSteps } from "./steps";
import { modelScripts } from "../ml/languages";
import { isStorageFault } from "../db/storage";
import { StoreUnavailableError, together } from "../db/store";
import { recordPipelineJob } from "../metrics/registry";
import { deferSteps, queueRescores } from "./rescore";
import { lockAccountOfIdea } from "../jobs/account-lock";

/**
 * Jobs claimed per batch. The model client sorts a call's texts by length into small batches, and USE-lite pads each
 * batch to its longest text, so a bigger claim means less padding: measured on idea-like texts, 32 per call gave
 * 66% of the sorted-throughput ceiling, 128 gave 90%, 256 gave 97%. Captures still go first when the queue is short
 * (a claim takes what is ready), and search queries interleave with the model's small batches.
 */
export const BATCH_JOBS = 256;
/** Longest idle sleep; a wake-up (new job) or a retry coming due ends it sooner. */
const IDLE_MS = 60_000;

const yieldToHttp = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Retry delay after a failure: 30 s doubling per attempt, at most an hour. The job is never dropped. */
const backoffMs = (attempts: number) => Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));
/**
 * Pause after a whole round failed (the database refuses writes: disk full, I/O error; or PostgreSQL is away): 0.5 s
 * doubling, at most a minute, so a persistent fault costs neither a busy loop nor a log line every 50 ms. New work
 * (a capture once the database is back) still wakes it.
 */
const roundBackoffMs = (failures: number) => Math.min(60_000, 500 * 2 ** Math.max(0, failures - 1));

export interface RunnerOptions {
  /** false: leave the job queue to the server and only work through the reindex backlog (CLI `reindex`). */
  jobs?: boolean;
  /**
   * Whether this node may work through the reindex backlog now: on PostgreSQL one node at a time does (the
   * `reindex` duty, src/jobs/duty-lease.ts), or every node would embed the same slice. Absent: always.
   */
  mayReindex?: () => boolean;
}

export function createRunner(deps: Deps, models: ModelSet, opts: RunnerOptions = {}) {
  const { log } = deps;
  const store = deps.store;
  const repo = createPipelineRepo(deps.store);
  const relations = createRelationsRepo(deps.store);
  const tags = createTagsRepo(deps.store);
  const duplicates = createDuplicatesRepo(deps.store);
  // Candidates by words for ideas the model cannot read (steps.ts, syncDuplicates): the search's loose keyword match.
  const keyword = createKeywordSearch(createSearchRepo(deps.store));
  const similarText = async (userId: string, text: string, k: number) => [...(await keyword.looseScores(userId, text, k)).keys()];
  const queue = pipelineQueue(deps.store, deps.config.lease_seconds);
  const reindex = createReindexer(deps, models, repo);
  const stamp = () => toStamp(deps.clock());
  let stopped = false;
  let running: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  let loopDone: Promise<void> | null = null;
  let processed = 0;

  /** The live state; statements of generations that vanished (another process switched) are forgotten. */
  async function currentState(): Promise<EmbeddingState> {
    const s = await readState(store);
    forgetStoresExcept(store, [s.active?.gen, s.building?.gen]);
    return s;
  }

  async function prepare(): Promise<Batch | null> {
    const state = await currentState();
    const target = targetGeneration(state);
    if (!target) return null;
    const gens = writableGenerations(state, models);
    const jobs = opts.jobs === false ? [] : await queue.claim(stamp(), BATCH_JOBS);
    if (jobs.length > 0) {
      // Read before the model call and written after it: no transaction is open while the texts are embedded.
      return embedBatch(store, models, log, { kind: "jobs", jobs, state, gens, items: await itemsForJobs(store, repo, state, jobs) });
    }
    if (!models.clientFor(target)) return null;
    if (opts.mayReindex && !opts.mayReindex()) return null;
    return reindex.prepare(state);
  }

  /**
   * What a full pass works on, read the same way before its transaction (prepareJob) and in it (applyJob): the idea
   * (null: gone) and, when it is live and a generation serves, that generation's store and whether the account's
   * steps wait for the re-scoring pass. That is decided once per account and batch, at its first job and before the
   * batch stores any of its vectors (rescore.ts counts them as `added`).
   */
  async function fullPass(batch: Batch, ideaId: number, accounts: Map<string, boolean>, added: Map<string, number>) {
    const idea = await repo.idea(ideaId);
    if (!idea) return null;
    const serving = servingGeneration(batch.state, models);
    if (idea.is_archived || !serving) return { idea, serving: null };
    const vectors = vectorStore(store, serving);
    if (!accounts.has(idea.user_id)) accounts.set(idea.user_id, await deferSteps(vectors, idea.user_id, added.get(idea.user_id) ?? 0));
    return { idea, serving: { gen: serving.gen, model: serving.model, store: vectors, deferred: accounts.get(idea.user_id)! } };
  }

  /** A job's work and its completion, in one transaction: the job is gone exactly when its work is committed. */
  async function applyJob(batch: Batch, job: JobRow, now: string, accounts: Map<string, boolean>, added: Map<string, number>): Promise<void> {
    await deps.store.tx(async () => {
      await applyInTx(batch, job, now, accounts, added);
      await queue.complete(job.id);
    });
  }

  async function applyInTx(batch: Batch, job: JobRow, now: string, accounts: Map<string, boolean>, added: Map<string, number>): Promise<void> {
    const items = batch.items.get(job.id) ?? [];
    if (job.kind !== "full" || job.idea_id === null) {
      for (const item of items) if (item.kind !== "tag" || (await repo.tag(item.id))) await storeItem(store, batch, item);
      return;
    }
    // The account's lock, then the idea read under it: sent together (on PostgreSQL one round trip for both).
    const [, pass] = await together(lockAccountOfIdea(deps.store, job.idea_id), fullPass(batch, job.idea_id, accounts, added));
    if (!pass) return;
    const { idea, serving } = pass;
    if (idea.is_archived) {
      await removeIdeaVectors(deps.store, job.idea_id);
      return;
    }
    const item = items.find((i) => i.kind === "idea");
    if (item) await storeItem(store, batch, item);
    if (!serving) return;
    const vector = (item && freshVector(batch, serving.gen, item)) ?? (await serving.store.ideaVector(idea.id));
    if (!vector) return;
    if (serving.deferred) {
      await serving.store.markDirty(idea.user_id);
      return;
    }
    const settings = parseSettings(idea.settings_json);
    const scripts = modelScripts(serving.model, deps.config.models_dir);
    await runIdeaSteps({ repo, relations, tags, duplicates, store: serving.store, now, plan: effectivePlan(idea, deps.clock()), settings, scripts, similarText }, idea, vector);
  }

  /**
   * Before a full pass whose steps will run: the account's subjects for its current calibration, fitted in the
   * subjects worker if they are not known (src/vectors/subjects-fitter.ts), so the steps' duplicate scores never fit
   * on this thread. Requests and other work go on meanwhile; this account's steps wait for them.
   */
  async function prepareJob(batch: Batch, job: JobRow, accounts: Map<string, boolean>, added: Map<string, number>): Promise<void> {
    if (job.kind !== "full" || job.idea_id === null || batch.failed.has(job.id)) return;
    const pass = await fullPass(batch, job.idea_id, accounts, added);
    if (!pass?.serving || pass.serving.deferred) return;
    await pass.serving.store.subjectsReady(pass.idea.user_id, (error) => log.warn("subjects worker failed; fitting on the pipeline's thread", { error }));
  }

  async function apply(batch: Batch): Promise<void> {
    if (batch.kind === "reindex") {
      processed += await reindex.apply(batch);
      return;
    }
    // Per account: whether its steps wait for the re-scoring pass (decided at its first job), and how many new
    // vectors (ideas not embedded in the serving generation yet) this batch adds to it.
    const accounts = new Map<string, boolean>();
    const added = await newVectorsByAccount(batch);
    for (const job of batch.jobs) {
      const failure = batch.failed.get(job.id);
      try {
        if (failure) throw new Error(failure);
        await prepareJob(batch, job, accounts, added);
        await applyJob(batch, job, stamp(), accounts, added);
        processed++;
        recordPipelineJob(job.kind, "done", (deps.clock().getTime() - fromStamp(job.created_at).getTime()) / 1000);
      } catch (e) {
        // A full or failing disk, or a database that is away (PostgreSQL restarting), is no fault of this job: the
        // whole round stops and backs off, the job keeps its turn and its count of attempts.
        if (isStorageFault(e) || e instanceof StoreUnavailableError) throw e;
        const message = (e as Error).message;
        log.warn("pipeline job failed; retrying later", { job_id: job.id, kind: job.kind, idea_id: job.idea_id, attempts: job.attempts, error: message });
        await queue.retry(job.id, toStamp(new Date(deps.clock().getTime() + backoffMs(job.attempts))), message);
        recordPipelineJob(job.kind, "retried");
      }
      await yieldToHttp();
    }
    // Accounts whose shared component moved (an import, steady growth) have every pair judged again (rescore.ts).
    const serving = servingGeneration(await currentState(), models);
    if (serving && accounts.size > 0) {
      const queued = await queueRescores(deps.store, vectorStore(store, serving), accounts.keys(), stamp());
      if (queued > 0) log.info("calibration moved; re-scoring", { ideas: queued, accounts: accounts.size });
    }
  }

  async function newVectorsByAccount(batch: Batch): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const serving = servingGeneration(batch.state, models);
    if (!serving) return out;
    const vectors = vectorStore(store, serving);
    const fresh = [...batch.items.values()].flat().filter((item) => item.kind === "idea" && freshVector(batch, serving.gen, item));
    // Asked all at once (on PostgreSQL side by side on the pool, not one round trip after another).
    const hashes = await Promise.all(fresh.map((item) => vectors.ideaHash(item.id)));
    fresh.forEach((item, i) => {
      if (hashes[i] === null) out.set(item.userId, (out.get(item.userId) ?? 0) + 1);
    });
    return out;
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
  async function releaseClaims(): Promise<void> {
    await queue.releaseClaimed("released after a failed pipeline round");
  }

  /** Hands a claimed but unwritten batch back at shutdown; its jobs run again on the next start. */
  async function release(batch: Batch): Promise<void> {
    for (const job of batch.jobs) await queue.retry(job.id, stamp(), "released at shutdown");
    if (batch.kind === "reindex") reindex.release(batch);
  }

  /** One caller at a time: the loop and drain() never interleave batches. */
  async function exclusive(): Promise<void> {
    while (running) await running;
    running = runUntilIdle().finally(() => (running = null));
    return running;
  }

  async function sleep(minMs = 50): Promise<void> {
    if (woken) {
      woken = false;
      return;
    }
    let untilDue = IDLE_MS;
    try {
      const due = await queue.nextRunAfter();
      if (due) untilDue = new Date(due.replace(" ", "T") + "Z").getTime() - deps.clock().getTime();
    } catch {
      // the database is failing: the minimum pause applies
    }
    // A wake-up (or stop) that arrived while the queue was read must not be slept through.
    if (woken || stopped) {
      woken = false;
      return;
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(minMs, Math.min(IDLE_MS, untilDue)));
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  }

  /**
   * Keeps this node's claims alive: every third of the lease, whatever the loop is doing (the model runs in its own
   * thread, and apply() yields between ideas, so the timer is not starved). A node that dies stops renewing.
   */
  let renewal: ReturnType<typeof setInterval> | null = null;
  function startRenewing(): void {
    renewal = setInterval(() => {
      queue.renew(stamp()).catch((e: unknown) => log.warn("renewing the pipeline's job leases failed", { error: (e as Error).message }));
    }, (deps.config.lease_seconds * 1000) / 3);
    renewal.unref?.();
  }

  return {
    /** Starts the background loop (the server); tests call drain() instead. */
    start(): void {
      startRenewing();
      loopDone = (async () => {
        let failures = 0;
        while (!stopped) {
          try {
            // Claims a failed round could not hand back (the release is a write too) are released before going on.
            if (failures > 0) await releaseClaims();
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
      if (renewal) clearInterval(renewal);
    },
  };
}
export type Runner = ReturnType<typeof createRunner>;
