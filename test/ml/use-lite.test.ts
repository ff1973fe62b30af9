// The default embedder (Universal Sentence Encoder lite) through the worker client: shape, quality, batching, liveness.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cosine, startModels, type ModelClient } from "../../src/ml/client";
import { loadUseLite } from "../../src/ml/use-lite";
import { resolveUseLiteFiles } from "../../src/ml/use-lite-files";

let models: ModelClient;

beforeAll(async () => {
  models = await startModels({ modelsDir: "/nonexistent-models-dir", embedModel: "use-lite", rerankModel: null });
});
afterAll(() => models.close());

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe("use-lite embeddings", () => {
  test("identity and size come from the model", () => {
    expect(models.embedModelId).toBe("use-lite@0.2.0");
    expect(models.dim).toBe(512);
    expect(models.hasReranker).toBe(false);
  });

  test("returns one 512-d unit vector per text, in order", async () => {
    const vectors = await models.embed(["A cat sleeps on the sofa.", "Quarterly revenue grew by ten percent."]);
    expect(vectors).toHaveLength(2);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(512);
      expect(norm(v)).toBeCloseTo(1, 4);
    }
  });

  test("paraphrases score clearly higher than unrelated sentences", async () => {
    const [guitar, guitarParaphrase, kitchen, kitchenParaphrase, market] = await models.embed([
      "A man is playing a guitar.",
      "Someone is strumming an acoustic guitar.",
      "How can I make my small kitchen look bigger?",
      "Ideas for making a tiny kitchen feel more spacious",
      "The central bank raised interest rates again.",
    ]);
    const paraphrases = [cosine(guitar, guitarParaphrase), cosine(kitchen, kitchenParaphrase)];
    const unrelated = [cosine(guitar, market), cosine(kitchen, market), cosine(guitar, kitchen)];
    expect(Math.min(...paraphrases)).toBeGreaterThan(0.5);
    expect(Math.max(...unrelated)).toBeLessThan(0.3);
    expect(Math.min(...paraphrases) - Math.max(...unrelated)).toBeGreaterThan(0.3);
  });

  test("a batch gives the same vectors as one text at a time", async () => {
    const texts = ["Short one.", "A somewhat longer sentence about gardening in spring.", "Third!", "Café déjà vu — ünïcödé"];
    const batch = await models.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const [single] = await models.embed([texts[i]]);
      expect(cosine(single, batch[i])).toBeGreaterThan(0.9999);
    }
  });

  test("more texts than one batch come back complete and in input order", async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `Idea number ${i}: ${"word ".repeat(i % 9)}`);
    const vectors = await models.embed(texts);
    expect(vectors).toHaveLength(70);
    const [again] = await models.embed([texts[41]]);
    expect(cosine(again, vectors[41])).toBeGreaterThan(0.9999);
  });

  test("an empty text gets a zero vector instead of failing the batch", async () => {
    const [empty, full] = await models.embed(["", "Not empty."]);
    expect(norm(empty)).toBe(0);
    expect(norm(full)).toBeCloseTo(1, 4);
    expect(await models.embed([])).toEqual([]);
  });

  test("rerank without a rerank model rejects", async () => {
    await expect(models.rerank("q", ["a"])).rejects.toThrow("no rerank model");
  });
});

describe("memory after loading", () => {
  test("the worker hands back the weights XNNPACK packed, and its vectors match a model that kept them", async () => {
    // Released right after the first call that ran the graph (the tests above made many), checked after its reply.
    const end = performance.now() + 30_000;
    while (models.stats().releasedBytes === null && performance.now() < end) await Bun.sleep(20);
    expect(models.stats().releasedBytes).toBeGreaterThan(15 * 1024 * 1024); // ~19.6 MB of USE-lite's 28 MB
    // Lengths from one token to a few hundred, in one batch and alone, so any op still reading a released weight shows.
    const texts = ["Hi", "A man is playing a guitar.", "Ideas for making a tiny kitchen feel more spacious. ".repeat(20), "Café déjà vu — ünïcödé"];
    const batch = await models.embed(texts);
    const single = await models.embed([texts[2]]);
    const whole = await loadUseLite(resolveUseLiteFiles(), "wasm", { keepWhole: true }); // in this process, nothing released
    try {
      const expected = await whole.embed(texts);
      texts.forEach((_, i) => {
        const similarity = cosine(batch[i], expected.subarray(i * 512, (i + 1) * 512));
        expect(similarity, `text ${i}: cosine ${similarity} against the model that kept its weights`).toBeGreaterThan(0.9999);
      });
      expect(cosine(single[0], expected.subarray(2 * 512, 3 * 512))).toBeGreaterThan(0.9999);
    } finally {
      await whole.dispose();
    }
  });
});

describe("worker", () => {
  test("the main thread keeps running timers during a large batch", async () => {
    const texts = Array.from({ length: 256 }, (_, i) => `Sentence ${i} about planning a small community garden project.`);
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 5);
    const started = performance.now();
    await models.embed(texts);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    const gaps = ticks.slice(1).map((t, i) => t - ticks[i]);
    expect(elapsed).toBeGreaterThan(100); // long enough for the check to mean something
    expect(ticks.length).toBeGreaterThan(elapsed / 5 / 4);
    // Were the model on this thread, one gap would span the whole batch; a loaded 2-core CI box may still stall briefly.
    expect(Math.max(...gaps)).toBeLessThan(Math.max(100, elapsed / 4));
  });

  test("concurrent callers each get their own results", async () => {
    const [a, b, c] = await Promise.all([
      models.embed(Array.from({ length: 40 }, (_, i) => `first caller text ${i}`)),
      models.embed(["second caller"]),
      models.embed(["third caller", "third caller again"]),
    ]);
    expect([a.length, b.length, c.length]).toEqual([40, 1, 2]);
    const [second] = await models.embed(["second caller"]);
    expect(cosine(second, b[0])).toBeGreaterThan(0.9999);
  });

  test("a crash rejects pending calls and the next call restarts the worker", async () => {
    const crashing = (models as unknown as { crashForTest(): Promise<unknown> }).crashForTest();
    const queued = models.embed(["queued behind the crash"]);
    const [a, b] = await Promise.allSettled([crashing, queued]);
    expect(a.status === "rejected" && String(a.reason)).toContain("model worker crashed");
    expect(b.status === "rejected" && String(b.reason)).toContain("model worker crashed");
    const [after] = await models.embed(["A man is playing a guitar."]);
    expect(after.length).toBe(512);
    expect(models.embedModelId).toBe("use-lite@0.2.0");
  });
});
