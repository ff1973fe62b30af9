// Test fixtures for the background pipeline: the real embedding model (loaded once per test file) and an app whose
// queue the test drives to empty with drain(), so assertions never race the background loop.
import { afterAll, beforeAll } from "bun:test";
import { startModels, type ModelClient } from "../src/ml/client";
import { createPipelineProcess, type PipelineProcess } from "../src/pipeline/process";
import { call, makeApp, type TestApp, type TestUser } from "./helpers";
import { late } from "./late";

/** USE-lite from npm, as production runs it (~1 s to load). Close it in afterAll. */
export function loadTestModel(): Promise<ModelClient> {
  return startModels({ modelsDir: "/nonexistent-models-dir", embedModel: "use-lite", rerankModel: null });
}

export interface PipelineApp extends TestApp {
  service: PipelineProcess;
  /** Runs every queued job (and any reindex backlog) to completion. */
  drain(): Promise<void>;
  /** Stops the pipeline (waiting for a batch in flight), then closes the app and its database. */
  close(): Promise<void>;
}

export async function makePipelineApp(model: ModelClient, opts: Parameters<typeof makeApp>[0] = {}): Promise<PipelineApp> {
  const t = makeApp(opts);
  const service = createPipelineProcess(t.deps, { models: model, autoStart: false });
  await service.start(t.deps);
  return {
    ...t,
    service,
    drain: () => service.runner()!.drain(),
    close: async () => {
      await service.stop();
      t.close();
    },
  };
}

/** A model for this test file: USE-lite unless `load` says otherwise, started in beforeAll and closed in afterAll. */
export function useModel(load: () => Promise<ModelClient> = loadTestModel): ModelClient {
  let model: ModelClient | undefined;
  beforeAll(async () => {
    model = await load();
  });
  afterAll(() => model?.close());
  return late("the test model", () => model);
}

/**
 * The set-up most pipeline and search files share: one model and one pipeline app on it for the whole file, made in
 * beforeAll and closed in afterAll (a file's own beforeAll, registered after this call, runs after it: seed there).
 */
export function usePipelineApp(opts: { model?: () => Promise<ModelClient>; app?: Parameters<typeof makeApp>[0] } = {}): {
  t: PipelineApp;
  model: ModelClient;
} {
  let model: ModelClient | undefined;
  let t: PipelineApp | undefined;
  beforeAll(async () => {
    model = await (opts.model ?? loadTestModel)();
    t = await makePipelineApp(model, opts.app);
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
  });
  return { t: late("the pipeline app", () => t), model: late("the test model", () => model) };
}

/** Captures an idea through POST /ideas and returns its id. */
export async function capture(t: TestApp, user: TestUser, body: { title: string; body?: string; tags?: string[]; parent_id?: number }): Promise<number> {
  const r = await call(t, "POST", "/ideas", { key: user.key, body });
  if (r.status !== 201) throw new Error(`capture failed: ${r.status} ${r.text}`);
  return r.body.id as number;
}

export async function search(t: TestApp, user: TestUser, params: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  return call(t, "GET", `/ideas/search?${qs}`, { key: user.key });
}

/**
 * Drains until /health says nothing is queued or re-scoring (a pass may tip the account into a re-scoring pass of
 * its own, which queues more), at most 20 rounds; fails naming what was left.
 */
export async function settle(t: PipelineApp): Promise<void> {
  let health: { pending?: number; rescoring?: number } = {};
  for (let round = 0; round < 20; round++) {
    await t.drain();
    health = (await call(t, "GET", "/health")).body.embeddings;
    if (health.pending === 0 && health.rescoring === 0) return;
  }
  throw new Error(`the pipeline did not settle in 20 rounds: ${JSON.stringify(health)}`);
}
