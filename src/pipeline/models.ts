// The loaded models and which embedding generation each can serve: the configured model, plus the previous one
// while a reindex runs (queries must be embedded by the model that made the vectors they are compared with).
import type { Config } from "../config";
import type { Store } from "../db/store";
import type { Logger } from "../lib/log";
import { startModels, type ModelClient } from "../ml/client";
import { planGenerations, type EmbeddingState, type Generation } from "../vectors/generations";

export interface ModelSet {
  /** The configured embedding model: every new vector is made by it. */
  target: ModelClient;
  /** The client whose model made generation `g`'s vectors, or null when that model is not loaded. */
  clientFor(g: Generation | null): ModelClient | null;
  /** The configured cross-encoder (it scores text, so it serves any generation), or null. */
  reranker: ModelClient | null;
  close(): Promise<void>;
}

export const matches = (client: ModelClient, g: Generation | null) =>
  !!g && client.embedModelId === g.model_id && client.dim === g.dim;

/**
 * Builds a set around started clients. A target passed in by the caller (tests and benchmarks load the model once
 * and share it) stays open on close(); clients the set started itself are closed.
 */
export function modelSetOf(target: ModelClient, previous: ModelClient | null = null, ownsTarget = true): ModelSet {
  const clients = previous ? [target, previous] : [target];
  return {
    target,
    clientFor: (g) => clients.find((c) => matches(c, g)) ?? null,
    reranker: target.hasReranker ? target : null,
    async close() {
      await Promise.all(clients.filter((c) => c !== target || ownsTarget).map((c) => c.close()));
    },
  };
}

/**
 * Loads the configured models, records the generation they write to, and, when that starts a reindex, also loads
 * the model of the active generation so semantic search keeps working on the old vectors until the switch.
 * If the old model cannot be loaded any more, searches use the partly built new generation instead (logged).
 */
export async function startModelSet(
  cfg: Pick<Config, "models_dir" | "embed_model" | "rerank_model" | "model_idle_unload_seconds">,
  store: Store,
  now: string,
  log: Logger,
  opts: { target?: ModelClient; force?: boolean } = {},
): Promise<{ models: ModelSet; state: EmbeddingState }> {
  const idle = { idleUnloadSeconds: cfg.model_idle_unload_seconds };
  const target = opts.target ?? (await startModels({ modelsDir: cfg.models_dir, embedModel: cfg.embed_model, rerankModel: cfg.rerank_model }, idle));
  const state = await planGenerations(store, { model: cfg.embed_model, model_id: target.embedModelId, dim: target.dim }, now, { force: opts.force });
  let previous: ModelClient | null = null;
  if (state.building && state.active && !matches(target, state.active)) {
    try {
      previous = await startModels({ modelsDir: cfg.models_dir, embedModel: state.active.model, rerankModel: null }, idle);
      if (!matches(previous, state.active)) {
        log.warn("previous embedding model changed on disk; searching the partly rebuilt index", { model: state.active.model });
        await previous.close();
        previous = null;
      }
    } catch (e) {
      log.warn("previous embedding model unavailable; searching the partly rebuilt index", {
        model: state.active.model,
        error: (e as Error).message,
      });
    }
  }
  if (state.building) log.info("re-embedding for a new model", { from: state.active?.model_id, to: state.building.model_id });
  return { models: modelSetOf(target, previous, !opts.target), state };
}

/**
 * The generation that answers searches and neighbour lookups: the active one while its model is loaded, else the
 * one being built (the fallback when the old model is gone). Without models, stored vectors still serve lookups
 * that need no embedding (similar tags), from the active generation.
 */
export function servingGeneration(state: EmbeddingState, models: ModelSet | null | undefined): Generation | null {
  if (!models) return state.active;
  if (models.clientFor(state.active)) return state.active;
  if (models.clientFor(state.building)) return state.building;
  return null;
}
