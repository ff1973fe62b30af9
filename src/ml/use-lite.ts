// Universal Sentence Encoder lite on TF.js: loads the graph model from explicit files, runs it on the wasm backend.
import * as tf from "@tensorflow/tfjs-core";
import { loadGraphModel, type GraphModel } from "@tensorflow/tfjs-converter";
import { setThreadsCount, setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { types } from "node:util";
import { readFile } from "node:fs/promises";
import { PackedWeightRelease, type GraphNode } from "./packed-weights";
import { USE_LITE } from "./protocol";
import { USE_LITE_VERSION, type UseLiteFiles } from "./use-lite-files";
import { UseTokenizer, type UseVocabulary } from "./use-tokenizer";
import { normalizeRows, type Embedder } from "./vectors";

export const USE_LITE_DIM = 512;

/**
 * "wasm" (default) is ~18× faster than "cpu" (pure JS) with the same vectors (cosine 1.0 on STS-B sentences);
 * "cpu" exists only as the reference the benchmark compares against and needs @tensorflow/tfjs-backend-cpu.
 */
export type TfBackend = "wasm" | "cpu";

/** keepWhole: never release the packed weights (after a failed check, see worker.ts). */
export async function loadUseLite(files: UseLiteFiles, backend: TfBackend = "wasm", { keepWhole = false } = {}): Promise<Embedder> {
  await startBackend(files, backend);
  const [{ model, nodes }, vocabulary] = await Promise.all([loadModel(files), readJson<UseVocabulary>(files.vocabJson)]);
  const tokenizer = new UseTokenizer(vocabulary);
  const run = async (texts: string[]) => normalizeRows(await runModel(model, tokenizer, texts), texts.length, USE_LITE_DIM);
  // The wasm backend's packed weights are released after the first call (packed-weights.ts); the CPU one packs none.
  const release = backend === "wasm" && !keepWhole ? new PackedWeightRelease(model, nodes, () => tf.backend() as never, run, USE_LITE_DIM) : null;
  return {
    id: `${USE_LITE}@${USE_LITE_VERSION}`,
    runtime: `tfjs-${backend}`,
    dim: USE_LITE_DIM,
    embed: async (texts) => {
      const vectors = await run(texts);
      release?.afterCall(texts, vectors);
      return vectors;
    },
    dispose: () => model.dispose(),
    settle: async () => (release ? release.check() : null),
  };
}

/**
 * TF.js's node platform, as tfjs-core's own (src/platforms/platform_node.ts) defines it. tfjs-core registers that one
 * from a module only imported for its side effect (`import "./platforms/platform_node"`, listed in its package.json
 * "sideEffects"); Bun's bundler with code splitting drops that import, and the model then failed to load with
 * "undefined is not an object (evaluating 'E().platform.isTypedArray')". Importing the module by its path is no way
 * out: from a checkout that path is a second copy of tfjs-core beside the one `@tensorflow/tfjs-core` resolves to.
 */
const NODE_PLATFORM: tf.Platform = {
  fetch: (path, init) => fetch(path, init),
  now: () => performance.now(),
  encode(text, encoding) {
    if (encoding !== "utf-8" && encoding !== "utf8") throw new Error(`Node built-in encoder only supports utf-8, but got ${encoding}`);
    return new TextEncoder().encode(text);
  },
  decode: (bytes, encoding) => (bytes.length === 0 ? "" : new TextDecoder(encoding as Bun.Encoding).decode(bytes)),
  isTypedArray: (a): a is Float32Array | Int32Array | Uint8Array | Uint8ClampedArray =>
    types.isFloat32Array(a) || types.isInt32Array(a) || types.isUint8Array(a) || types.isUint8ClampedArray(a),
};

async function startBackend(files: UseLiteFiles, backend: TfBackend): Promise<void> {
  if (!tf.env().platform) tf.env().setPlatform("node", NODE_PLATFORM);
  if (tf.getBackend() === backend) return;
  if (backend === "wasm") {
    // Paths must be set before the backend starts; a compiled binary has no node_modules to find them next to.
    setWasmPaths(files.wasm);
    // One thread: the threaded build spawns pthread workers from blob: URLs, which Bun's worker_threads refuses,
    // and on a 2-core box the HTTP thread needs the other core anyway.
    setThreadsCount(1);
    tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  } else {
    // @ts-ignore -- dev-only reference backend, absent from production installs
    await import("@tensorflow/tfjs-backend-cpu");
  }
  if (!(await tf.setBackend(backend))) throw new Error(`TF.js ${backend} backend failed to start`);
}

async function loadModel(files: UseLiteFiles): Promise<{ model: GraphModel; nodes: GraphNode[] }> {
  const json = await readJson<{ modelTopology: { node: GraphNode[] }; weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[] }>(
    files.modelJson,
  );
  const weightSpecs: tf.io.WeightsManifestEntry[] = [];
  const shardPaths: string[] = [];
  for (const group of json.weightsManifest) {
    for (const name of group.paths) {
      const path = files.shards[name];
      if (!path) throw new Error(`use-lite weight shard ${name} is not among the resolved files`);
      shardPaths.push(path);
    }
    weightSpecs.push(...group.weights);
  }
  // Streamed, shard by shard: with `weightData` the GraphModel keeps the whole 28 MB buffer for save() (which we never
  // call) next to the runtime's own copy in WebAssembly memory, and decoding it whole holds a third copy meanwhile.
  const handler: tf.io.IOHandler = {
    load: async () => ({ modelTopology: json.modelTopology, weightSpecs, getWeightStream: () => shardStream(shardPaths) }),
  };
  return { model: await loadGraphModel(handler), nodes: json.modelTopology.node };
}

function shardStream(paths: string[]): ReadableStream<ArrayBuffer> {
  let next = 0;
  return new ReadableStream<ArrayBuffer>({
    async pull(controller) {
      if (next === paths.length) return controller.close();
      const bytes = await readFile(paths[next++]);
      const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      controller.enqueue(whole ? (bytes.buffer as ArrayBuffer) : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer));
    },
  });
}

/**
 * The graph takes a sparse batch: (row, position) indices plus token ids, so texts need no padding. A text with no
 * tokens (the empty string) cannot be expressed that way (the row count comes from the largest index), so it is
 * left out of the run and gets an all-zero vector: similar to nothing.
 */
async function runModel(model: GraphModel, tokenizer: UseTokenizer, texts: string[]): Promise<Float32Array> {
  const encodings = texts.map((t) => tokenizer.encode(t));
  const rows = encodings.map((ids, i) => i).filter((i) => encodings[i].length > 0);
  const result = new Float32Array(texts.length * USE_LITE_DIM);
  if (rows.length === 0) return result;

  const total = rows.reduce((n, i) => n + encodings[i].length, 0);
  const indices = new Int32Array(total * 2);
  const values = new Int32Array(total);
  let k = 0;
  rows.forEach((textIndex, row) =>
    encodings[textIndex].forEach((id, pos) => {
      indices[2 * k] = row;
      indices[2 * k + 1] = pos;
      values[k++] = id;
    }),
  );
  const inputs = { indices: tf.tensor2d(indices, [total, 2], "int32"), values: tf.tensor1d(values, "int32") };
  try {
    const output = (await model.executeAsync(inputs)) as tf.Tensor;
    const data = (await output.data()) as Float32Array;
    output.dispose();
    if (data.length !== rows.length * USE_LITE_DIM) throw new Error(`use-lite returned ${data.length} floats for ${rows.length} texts`);
    rows.forEach((textIndex, row) => result.set(data.subarray(row * USE_LITE_DIM, (row + 1) * USE_LITE_DIM), textIndex * USE_LITE_DIM));
    return result;
  } finally {
    inputs.indices.dispose();
    inputs.values.dispose();
  }
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, "utf8")) as T;
}
