// `models pull` against a local server laid out like the Hugging Face hub (<repo>/resolve/main/<file>).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startModels } from "../../src/ml/client";
import { listModels, pullModel, type PullProgress } from "../../src/ml/pull";
import { makeTestModels } from "../fixtures/ml/make-minilm";

const fixtures = makeTestModels();
/** repo name → folder whose files the fake hub serves; "quantized" repos serve model.onnx as model_quantized.onnx. */
const REPOS: Record<string, { dir: string; quantized: boolean }> = {
  "test-org/tiny-minilm": { dir: join(fixtures.modelsDir, fixtures.embedder), quantized: true },
  "test-org/tiny-minilm-fp32": { dir: join(fixtures.modelsDir, fixtures.embedder), quantized: false },
  "test-org/no-onnx": { dir: join(fixtures.modelsDir, fixtures.reranker), quantized: false },
};
const requested: string[] = [];
let server: ReturnType<typeof Bun.serve>;
let baseUrl: string;
let modelsDir: string;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = decodeURIComponent(new URL(request.url).pathname);
      requested.push(path);
      const match = path.match(/^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/);
      const repo = match && REPOS[match[1]];
      if (!match || !repo) return new Response("Repository not found", { status: 404 });
      let file = match[2];
      if (match[1] === "test-org/no-onnx" && file.startsWith("onnx/")) return new Response("Entry not found", { status: 404 });
      if (repo.quantized && file === "onnx/model_quantized.onnx") file = "onnx/model.onnx";
      else if (repo.quantized && file === "onnx/model.onnx") return new Response("Entry not found", { status: 404 });
      else if (!repo.quantized && file === "onnx/model_quantized.onnx") return new Response("Entry not found", { status: 404 });
      const local = join(repo.dir, file);
      return existsSync(local) ? new Response(Bun.file(local)) : new Response("Entry not found", { status: 404 });
    },
  });
  baseUrl = `http://127.0.0.1:${server.port}`;
  modelsDir = mkdtempSync(join(tmpdir(), "idearepo-pull-"));
});

afterAll(() => {
  server.stop(true);
  rmSync(modelsDir, { recursive: true, force: true });
});

describe("pullModel", () => {
  test("downloads the hub files into <modelsDir>/<repo> and reports progress", async () => {
    const progress: PullProgress[] = [];
    const result = await pullModel({ name: "test-org/tiny-minilm", baseUrl, modelsDir, onProgress: (p) => progress.push(p) });
    const dir = join(modelsDir, "test-org", "tiny-minilm");
    expect(result.dir).toBe(dir);
    expect(result.files.map((f) => f.file).sort()).toEqual(
      ["config.json", "onnx/model_quantized.onnx", "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json"].sort(),
    );
    const original = readFileSync(join(fixtures.modelsDir, fixtures.embedder, "onnx", "model.onnx"));
    expect(readFileSync(join(dir, "onnx", "model_quantized.onnx")).equals(original)).toBe(true);
    expect(progress.at(-1)!.totalReceived).toBe(result.bytes);
    const modelProgress = progress.filter((p) => p.file === "onnx/model_quantized.onnx").at(-1)!;
    expect(modelProgress.received).toBe(original.length);
    expect(modelProgress.size).toBe(original.length);
    expect(readdirSync(join(modelsDir, "test-org")).filter((n) => n.startsWith("."))).toEqual([]); // staging cleaned up
  });

  test("falls back to onnx/model.onnx when there is no quantized export", async () => {
    const result = await pullModel({ name: "test-org/tiny-minilm-fp32", baseUrl, modelsDir });
    expect(result.files.map((f) => f.file)).toContain("onnx/model.onnx");
    expect(existsSync(join(result.dir, "onnx", "model_quantized.onnx"))).toBe(false);
  });

  test("a pulled model loads and embeds", async () => {
    const models = await startModels({ modelsDir, embedModel: "test-org/tiny-minilm", rerankModel: null });
    try {
      expect(models.embedModelId).toMatch(/^onnx:test-org\/tiny-minilm:/);
      expect((await models.embed(["pulled"]))[0].length).toBe(fixtures.hidden);
    } finally {
      const queued = models.embed(["queued before close"]);
      await models.close();
      expect((await queued)[0].length).toBe(fixtures.hidden);
    }
    await expect(models.embed(["after close"])).rejects.toThrow("model client is closed");
  });

  test("a 404 on config.json is a clear not-found error and leaves nothing behind", async () => {
    const pull = pullModel({ name: "test-org/does-not-exist", baseUrl, modelsDir });
    await expect(pull).rejects.toThrow("model test-org/does-not-exist not found");
    expect(existsSync(join(modelsDir, "test-org", "does-not-exist"))).toBe(false);
  });

  test("a repo without an ONNX export says so", async () => {
    await expect(pullModel({ name: "test-org/no-onnx", baseUrl, modelsDir })).rejects.toThrow("has no ONNX export");
    expect(existsSync(join(modelsDir, "test-org", "no-onnx"))).toBe(false);
  });

  test("an unreachable host is reported as such", async () => {
    const pull = pullModel({ name: "test-org/tiny-minilm", baseUrl: "http://127.0.0.1:9", modelsDir });
    await expect(pull).rejects.toThrow("could not reach http://127.0.0.1:9");
  });

  test("pulling again replaces the folder in one step", async () => {
    const before = requested.length;
    await pullModel({ name: "test-org/tiny-minilm", baseUrl, modelsDir });
    expect(requested.length).toBeGreaterThan(before);
    expect(existsSync(join(modelsDir, "test-org", "tiny-minilm", "onnx", "model_quantized.onnx"))).toBe(true);
  });

  test("invalid names are refused before any request", async () => {
    await expect(pullModel({ name: "../../etc", baseUrl, modelsDir })).rejects.toThrow("invalid model name");
  });
});

describe("listModels", () => {
  test("lists pulled models with their kind and size", () => {
    const listed = listModels(modelsDir);
    expect(listed.map((m) => m.name)).toEqual(["test-org/tiny-minilm", "test-org/tiny-minilm-fp32"]);
    expect(listed.every((m) => m.complete && m.kind === "embedder" && m.bytes > 0)).toBe(true);
  });

  test("knows a cross-encoder from an embedder", () => {
    const kinds = Object.fromEntries(listModels(fixtures.modelsDir).map((m) => [m.name, m.kind]));
    expect(kinds).toEqual({ [fixtures.embedder]: "embedder", [fixtures.reranker]: "reranker" });
  });

  test("a missing models folder lists nothing", () => {
    expect(listModels(join(modelsDir, "nope"))).toEqual([]);
  });
});
