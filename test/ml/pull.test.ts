// `models pull` against a local server that serves files the way the Hugging Face hub does (test/fixtures/ml/fake-hub.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startModels } from "../../src/ml/client";
import { listModels, pullModel, type PullProgress } from "../../src/ml/pull";
import { startFakeHub, type FakeHub } from "../fixtures/ml/fake-hub";
import { makeTestModels } from "../fixtures/ml/make-minilm";

const fixtures = makeTestModels();
const embedderDir = join(fixtures.modelsDir, fixtures.embedder);
const QUANTIZED = { rename: { "onnx/model_quantized.onnx": "onnx/model.onnx" }, hide: ["onnx/model.onnx"] };
let hub: FakeHub;
let baseUrl: string;
let modelsDir: string;
const requested = () => hub.requests.map((r) => r.path);

beforeAll(() => {
  hub = startFakeHub({
    "test-org/tiny-minilm": { dir: embedderDir, ...QUANTIZED },
    "test-org/tiny-minilm-fp32": { dir: embedderDir },
    "test-org/no-onnx": { dir: join(fixtures.modelsDir, fixtures.reranker), hide: ["onnx/model.onnx"] },
    "test-org/resumable": { dir: embedderDir, ...QUANTIZED },
    "test-org/flaky": { dir: embedderDir, ...QUANTIZED },
    "test-org/tampered": { dir: embedderDir, ...QUANTIZED, wrongSha256: true },
    "test-org/moving": { dir: embedderDir, ...QUANTIZED, commit: "a".repeat(40) },
    "test-org/gated": { dir: embedderDir, ...QUANTIZED, gated: true },
  });
  baseUrl = hub.baseUrl;
  modelsDir = mkdtempSync(join(tmpdir(), "idearepo-pull-"));
});

afterAll(() => {
  hub.stop();
  rmSync(modelsDir, { recursive: true, force: true });
});

const modelBytes = () => readFileSync(join(embedderDir, "onnx", "model.onnx"));
const isModelFile = (repo: string) => (r: string, f: string) => r === repo && f === "onnx/model_quantized.onnx";

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

  test("an unknown repo (the hub's 401 RepoNotFound) is a clear not-found error and leaves nothing behind", async () => {
    const pull = pullModel({ name: "test-org/does-not-exist", baseUrl, modelsDir });
    await expect(pull).rejects.toThrow("model test-org/does-not-exist not found");
    expect(existsSync(join(modelsDir, "test-org", "does-not-exist"))).toBe(false);
  });

  test("a gated repo says what to do instead", async () => {
    await expect(pullModel({ name: "test-org/gated", baseUrl, modelsDir })).rejects.toThrow(
      "HTTP 403 Access to model is restricted. (a gated or private model: download it with your account and copy the folder into the models folder)",
    );
    expect(existsSync(join(modelsDir, "test-org", "gated"))).toBe(false);
    expect(existsSync(join(modelsDir, "test-org", ".pull-gated"))).toBe(false);
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
    const before = requested().length;
    await pullModel({ name: "test-org/tiny-minilm", baseUrl, modelsDir });
    expect(requested().length).toBeGreaterThan(before);
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

describe("pullModel: checks, resume, all or nothing", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "idearepo-pull-resume-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cdnRequests = (from: number) => hub.requests.slice(from).filter((r) => r.path.startsWith("/cdn/"));

  test("every file is checked against what the hub announces: SHA-256 for weights, the git blob id for the rest", async () => {
    const result = await pullModel({ name: "test-org/tiny-minilm", baseUrl, modelsDir: dir });
    const verified = Object.fromEntries(result.files.map((f) => [f.file, f.verified]));
    expect(verified["onnx/model_quantized.onnx"]).toBe("sha256");
    expect(verified["config.json"]).toBe("git-sha1");
    expect(verified["tokenizer.json"]).toBe("git-sha1");
    expect(result.resumedBytes).toBe(0);
  });

  test("a connection dropped mid-file is resumed in the same run with a Range request", async () => {
    const size = modelBytes().length;
    const half = Math.floor(size / 2);
    hub.faults.push({ match: isModelFile("test-org/flaky"), afterBytes: half, kind: "drop", times: 1 });
    const from = hub.requests.length;
    const result = await pullModel({ name: "test-org/flaky", baseUrl, modelsDir: dir, retries: 2 });
    expect(readFileSync(join(result.dir, "onnx", "model_quantized.onnx")).equals(modelBytes())).toBe(true);
    const cdn = cdnRequests(from);
    // The hub sends half the file, then drops the connection; how much of that half reached the client before the
    // drop depends on the machine's load, so the resume starts from what the client really holds (at most half).
    expect(result.resumedBytes).toBeGreaterThan(0);
    expect(result.resumedBytes).toBeLessThanOrEqual(half);
    expect(cdn.map((r) => [r.range, r.status])).toEqual([
      [null, 200],
      [`bytes=${result.resumedBytes}-`, 206],
    ]);
    // The second transfer carried only the rest.
    expect(result.resumedBytes + cdn[1].bytes).toBe(size);
  });

  test("an interrupted pull leaves nothing the server would load, and the next run resumes it", async () => {
    const size = modelBytes().length;
    const cut = Math.floor(size / 3);
    const fault = { match: isModelFile("test-org/resumable"), afterBytes: cut, kind: "drop" as const, times: 5 };
    hub.faults.push(fault);
    await expect(pullModel({ name: "test-org/resumable", baseUrl, modelsDir: dir, retries: 0 })).rejects.toThrow("run the same command again to resume");
    expect(existsSync(join(dir, "test-org", "resumable"))).toBe(false);
    expect(listModels(dir).map((m) => m.name)).not.toContain("test-org/resumable");
    await expect(startModels({ modelsDir: dir, embedModel: "test-org/resumable", rerankModel: null })).rejects.toThrow("does not exist");
    // What arrived stays in the hidden staging folder for the next run.
    const part = join(dir, "test-org", ".pull-resumable", "onnx", "model_quantized.onnx.part");
    // How much of the sent third reached the client before the drop depends on the machine's load (the hub errors the
    // stream 20 ms after queueing it): what is held is a true prefix of the file, and the next run resumes from it.
    const held = readFileSync(part);
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBeLessThanOrEqual(cut);
    expect(held.equals(modelBytes().subarray(0, held.length))).toBe(true);

    fault.times = 0; // the network is back
    const from = hub.requests.length;
    const progress: PullProgress[] = [];
    const result = await pullModel({ name: "test-org/resumable", baseUrl, modelsDir: dir, onProgress: (p) => progress.push(p) });
    const cdn = cdnRequests(from);
    expect(cdn.map((r) => [r.range, r.status])).toEqual([[`bytes=${held.length}-`, 206]]);
    expect(cdn[0].bytes).toBe(size - held.length);
    expect(progress.find((p) => p.file === "onnx/model_quantized.onnx")?.resumedFrom).toBe(held.length);
    expect(result.resumedBytes).toBeGreaterThanOrEqual(held.length);
    expect(readFileSync(join(result.dir, "onnx", "model_quantized.onnx")).equals(modelBytes())).toBe(true);
    expect(readdirSync(join(dir, "test-org")).filter((n) => n.startsWith("."))).toEqual([]); // staging and lock gone
    const models = await startModels({ modelsDir: dir, embedModel: "test-org/resumable", rerankModel: null });
    expect((await models.embed(["resumed"]))[0].length).toBe(fixtures.hidden);
    await models.close();
  });

  test("a file that does not match the announced SHA-256 is refused and discarded", async () => {
    const pull = () => pullModel({ name: "test-org/tampered", baseUrl, modelsDir: dir, retries: 0 });
    await expect(pull()).rejects.toThrow(/SHA-256 [0-9a-f]{64} does not match the host's [0-9a-f]{64}/);
    expect(existsSync(join(dir, "test-org", "tampered"))).toBe(false);
    expect(existsSync(join(dir, "test-org", ".pull-tampered", "onnx", "model_quantized.onnx.part"))).toBe(false);
    // Not resumed into a corrupt file: the next run downloads it whole again, and is refused again.
    const from = hub.requests.length;
    await expect(pull()).rejects.toThrow("does not match");
    expect(cdnRequests(from).map((r) => r.range)).toEqual([null]);
  });

  test("a model that changed on the host between two runs is not mixed: the partial copy is discarded", async () => {
    const fault = { match: isModelFile("test-org/moving"), afterBytes: 100, kind: "drop" as const, times: 1 };
    hub.faults.push(fault);
    await expect(pullModel({ name: "test-org/moving", baseUrl, modelsDir: dir, retries: 0 })).rejects.toThrow("resume");
    hub.repos["test-org/moving"].commit = "b".repeat(40);
    await expect(pullModel({ name: "test-org/moving", baseUrl, modelsDir: dir })).rejects.toThrow(
      `the model changed on the host while it was being pulled (commit ${"a".repeat(40)} → ${"b".repeat(40)})`,
    );
    expect(existsSync(join(dir, "test-org", ".pull-moving"))).toBe(false);
    const result = await pullModel({ name: "test-org/moving", baseUrl, modelsDir: dir });
    expect(result.resumedBytes).toBe(0);
    expect(readFileSync(join(result.dir, "onnx", "model_quantized.onnx")).equals(modelBytes())).toBe(true);
  });

  test("one pull per model at a time; a lock left by a killed run is taken over", async () => {
    const lock = join(dir, "test-org", ".pull-tiny-minilm-fp32.lock");
    writeFileSync(lock, String(process.pid)); // a live process holds it
    await expect(pullModel({ name: "test-org/tiny-minilm-fp32", baseUrl, modelsDir: dir })).rejects.toThrow(
      `another \`models pull test-org/tiny-minilm-fp32\` is running (pid ${process.pid})`,
    );
    const dead = Bun.spawnSync(["true"]).pid; // exited: its lock is stale
    writeFileSync(lock, String(dead));
    const result = await pullModel({ name: "test-org/tiny-minilm-fp32", baseUrl, modelsDir: dir });
    expect(existsSync(join(result.dir, "onnx", "model.onnx"))).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });
});
