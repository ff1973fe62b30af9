// A multilingual model one command away: `models pull Xenova/paraphrase-multilingual-MiniLM-L12-v2` from the local fake
// hub (a tiny random-weight copy with the real layout: BERT graph, XLM-R-style Unigram tokenizer, mean pooling, model
// card), then the server configured with it re-embeds every idea in the background and /health says it reads Chinese.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cosine, startModels, type ModelClient } from "../../src/ml/client";
import { pullModel } from "../../src/ml/pull";
import { createPipelineProcess } from "../../src/pipeline/process";
import { startFakeHub, type FakeHub } from "../fixtures/ml/fake-hub";
import { makeMultilingualModel } from "../fixtures/ml/multilingual-model";
import { call, makeUser } from "../helpers";
import { capture, makePipelineApp, search, useModel } from "../pipeline-helpers";

const NAME = "Xenova/paraphrase-multilingual-MiniLM-L12-v2";
const fixture = makeMultilingualModel();
const useLite = useModel();
let hub: FakeHub;
let modelsDir: string;
let multilingual: ModelClient | null = null;

beforeAll(() => {
  // As the hub serves it: the int8 export under onnx/model_quantized.onnx.
  hub = startFakeHub({ [NAME]: { dir: fixture.dir, rename: { "onnx/model_quantized.onnx": "onnx/model.onnx" }, hide: ["onnx/model.onnx"] } });
  modelsDir = mkdtempSync(join(tmpdir(), "idearepo-multilingual-"));
});
afterAll(async () => {
  hub.stop();
  await multilingual?.close();
  rmSync(modelsDir, { recursive: true, force: true });
});

describe("models pull of a multilingual model", () => {
  test("pulled, configured and re-embedded: /health names it and the languages it reads; it reads Chinese", async () => {
    const pulled = await pullModel({ name: NAME, baseUrl: hub.baseUrl, modelsDir });
    expect(pulled.files.map((f) => f.file).sort()).toEqual(
      ["1_Pooling/config.json", "README.md", "config.json", "onnx/model_quantized.onnx", "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json"],
    );

    // An account on the built-in model first.
    const t = await makePipelineApp(useLite, { config: { models_dir: modelsDir } });
    const u = await makeUser(t, { plan: "pro" });
    const garden = await capture(t, u, { title: "周末菜园", body: "在阳台种番茄和黄瓜，每天早上浇一次水。" });
    await capture(t, u, { title: "读书计划", body: "今年想读完二十本书，包括历史和科幻小说。" });
    await capture(t, u, { title: "Bike commute", body: "Ride to work every day; take the train when it rains." });
    await t.drain();
    const before = (await call(t, "GET", "/health")).body.embeddings;
    expect(before).toMatchObject({ model_name: "use-lite", languages: ["en"], scripts: ["Latin"] });
    await t.service.stop();

    // Restart with the pulled model configured, loaded by its name from the models folder (tokenizer, pooling, card).
    multilingual = await startModels({ modelsDir, embedModel: NAME, rerankModel: null });
    expect(multilingual.embedModelId).toMatch(/^onnx:Xenova\/paraphrase-multilingual-MiniLM-L12-v2:/);
    const next = createPipelineProcess({ ...t.deps, config: { ...t.deps.config, embed_model: NAME } }, { models: multilingual, autoStart: false });
    await next.start(t.deps);
    const during = (await call(t, "GET", "/health")).body.embeddings;
    expect(during).toMatchObject({ model: multilingual.embedModelId, reindexing: true, pending: 3, model_name: NAME, search_model_name: "use-lite", search_languages: ["en"] });
    await next.runner()!.drain();
    const after = (await call(t, "GET", "/health")).body.embeddings;
    expect(after).toMatchObject({ model: multilingual.embedModelId, search_model: multilingual.embedModelId, reindexing: false, pending: 0, total: 3, model_name: NAME, search_model_name: NAME });
    expect(after.languages).toEqual(expect.arrayContaining(["zh", "ja", "en", "ko", "th"]));
    expect(after.scripts).toEqual(expect.arrayContaining(["Han", "Hiragana", "Katakana", "Latin"]));

    // Its tokenizer has pieces for these characters: two Chinese notes with the same punctuation are two vectors
    // (USE-lite gives them the same one), and a search embeds the query with it and scores by its cosine.
    const texts = ["周末菜园\n在阳台种番茄和黄瓜，每天早上浇一次水。", "读书计划\n今年想读完二十本书，包括历史和科幻小说。"];
    const [a, b] = await multilingual.embed(texts);
    const [la, lb] = await useLite.embed(texts);
    expect(cosine(la, lb)).toBeGreaterThan(0.99);
    expect(cosine(a, b)).toBeLessThan(0.95);
    const r = await search(t, u, { q: "在阳台种番茄", min_score: 0 });
    expect(r.body.search_type).toBe("semantic");
    const hit = r.body.results.find((x: { id: number }) => x.id === garden);
    const [q] = await multilingual.embed(["在阳台种番茄"]);
    expect(hit.score).toBeCloseTo(cosine(q, a), 4);
    await next.stop();
    t.close();
  }, 120_000);
});
