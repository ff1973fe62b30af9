// Changing the embedding model: everything is re-embedded in the background with progress in GET /health, searches
// keep using the old vectors until the new ones are complete, then switch; the CLI `reindex` does the same in the
// foreground with a progress bar. The new model is the generated tiny MiniLM (ONNX, 32-d, random weights).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config";
import { createApp } from "../../src/app";
import { openDb } from "../../src/db/open";
import { createLogger } from "../../src/lib/log";
import { cosine, startModels, type ModelClient } from "../../src/ml/client";
import { createPipelineService } from "../../src/pipeline/service";
import { createUsersService } from "../../src/modules/users/service";
import { ROOT, tempDir } from "../cli";
import { makeTestModels } from "../fixtures/ml/make-minilm";
import { noEngines } from "../../src/deps";
import { call, makeUser, type TestApp } from "../helpers";
import { capture, loadTestModel, makePipelineApp, search } from "../pipeline-helpers";

const fixtures = makeTestModels();
let useLite: ModelClient;
let tiny: ModelClient;
const dirs: string[] = [];

beforeAll(async () => {
  [useLite, tiny] = await Promise.all([
    loadTestModel(),
    startModels({ modelsDir: fixtures.modelsDir, embedModel: fixtures.embedder, rerankModel: null }),
  ]);
});
afterAll(async () => {
  await Promise.all([useLite.close(), tiny.close()]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const embeddings = async (t: TestApp) => (await call(t, "GET", "/health")).body.embeddings;

describe("model change in the server", () => {
  test("re-embeds in the background, searches old vectors meanwhile, then switches", async () => {
    const t = await makePipelineApp(useLite, { config: { models_dir: fixtures.modelsDir } });
    const u = await makeUser(t, { plan: "pro" });
    const cars = await capture(t, u, { title: "Automobile repair shop for vintage motorcars", tags: ["cars"] });
    await capture(t, u, { title: "Subscription box of locally roasted coffee beans", tags: ["coffee"] });
    await capture(t, u, { title: "Marketplace for renting camping gear" });
    await t.drain();
    expect(await embeddings(t)).toEqual({ model: "use-lite@0.2.0", search_model: "use-lite@0.2.0", reindexing: false, pending: 0, total: 3 });
    await t.service.stop();

    // Restart with another model configured: the tiny ONNX embedder.
    const cfg = { ...t.deps.config, embed_model: fixtures.embedder };
    const next = createPipelineService({ ...t.deps, config: cfg }, { models: tiny, autoStart: false });
    await next.start(t.deps);
    expect(await embeddings(t)).toEqual({ model: tiny.embedModelId, search_model: "use-lite@0.2.0", reindexing: true, pending: 3, total: 3 });
    // The old model was loaded again for queries: a paraphrase still finds its idea through the old vectors.
    const during = await search(t, u, { q: "fixing old cars" });
    expect(during.body.search_type).toBe("semantic");
    expect(during.body.results[0].id).toBe(cars);
    const [qOld, iOld] = await useLite.embed(["fixing old cars", "Automobile repair shop for vintage motorcars"]);
    expect(during.body.results[0].score).toBeCloseTo(cosine(qOld, iOld), 4);

    await next.runner()!.drain();
    expect(await embeddings(t)).toEqual({ model: tiny.embedModelId, search_model: tiny.embedModelId, reindexing: false, pending: 0, total: 3 });
    const ideas = (await call(t, "GET", "/ideas", { key: u.key })).body.ideas;
    expect(new Set(ideas.map((i: { vectorize_id: string }) => i.vectorize_id.split("-")[0])).size).toBe(1);
    // Searches now embed the query with the new model and compare with the new vectors.
    const after = await search(t, u, { q: "fixing old cars", min_score: 0 });
    expect(after.body.search_type).toBe("semantic");
    const hit = after.body.results.find((r: { id: number }) => r.id === cars);
    const [qNew, iNew] = await tiny.embed(["fixing old cars", "Automobile repair shop for vintage motorcars"]);
    expect(hit.score).toBeCloseTo(cosine(qNew, iNew), 4);
    // Tags were re-embedded too.
    expect((await call(t, "GET", "/tags/similar?tag=cars", { key: u.key })).body.similar.map((s: { name: string }) => s.name)).toEqual(["coffee"]);
    await next.stop();
    t.close();
  });
});

/** Seeds a data dir through the API with the pipeline running on USE-lite, then closes it. */
async function seedDataDir(dataDir: string, titles: string[]): Promise<void> {
  const config = loadConfig({ IDEAREPO_DATA_DIR: dataDir, IDEAREPO_ENV: "test" }, { log_level: "silent" });
  const db = openDb(join(dataDir, "idearepo.db"));
  const deps = { config, db, clock: () => new Date(), log: createLogger("silent"), engines: noEngines() };
  const { app, close } = createApp(deps);
  const service = createPipelineService(deps, { models: useLite, autoStart: false });
  await service.start(deps);
  const { api_key } = await createUsersService(deps).createUser({ email: "cli@example.com", plan: "pro", password: null });
  for (const title of titles) {
    const r = await app.handle(new Request("http://localhost/api/v1/ideas", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": api_key },
      body: JSON.stringify({ title }),
    }));
    expect(r.status).toBe(201);
  }
  await service.runner()!.drain();
  await service.stop();
  close();
  db.close();
}

async function cli(args: string[], dataDir: string, env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, IDEAREPO_DATA_DIR: dataDir, IDEAREPO_LOG_LEVEL: "warn", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe("CLI reindex", () => {
  test("re-embeds with the configured model, drawing progress, and reports status", async () => {
    const dataDir = tempDir("idearepo-reindex-");
    dirs.push(dataDir);
    await seedDataDir(dataDir, Array.from({ length: 150 }, (_, i) => `Idea ${i} about ${["bikes", "gardens", "coffee"][i % 3]}`));
    const tinyEnv = { IDEAREPO_MODELS_DIR: fixtures.modelsDir, IDEAREPO_EMBED_MODEL: fixtures.embedder };

    const before = await cli(["reindex", "--status"], dataDir, tinyEnv);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toMatchObject({ model: "use-lite@0.2.0", reindexing: false, pending: 0, total: 150 });

    const run = await cli(["reindex"], dataDir, tinyEnv);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Re-embedding 150 ideas and tags with onnx:tiny-minilm:");
    expect(run.stderr).toMatch(/\[#{30}\] 150\/150 \(100%\)/);
    expect(run.stderr).toContain("Done: searches now use onnx:tiny-minilm:");

    const after = await cli(["reindex", "--status"], dataDir, tinyEnv);
    expect(JSON.parse(after.stdout)).toMatchObject({ model: tiny.embedModelId, search_model: tiny.embedModelId, reindexing: false, pending: 0, total: 150 });
    const again = await cli(["reindex"], dataDir, tinyEnv);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("Embeddings are up to date");

    // --force rebuilds even for the same model.
    const forced = await cli(["reindex", "--force"], dataDir, tinyEnv);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain("Re-embedding 150 ideas and tags");
    expect(JSON.parse((await cli(["reindex", "--status"], dataDir, tinyEnv)).stdout)).toMatchObject({ reindexing: false, pending: 0 });
  }, 60_000);

  test("unknown options are a usage error", async () => {
    const dataDir = tempDir("idearepo-reindex-");
    dirs.push(dataDir);
    const r = await cli(["reindex", "--everything"], dataDir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--everything");
  });
});
