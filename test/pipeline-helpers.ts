// Test fixtures for the background pipeline: the real embedding model (loaded once per test file) and an app whose
// queue the test drives to empty with drain(), so assertions never race the background loop.
import { startModels, type ModelClient } from "../src/ml/client";
import { createPipelineService, type PipelineService } from "../src/pipeline/service";
import { call, makeApp, type TestApp, type TestUser } from "./helpers";

/** USE-lite from npm, as production runs it (~1 s to load). Close it in afterAll. */
export function loadTestModel(): Promise<ModelClient> {
  return startModels({ modelsDir: "/nonexistent-models-dir", embedModel: "use-lite", rerankModel: null });
}

export interface PipelineApp extends TestApp {
  service: PipelineService;
  /** Runs every queued job (and any reindex backlog) to completion. */
  drain(): Promise<void>;
}

export async function makePipelineApp(model: ModelClient, opts: Parameters<typeof makeApp>[0] = {}): Promise<PipelineApp> {
  const t = makeApp(opts);
  const service = createPipelineService(t.deps, { models: model, autoStart: false });
  await service.start(t.deps);
  return {
    ...t,
    service,
    drain: () => service.runner()!.drain(),
    close: () => {
      void service.stop();
      t.close();
    },
  };
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
