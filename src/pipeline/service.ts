// The background service: loads the models, puts the search/pipeline engines on deps.engines, runs the queue loop.
import type { Deps } from "../deps";
import { toStamp } from "../lib/time";
import type { ModelClient } from "../ml/client";
import type { BackgroundService } from "../services";
import { similarTags } from "./engines";
import { startModelSet, type ModelSet } from "./models";
import { requeueUnprocessed } from "./recovery";
import { pipelineQueue } from "./batch";
import { createRunner, type Runner } from "./runner";
import { removeIdeaVectors } from "./archive";

export interface PipelineService extends BackgroundService {
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
function releaseOwnLocks(deps: Deps): number {
  return pipelineQueue(deps.db).releaseClaimed("released after restart");
}

export function createPipelineService(deps: Deps, opts: PipelineOptions = {}): PipelineService {
  let runner: Runner | null = null;
  let models: ModelSet | null = null;
  return {
    name: "pipeline",
    async start() {
      // Archiving must drop vectors even if the model never loads.
      deps.engines.onIdeaArchived = (ideaId: number) => removeIdeaVectors(deps.db, ideaId);
      const released = releaseOwnLocks(deps);
      if (released > 0) deps.log.info("pipeline: released jobs of a previous run", { count: released });
      try {
        ({ models } = await startModelSet(deps.config, deps.db, toStamp(deps.clock()), deps.log, { target: opts.models, force: opts.force }));
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
      Object.assign(deps.engines, {
        models: set,
        pipeline: r,
        onJobQueued: () => r.wake(),
        tagSimilar: (userId: string, tagId: number, limit: number) => similarTags(deps.db, set, userId, tagId, limit),
      });
      const requeued = requeueUnprocessed(deps);
      if (requeued > 0) deps.log.info("pipeline: queued ideas that were never processed", { count: requeued });
      if (opts.autoStart !== false) r.start();
    },
    async stop() {
      await runner?.stop();
      for (const k of ["models", "pipeline", "onJobQueued", "onIdeaArchived", "tagSimilar"]) delete deps.engines[k];
      // A caller-provided model belongs to the caller.
      await models?.close();
    },
    runner: () => runner,
    models: () => models,
  };
}
