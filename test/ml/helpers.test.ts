// Pure parts of the model layer: batch planning, cosine, normalisation, the USE tokenizer, model names.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { clipText, MAX_TEXT_CHARS, planBatches } from "../../src/ml/batching";
import { workerUrl } from "../../src/ml/client";
import { isValidModelName } from "../../src/ml/model-folder";
import { resolveUseLiteFiles } from "../../src/ml/use-lite-files";
import { UseTokenizer } from "../../src/ml/use-tokenizer";
import { cosine, normalizeRows } from "../../src/ml/vectors";

describe("planBatches", () => {
  test("covers every index exactly once", () => {
    const texts = Array.from({ length: 100 }, (_, i) => "x".repeat((i * 37) % 300));
    const batches = planBatches(texts);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(texts.map((_, i) => i));
  });

  test("caps texts per batch and characters per batch", () => {
    expect(planBatches(Array(70).fill("short"), 32).map((b) => b.length)).toEqual([32, 32, 6]);
    const long = Array(10).fill("y".repeat(3000));
    expect(planBatches(long, 32, 8000).map((b) => b.length)).toEqual([2, 2, 2, 2, 2]);
  });

  test("a single text longer than the budget still gets its own batch", () => {
    expect(planBatches(["z".repeat(50_000)], 32, 8000)).toEqual([[0]]);
  });

  test("groups similar lengths so ONNX batches need little padding", () => {
    const texts = ["a", "b".repeat(500), "c", "d".repeat(500)];
    expect(planBatches(texts, 2)).toEqual([[0, 2], [1, 3]]);
  });

  test("clipText bounds the work one text can cause", () => {
    expect(clipText("short")).toBe("short");
    expect(clipText("w".repeat(MAX_TEXT_CHARS + 5)).length).toBe(MAX_TEXT_CHARS);
  });
});

describe("vectors", () => {
  test("cosine is 1 for parallel, 0 for orthogonal, and 0 against a zero vector", () => {
    expect(cosine([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 10);
    expect(cosine([1, 0], [0, 5])).toBe(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
    expect(() => cosine([1], [1, 2])).toThrow("different lengths");
  });

  test("normalizeRows makes each row unit length and leaves zero rows alone", () => {
    const rows = normalizeRows(new Float32Array([3, 4, 0, 0]), 2, 2);
    expect(Array.from(rows)).toEqual([0.6000000238418579, 0.800000011920929, 0, 0]);
  });
});

describe("USE tokenizer", () => {
  const vocab = JSON.parse(readFileSync(resolveUseLiteFiles().vocabJson, "utf8"));
  const tokenizer = new UseTokenizer(vocab);

  test("splits into known pieces, word starts marked with ▁", () => {
    const ids = tokenizer.encode("the cats");
    expect(ids.map((id) => vocab[id][0]).join("")).toBe("▁the▁cats");
  });

  test("unknown characters collapse into one unknown id", () => {
    const ids = tokenizer.encode("☃☃☃");
    expect(ids.filter((id) => id === 0)).toHaveLength(1);
  });

  test("the empty string has no tokens", () => {
    expect(tokenizer.encode("")).toEqual([]);
  });
});

describe("model names and files", () => {
  test("accepts hub-style names and refuses path tricks", () => {
    for (const ok of ["all-MiniLM-L6-v2", "Xenova/all-MiniLM-L6-v2", "bge_small.en-v1.5"]) expect(isValidModelName(ok)).toBe(true);
    for (const bad of ["", "..", "a/../b", "/etc", "a/b/c", "a b", "x/"]) expect(isValidModelName(bad)).toBe(false);
  });

  test("USE-lite files resolve to real files in development", () => {
    const files = resolveUseLiteFiles();
    const paths = [files.modelJson, files.vocabJson, ...Object.values(files.shards), ...Object.values(files.wasm)];
    for (const p of paths) expect(Bun.file(p).size).toBeGreaterThan(0);
  });

  test("the worker is found next to client.ts outside a compiled binary", () => {
    expect(workerUrl()).toEndWith("/src/ml/worker.ts");
  });
});
