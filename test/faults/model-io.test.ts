// I/O errors in the model folder: the folder sits on lazyfs (test/faults/powercut/lazyfs.py), whose "cut" makes every
// read fail with EIO, as a dying disk or a dropped network mount would. Jobs wait and retry, the API answers,
// semantic search falls back to keyword, and everything recovers once the folder reads again (remounted).
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startModels } from "../../src/ml/client";
import { call, makeUser } from "../helpers";
import { capture, makePipelineApp, search } from "../pipeline-helpers";
import { makeTestModels } from "../fixtures/ml/make-minilm";
import { tempDir } from "../cli";
import { fuseProblem, mountLazy, type LazyMount } from "./powercut/lazy-mount";

const scratch = tempDir("idearepo-model-io-");
const problem = await fuseProblem(scratch);
if (problem && !process.env.CI) console.warn(`model-folder I/O-error test skipped: ${problem}`);

const closers: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
  rmSync(scratch, { recursive: true, force: true });
});

describe.if(!problem || !!process.env.CI)("model folder I/O errors", () => {
  test("reads of the model fail with EIO: jobs wait, search falls back to keyword, all recovers when it reads again", async () => {
    expect(problem).toBeNull();
    const fixtures = makeTestModels();
    const backing = join(scratch, "disk");
    cpSync(join(fixtures.modelsDir, fixtures.embedder), join(backing, fixtures.embedder), { recursive: true });
    const mountPoint = join(scratch, "models");
    let m: LazyMount = await mountLazy(backing, mountPoint);
    closers.push(() => m.unmount());

    // Idle unload: the worker is gone between calls, so the next call must read the model files again.
    const model = await startModels({ modelsDir: mountPoint, embedModel: fixtures.embedder, rerankModel: null }, { idleUnloadSeconds: 0.2 });
    closers.push(() => model.close());
    const t = await makePipelineApp(model, { now: "2031-03-01T12:00:00Z" });
    closers.push(() => t.close());
    const u = await makeUser(t, { plan: "pro" });
    for (const topic of ["bike lights", "rooftop garden", "coffee roasting"]) await capture(t, u, { title: `Before ${topic}` });
    await t.drain();
    const unembedded = () => t.deps.db.query<{ n: number }, []>("SELECT count(*) AS n FROM ideas WHERE vectorize_id IS NULL").get()!.n;
    expect(unembedded()).toBe(0);
    const deadline = Date.now() + 5000;
    while (model.stats().loaded && Date.now() < deadline) await Bun.sleep(20);
    expect(model.stats().loaded).toBe(false);

    await m.cut(); // every read of the folder fails with EIO from now on
    for (const topic of ["tax software", "chess openings"]) await capture(t, u, { title: `After ${topic}` });
    await t.drain();
    const jobs = t.deps.db.query<{ n: number; tried: number }, []>("SELECT count(*) AS n, count(CASE WHEN attempts > 0 THEN 1 END) AS tried FROM jobs").get()!;
    expect(jobs).toEqual({ n: 2, tried: 2 }); // kept, with a retry ahead: never dropped
    expect((await call(t, "GET", "/ideas", { key: u.key })).status).toBe(200);
    const s = await search(t, u, { q: "garden" });
    expect(s.status).toBe(200);
    expect(s.body.search_type).toBe("fts");
    expect(s.body.results.map((r: any) => r.title)).toContain("Before rooftop garden");

    // The folder reads again: the retries succeed and search is semantic again.
    await m.unmount();
    m = await mountLazy(backing, mountPoint);
    t.clock.advance(31_000);
    await t.drain();
    expect(unembedded()).toBe(0);
    expect(t.deps.db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs").get()!.n).toBe(0);
    expect((await search(t, u, { q: "garden" })).body.search_type).toBe("semantic");
  }, 60_000);
});
