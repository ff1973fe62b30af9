// The pipeline process: loads the models, puts the search/pipeline engines on deps.engines, runs the queue loop.
import type { Deps, Engines } from "../deps";
import { toStamp } from "../lib/time";
import type { ModelClient } from "../ml/client";
import type { BackgroundProcess } from "../background-process";
import { createSimilarTags } from "../modules/tags/similar";
import { startModelSet, type ModelSet } from "./models";
import { requeueUnprocessed } from "./recovery";
import { pipelineQueue } from "./batch";
import { createRunner, type Runner } from "./runner";
import { removeIdeaVectors } from "./archive";
import { holdDuty, type DutyLease } from "../jobs/duty-lease";
import { listenForJobs } from "./wake";
import { NODE_ID } from "../lib/node-id";
import { readState, targetGeneration } from "../vectors/generations";

export interface PipelineProcess extends BackgroundProcess {
  /** Null until start() has loaded the models (or when they failed to load). */
  runner(): Runner | null;
  models(): ModelSet | null;
}

export interface PipelineOptions {
  /** An already loaded embedder to use instead of loading config.embed_model (tests, benchmarks); not closed on stop. */
  models?: ModelClient;
  /** false: no background loop; the caller drives the queue with runner().drain(). */
  autoStart?: boolean;
  /** Start a new generation even for the same model (CLI `reindex --force`). */
  force?: boolean;
  /**
   * false: load the models for people's queries only (a `web` node, src/node-role.ts): no job is claimed, no backlog
   * worked through, nothing requeued here; a worker node does that. Default true.
   */
  jobs?: boolean;
}

/**
 * Jobs a dead process had claimed go back to the queue (at-least-once); other features' job kinds are theirs. On
 * SQLite that is every claim (one server per file); on PostgreSQL other nodes' claims are theirs, and those of a node
 * that died come back when their lease runs out (src/jobs/queue.ts), here those already out of it and those of a
 * process of this host that is gone (the one this node replaces), at once.
 */
async function releaseDeadClaims(deps: Deps): Promise<number> {
  const queue = pipelineQueue(deps.store, deps.config.lease_seconds);
  if (deps.store.dialect === "sqlite") return queue.releaseEveryClaim("released after restart");
  return (await queue.reapExpired(toStamp(deps.clock()))) + (await queue.reapGone());
}

/** Takes off the engines start() put on (masterKey is not this process's): readers go back to their "not running" answers. */
function detachEngines(engines: Engines): void {
  engines.models = null;
  engines.onJobQueued = null;
  engines.onIdeaArchived = null;
  engines.tagSimilar = null;
}

export function createPipelineProcess(deps: Deps, opts: PipelineOptions = {}): PipelineProcess {
  let runner: Runner | null = null;
  let models: ModelSet | null = null;
  const jobs = opts.jobs !== false;
  /** The reindex backlog is one node's at a time (on SQLite: this process's, held from the start). */
  let reindexDuty: DutyLease | null = null;
  let stopListening: (() => Promise<void>) | null = null;
  return {
    name: "pipeline",
    async start() {
      // Archiving must drop vectors even if the model never loads.
      deps.engines.onIdeaArchived = (ideaId) => removeIdeaVectors(deps.store, ideaId);
      if (jobs) {
        const released = await releaseDeadClaims(deps);
        if (released > 0) deps.log.info("pipeline: released jobs of a previous run", { count: released });
      }
      try {
        ({ models } = await startModelSet(deps.config, deps.store, toStamp(deps.clock()), deps.log, { target: opts.models, force: opts.force }));
      } catch (e) {
        // The API still serves everything else; semantic search answers with keyword results and jobs wait.
        deps.log.error("embedding model failed to load; semantic search and background processing are paused", {
          model: deps.config.embed_model,
          error: (e as Error).message,
        });
        return;
      }
      const set = models;
      deps.engines.models = set;
      deps.engines.tagSimilar = createSimilarTags(deps.store, set);
      if (!jobs) return;
      // Only a node whose model can write the generation being built takes the backlog (a node still on the old model
      // during a model change would hold it and do nothing); taking it wakes this node's loop.
      const canBuild = async () => set.clientFor(targetGeneration(await readState(deps.store))) !== null;
      let wakeRunner = () => {};
      const duty = (reindexDuty = holdDuty(deps, "reindex", { acquired: () => wakeRunner() }, NODE_ID, { wants: canBuild }));
      const r = (runner = createRunner(deps, models, { mayReindex: () => duty.held() }));
      wakeRunner = () => r.wake();
      // A free duty is this node's before the runner first asks (one or two round trips on PostgreSQL; at once on SQLite).
      await duty.settled;
      deps.engines.onJobQueued = () => r.wake();
      // Jobs queued on other nodes (a web node's captures) wake this one through PostgreSQL's NOTIFY.
      const url = deps.config.database.url;
      if (deps.store.dialect === "postgres" && url !== null && opts.autoStart !== false) stopListening = listenForJobs(url, () => r.wake(), deps.log);
      const requeued = await requeueUnprocessed(deps);
      if (requeued > 0) deps.log.info("pipeline: queued ideas that were never processed", { count: requeued });
      if (opts.autoStart !== false) r.start();
    },
    async stop() {
      await stopListening?.();
      await runner?.stop();
      await reindexDuty?.stop();
      detachEngines(deps.engines);
      // A caller-provided model belongs to the caller.
      await models?.close();
    },
    runner: () => runner,
    models: () => models,
  };
}
