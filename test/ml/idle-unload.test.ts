// The model client unloads an idle worker (freeing its memory) and reloads it on the next call, transparently.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULTS, loadConfig } from "../../src/config";
import { cosine, startModels, type ModelClient } from "../../src/ml/client";
import { createPipelineProcess } from "../../src/pipeline/process";
import { makeApp, makeUser } from "../helpers";
import { capture, search } from "../pipeline-helpers";

const USE_LITE = { modelsDir: "/nonexistent-models-dir", embedModel: "use-lite", rerankModel: null };
/** Short enough for a test, long enough that back-to-back calls never see an unload between them. */
const IDLE_S = 0.3;

const opened: ModelClient[] = [];
async function client(idleUnloadSeconds?: number): Promise<ModelClient> {
  const m = await startModels(USE_LITE, idleUnloadSeconds === undefined ? {} : { idleUnloadSeconds });
  opened.push(m);
  return m;
}
afterAll(() => Promise.all(opened.map((m) => m.close())));

async function waitUntil(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (!cond() && performance.now() < end) await Bun.sleep(10);
  return cond();
}

/** Anonymous resident memory of this process (the model's wasm and JS heaps live there), in MB. */
function rssAnonMb(): number {
  const kb = Number(/RssAnon:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
  return kb / 1024;
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

const TEXTS = [
  "Rooftop vegetable garden with automatic irrigation",
  "A weekly newsletter about indie video games",
  "Café déjà vu — ünïcödé",
  "",
];

describe("idle unload", () => {
  test("a fresh client releases its worker soon after the start-up load, and the memory goes back", async () => {
    Bun.gc(true);
    const before = rssAnonMb();
    const m = await client(IDLE_S);
    expect(m.stats()).toMatchObject({ loaded: true, loads: 1, idleUnloads: 0 });
    expect(m.stats().lastLoadMs).toBeGreaterThan(0);
    expect(await waitUntil(() => !m.stats().loaded, 3000)).toBe(true);
    expect(m.stats()).toMatchObject({ loaded: false, loads: 1, idleUnloads: 1 });
    await Bun.sleep(300); // the thread's memory is unmapped shortly after terminate
    Bun.gc(true);
    // A loaded USE-lite worker holds ~110 MB of anonymous memory (measured); after the unload most of it is gone.
    // (Without the unload this process ends ≥ 40 MB above where it started, even with the start-up garbage collected.)
    expect(rssAnonMb() - before).toBeLessThan(20);
  });

  test("the next call reloads the model and gets the same vectors; the identity is unchanged", async () => {
    const m = await client(IDLE_S);
    const before = await m.embed(TEXTS);
    expect(await waitUntil(() => !m.stats().loaded, 3000)).toBe(true);
    const after = await m.embed(TEXTS);
    expect(m.stats()).toMatchObject({ loaded: true, loads: 2, idleUnloads: 1 });
    for (let i = 0; i < TEXTS.length; i++) expect(maxAbsDiff(before[i], after[i])).toBeLessThan(1e-6);
    expect(after[3].every((x) => x === 0)).toBe(true); // the empty string stays all-zero
    expect(m.embedModelId).toBe("use-lite@0.2.0");
    expect(m.dim).toBe(512);
  });

  test("concurrent calls during a reload share one new worker and each gets its own answer", async () => {
    const m = await client(IDLE_S);
    const many = Array.from({ length: 40 }, (_, i) => `Idea number ${i}: ${"word ".repeat(i % 7)}`); // two batches
    const [refMany, refTexts] = await Promise.all([m.embed(many), m.embed(TEXTS)]);
    expect(await waitUntil(() => !m.stats().loaded, 3000)).toBe(true);
    const loads = m.stats().loads;

    const [gotMany, ...singles] = await Promise.all([m.embed(many), ...TEXTS.map((t) => m.embed([t]))]);
    expect(m.stats().loads).toBe(loads + 1);
    expect(gotMany).toHaveLength(40);
    for (let i = 0; i < many.length; i++) expect(maxAbsDiff(gotMany[i], refMany[i])).toBeLessThan(1e-6);
    singles.forEach(([v], i) => expect(maxAbsDiff(v, refTexts[i])).toBeLessThan(1e-6));
  });

  test("calls closer together than the idle period keep the worker loaded", async () => {
    const m = await client(IDLE_S);
    const [first] = await m.embed([TEXTS[0]]);
    const { loads, idleUnloads } = m.stats();
    for (let i = 0; i < 8; i++) {
      await Bun.sleep(IDLE_S * 1000 * 0.4);
      const [v] = await m.embed([TEXTS[0]]);
      expect(cosine(v, first)).toBeGreaterThan(0.9999);
    }
    expect(m.stats()).toMatchObject({ loaded: true, loads, idleUnloads });
    // ...and the timer runs from the end of the last call.
    expect(await waitUntil(() => !m.stats().loaded, 3000)).toBe(true);
  });

  test("0 (and the library default) keep the worker loaded", async () => {
    const [off, unset] = await Promise.all([client(0), client()]);
    await Bun.sleep(1300); // past the start-up grace and any idle period a test would use
    expect(off.stats()).toMatchObject({ loaded: true, loads: 1, idleUnloads: 0 });
    expect(unset.stats()).toMatchObject({ loaded: true, loads: 1, idleUnloads: 0 });
  });

  test("close() of an unloaded client starts no worker, and later calls reject", async () => {
    const m = await client(IDLE_S);
    expect(await waitUntil(() => !m.stats().loaded, 3000)).toBe(true);
    await m.close();
    expect(m.stats()).toMatchObject({ loaded: false, loads: 1 });
    await expect(m.embed(["too late"])).rejects.toThrow("model client is closed");
  });

  test("a negative idle period is refused", async () => {
    await expect(startModels(USE_LITE, { idleUnloadSeconds: -1 })).rejects.toThrow("idle unload must be ≥ 0 seconds");
  });

  test("a waiting idle timer does not keep a process alive", { timeout: 30_000 }, async () => {
    const script = join(tmpdir(), `idearepo-idle-exit-${process.pid}.ts`);
    const clientPath = join(import.meta.dir, "../../src/ml/client.ts");
    writeFileSync(
      script,
      `import { startModels } from ${JSON.stringify(clientPath)};\n` +
        `const m = await startModels(${JSON.stringify(USE_LITE)}, { idleUnloadSeconds: 600 });\n` +
        `await m.embed(["one call, then the process should end"]);\nconsole.log("done");\n`,
    );
    try {
      const t0 = performance.now();
      const proc = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "pipe" });
      const timeout = setTimeout(() => proc.kill(), 15_000);
      const code = await proc.exited;
      clearTimeout(timeout);
      expect(await new Response(proc.stdout).text()).toBe("done\n");
      expect(code).toBe(0);
      expect(performance.now() - t0).toBeLessThan(15_000);
    } finally {
      rmSync(script, { force: true });
    }
  });
});

describe("model_idle_unload_seconds", () => {
  test("defaults to 300; IDEAREPO_MODEL_IDLE_UNLOAD_SECONDS sets it; negative or fractional values are refused", () => {
    expect(DEFAULTS.model_idle_unload_seconds).toBe(300);
    const env = { IDEAREPO_DATA_DIR: "/tmp/idearepo-test-unused" };
    expect(loadConfig(env).model_idle_unload_seconds).toBe(300);
    expect(loadConfig({ ...env, IDEAREPO_MODEL_IDLE_UNLOAD_SECONDS: "0" }).model_idle_unload_seconds).toBe(0);
    expect(loadConfig({ ...env, IDEAREPO_MODEL_IDLE_UNLOAD_SECONDS: "45" }).model_idle_unload_seconds).toBe(45);
    expect(() => loadConfig({ ...env, IDEAREPO_MODEL_IDLE_UNLOAD_SECONDS: "-1" })).toThrow("/model_idle_unload_seconds");
    expect(() => loadConfig({ ...env, IDEAREPO_MODEL_IDLE_UNLOAD_SECONDS: "1.5" })).toThrow("/model_idle_unload_seconds");
  });

  test("the pipeline's model follows the setting; semantic search after an unload reloads it and still answers", async () => {
    const t = makeApp({ config: { model_idle_unload_seconds: 1 } });
    const service = createPipelineProcess(t.deps, { autoStart: false }); // loads config.embed_model itself
    try {
      await service.start(t.deps);
      const model = service.models()!.target;
      const me = await makeUser(t, { plan: "pro" });
      const other = await makeUser(t, { plan: "pro" });
      const garden = await capture(t, me, { title: "Rooftop vegetable garden with automatic irrigation" });
      await capture(t, me, { title: "A weekly newsletter about indie video games" });
      await capture(t, other, { title: "Balcony herb garden watered automatically" });
      await service.runner()!.drain();

      expect(await waitUntil(() => !model.stats().loaded, 4000)).toBe(true);
      const loads = model.stats().loads;
      const r = await search(t, me, { q: "growing vegetables on the roof" });
      expect(r.status).toBe(200);
      expect(r.body.search_type).toBe("semantic");
      expect(r.body.results[0].id).toBe(garden);
      const titles = (r.body.results as Array<{ title: string }>).map((x) => x.title);
      expect(titles.some((x) => x.startsWith("Balcony"))).toBe(false); // the other account's garden is never seen
      expect(model.stats()).toMatchObject({ loaded: true, loads: loads + 1 });
    } finally {
      await service.stop();
      t.close();
    }
  });
});
