// The real model worker failing: a crash in the middle of a batch, and a model file that breaks so the worker cannot
// load again. Jobs are retried (never dropped), the API keeps answering, semantic search falls back to keyword.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startModels, type ModelClient } from "../../src/ml/client";
import { call, makeUser } from "../helpers";
import { capture, makePipelineApp, search, type PipelineApp } from "../pipeline-helpers";
import { makeTestModels } from "../fixtures/ml/make-minilm";

const opened: Array<{ close(): unknown }> = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const o of opened) await o.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const TOPICS = ["bike lights", "rooftop garden", "coffee roasting", "tax software", "chess openings", "music lessons"];

function jobs(t: PipelineApp) {
  return t.deps.db.query<{ n: number; tried: number; crashed: number; later: number }, [string, string]>(
    `SELECT count(*) AS n, count(CASE WHEN attempts > 0 THEN 1 END) AS tried,
            count(CASE WHEN last_error LIKE ?1 THEN 1 END) AS crashed, count(CASE WHEN run_after > ?2 THEN 1 END) AS later
     FROM jobs`,
  ).get("%model worker%", t.deps.clock().toISOString().slice(0, 19).replace("T", " "))!;
}
const unembedded = (t: PipelineApp) =>
  t.deps.db.query<{ n: number }, []>("SELECT count(*) AS n FROM ideas WHERE vectorize_id IS NULL").get()!.n;

describe("model worker crash mid-batch", () => {
  test("the batch is retried job by job on a fresh worker, the API answers meanwhile, nothing is left behind", async () => {
    const model = await startModels({ modelsDir: "/nonexistent-models-dir", embedModel: "use-lite", rerankModel: null });
    opened.push(model);
    const logs: string[] = [];
    const t = await makePipelineApp(model, { now: "2031-03-01T12:00:00Z", logs });
    opened.push(t);
    const u = await makeUser(t, { plan: "pro" });
    for (let i = 0; i < 160; i++) await capture(t, u, { title: `Idea ${i} on ${TOPICS[i % TOPICS.length]}`, body: `Details ${i}.` });

    const loadsBefore = model.stats().loads;
    const draining = t.drain();
    // The batch is embedded 32 texts per worker request; the crash request queues between two of them.
    await Bun.sleep(150);
    const crash = (model as unknown as { crashForTest(): Promise<unknown> }).crashForTest();
    // While the worker dies and the batch fails, requests are answered.
    expect((await call(t, "GET", "/ideas?limit=5", { key: u.key })).status).toBe(200);
    await expect(crash).rejects.toThrow(/model worker crashed/);
    await draining;

    // The crash failed the batch in flight (not merely an idle worker): its jobs were retried at once on a new worker.
    const failed = logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "batch embedding failed, retrying jobs one by one");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0].error).toMatch(/model worker crashed/);
    expect(model.stats().loads).toBeGreaterThan(loadsBefore);
    expect(jobs(t).n).toBe(0);
    expect(unembedded(t)).toBe(0);
    const s = await search(t, u, { q: "garden on a roof" });
    expect(s.status).toBe(200);
    expect(s.body.search_type).toBe("semantic");
  }, 60_000);
});

describe("model that can no longer be loaded", () => {
  test("jobs wait and retry, search falls back to keyword, and all recovers once the file is good again", async () => {
    const fixtures = makeTestModels();
    // A private copy: this test breaks the model file, other test files share the fixture.
    const modelsDir = mkdtempSync(join(tmpdir(), "idearepo-faults-models-"));
    dirs.push(modelsDir);
    cpSync(join(fixtures.modelsDir, fixtures.embedder), join(modelsDir, fixtures.embedder), { recursive: true });
    const modelFile = join(modelsDir, fixtures.embedder, "onnx", "model.onnx");
    const good = readFileSync(modelFile);

    // Idle unload: the worker is gone between calls, so the next call must load the model file again.
    const model = await startModels({ modelsDir, embedModel: fixtures.embedder, rerankModel: null }, { idleUnloadSeconds: 0.2 });
    opened.push(model);
    const t = await makePipelineApp(model, { now: "2031-03-01T12:00:00Z" });
    opened.push(t);
    const u = await makeUser(t, { plan: "pro" });
    for (let i = 0; i < 6; i++) await capture(t, u, { title: `Before ${TOPICS[i]}` });
    await t.drain();
    expect(unembedded(t)).toBe(0);

    const until = Date.now() + 5000;
    while (model.stats().loaded && Date.now() < until) await Bun.sleep(20);
    expect(model.stats().loaded).toBe(false);
    writeFileSync(modelFile, good.subarray(0, Math.floor(good.length / 3))); // a half-written or damaged download

    for (let i = 0; i < 4; i++) await capture(t, u, { title: `After ${TOPICS[i]}` });
    await t.drain();
    const waiting = jobs(t);
    expect(waiting.n).toBe(4);
    expect(waiting.tried).toBe(4);
    expect(waiting.later).toBe(4);
    const lastError = t.deps.db.query<{ e: string }, []>("SELECT last_error AS e FROM jobs LIMIT 1").get()!.e;
    expect(lastError.length).toBeGreaterThan(0);

    // The API keeps answering, and semantic search answers with keyword results, as docs/search.md says.
    expect((await call(t, "GET", "/ideas", { key: u.key })).status).toBe(200);
    const s = await search(t, u, { q: "garden" });
    expect(s.status).toBe(200);
    expect(s.body.search_type).toBe("fts");
    expect(s.body.results.map((r: any) => r.title)).toContain("Before rooftop garden");

    // Repaired (the same bytes, so the same model identity): the retries succeed and search is semantic again.
    writeFileSync(modelFile, good);
    t.clock.advance(31_000);
    await t.drain();
    expect(jobs(t).n).toBe(0);
    expect(unembedded(t)).toBe(0);
    expect((await search(t, u, { q: "garden" })).body.search_type).toBe("semantic");
  }, 60_000);
});
