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
}

/** Jobs a dead process had claimed go back to the queue (at-least-once); other features' job kinds are theirs. */
function releaseOwnLocks(deps: Deps): Promise<number> {
  return pipelineQueue(deps.store).releaseClaimed("released after restart");
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
  return {
    name: "pipeline",
    async start() {
      // Archiving must drop vectors even if the model never loads.
      deps.engines.onIdeaArchived = (ideaId) => removeIdeaVectors(deps.store, ideaId);
      const released = await releaseOwnLocks(deps);
      if (released > 0) deps.log.info("pipeline: released jobs of a previous run", { count: released });
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
      const r = (runner = createRunner(deps, models));
      const set = models;
      deps.engines.models = set;
      deps.engines.onJobQueued = () => r.wake();
      deps.engines.tagSimilar = createSimilarTags(deps.store, set);
      const requeued = await requeueUnprocessed(deps);
      if (requeued > 0) deps.log.info("pipeline: queued ideas that were never processed", { count: requeued });
      if (opts.autoStart !== false) r.start();
    },
    async stop() {
      await runner?.stop();
      detachEngines(deps.engines);
      // A caller-provided model belongs to the caller.
      await models?.close();
    },
    runner: () => runner,
    models: () => models,
  };
}
