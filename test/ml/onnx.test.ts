// ONNX models through transformers.js, on generated random-weight MiniLM models: loading, pooling, batching, reranking.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cosine, startModels, type ModelClient } from "../../src/ml/client";
import { makeTestModels } from "../fixtures/ml/make-minilm";

const fixtures = makeTestModels();
let models: ModelClient;

beforeAll(async () => {
  models = await startModels({ modelsDir: fixtures.modelsDir, embedModel: fixtures.embedder, rerankModel: fixtures.reranker });
});
afterAll(() => models.close());

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe("onnx embedder", () => {
  test("identity names the folder and the model file's hash; dim is the hidden size", () => {
    expect(models.embedModelId).toMatch(/^onnx:tiny-minilm:[0-9a-f]{16}$/);
    expect(models.dim).toBe(fixtures.hidden);
    expect(models.hasReranker).toBe(true);
  });

  test("returns unit vectors of the hidden size", async () => {
    const vectors = await models.embed(["hello world", "a longer sentence with several more word pieces in it"]);
    expect(vectors.map((v) => v.length)).toEqual([fixtures.hidden, fixtures.hidden]);
    for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 5);
  });

  test("is deterministic", async () => {
    const [a] = await models.embed(["the same text twice"]);
    const [b] = await models.embed(["the same text twice"]);
    expect(Array.from(b)).toEqual(Array.from(a));
  });

  test("padding in a mixed-length batch does not change the vectors", async () => {
    const texts = ["short", "a considerably longer text that forces the short ones to be padded quite a lot", "mid length text", ""];
    const batch = await models.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const [single] = await models.embed([texts[i]]);
      expect(cosine(single, batch[i])).toBeGreaterThan(0.9999);
    }
  });

  test("different texts give different vectors", async () => {
    const [a, b] = await models.embed(["apples and oranges", "quantum chromodynamics"]);
    expect(cosine(a, b)).toBeLessThan(0.9999);
  });
});

describe("onnx reranker", () => {
  test("returns one finite score per doc, in order", async () => {
    const docs = ["first document", "second, somewhat longer document", "third", "fourth document here"];
    const scores = await models.rerank("which document?", docs);
    expect(scores).toHaveLength(docs.length);
    for (const s of scores) expect(Number.isFinite(s)).toBe(true);
    const single = await models.rerank("which document?", [docs[1]]);
    expect(single[0]).toBeCloseTo(scores[1], 4);
  });

  test("handles more docs than one request and no docs at all", async () => {
    const docs = Array.from({ length: 45 }, (_, i) => `candidate ${i}`);
    expect(await models.rerank("q", docs)).toHaveLength(45);
    expect(await models.rerank("q", [])).toEqual([]);
  });
});

describe("model folder errors", () => {
  test("a missing folder names the folder and `models pull`", async () => {
    const start = startModels({ modelsDir: fixtures.modelsDir, embedModel: "all-MiniLM-L6-v2", rerankModel: null });
    await expect(start).rejects.toThrow(join(fixtures.modelsDir, "all-MiniLM-L6-v2"));
    await expect(start).rejects.toThrow("models pull all-MiniLM-L6-v2");
  });

  test("a missing rerank folder is reported the same way", async () => {
    const start = startModels({ modelsDir: fixtures.modelsDir, embedModel: "use-lite", rerankModel: "ms-marco-MiniLM-L-6-v2" });
    await expect(start).rejects.toThrow("models pull ms-marco-MiniLM-L-6-v2");
  });

  test("an incomplete folder lists what is missing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "idearepo-models-"));
    try {
      cpSync(join(fixtures.modelsDir, fixtures.embedder), join(dir, "broken"), { recursive: true });
      rmSync(join(dir, "broken", "onnx"), { recursive: true });
      rmSync(join(dir, "broken", "tokenizer.json"));
      const start = startModels({ modelsDir: dir, embedModel: "broken", rerankModel: null });
      await expect(start).rejects.toThrow("missing: tokenizer.json, onnx/model_quantized.onnx (or onnx/model.onnx)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("names that would escape the models folder are refused", async () => {
    const start = startModels({ modelsDir: fixtures.modelsDir, embedModel: "../etc", rerankModel: null });
    await expect(start).rejects.toThrow("invalid model name");
  });
});
