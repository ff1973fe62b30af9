// The model worker: loads the embedder (USE-lite or ONNX) and optional reranker, answers one request at a time.
import { USE_LITE, type EmbedResult, type ModelInfo, type ModelOptions, type Reply, type Request, type SettledNotice } from "./protocol";
import { setNativeDir } from "./native-dir";
import { pageOutEmbeddedFiles } from "./page-out";
import type { Embedder, Reranker } from "./vectors";

declare const self: Worker;

let embedder: Embedder | null = null;
/** What the worker was started with, to load the model again should it fail its check after settling. */
let startOptions: ModelOptions | null = null;
let reranker: Reranker | null = null;
/** Requests run strictly in order: model runtimes are not re-entrant, and order keeps replies predictable. */
let queue: Promise<void> = Promise.resolve();

self.addEventListener("message", (event: MessageEvent<Request>) => {
  const request = event.data;
  queue = queue.then(() => handle(request));
});

async function handle(request: Request): Promise<void> {
  try {
    const [result, transfer] = await run(request);
    self.postMessage({ id: request.id, ok: true, result } satisfies Reply, transfer);
  } catch (error) {
    self.postMessage({ id: request.id, ok: false, error: errorMessage(error) } satisfies Reply);
    return;
  }
  // After the reply, so the caller is not held up; still before any later request (they queue behind).
  if (request.type === "embed" && startOptions) await settle(startOptions);
}

/**
 * Lets the embedder finish lowering its memory (USE-lite: packed-weights.ts). Should its check fail (a TF.js upgrade
 * that reads weights it did not before), the model is loaded again and kept whole: correct vectors before memory.
 */
async function settle(options: ModelOptions): Promise<void> {
  if (!embedder?.settle) return;
  let releasedBytes = 0;
  try {
    const bytes = await embedder.settle();
    if (bytes === null) return;
    releasedBytes = bytes;
  } catch (error) {
    console.warn(`model worker: ${errorMessage(error)}; loading the model again and keeping all of its weights`);
    const broken = embedder;
    embedder = null; // never answer from a model that failed its check
    // Never throws: a rejected link would stop the request chain; a failed reload leaves "not initialised" errors.
    await Promise.resolve(broken.dispose()).catch(() => {});
    embedder = await loadEmbedder(options, { keepWhole: true }).catch(() => null);
  }
  self.postMessage({ notice: "settled", releasedBytes } satisfies SettledNotice);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function run(request: Request): Promise<[ModelInfo | EmbedResult | number[] | null, ArrayBuffer[]]> {
  switch (request.type) {
    case "init": {
      setNativeDir(request.nativeDir);
      startOptions = request.options;
      const info = await init(request.options);
      // Loading leaves JavaScript copies of the weights behind (each shard read, then decoded; the runtime keeps its
      // own in WebAssembly memory): collected now rather than at some later GC. The executable's pages they were read
      // from are handed back too (page-out.ts).
      Bun.gc(true);
      pageOutEmbeddedFiles();
      return [info, []];
    }
    case "embed": {
      const model = ready(embedder);
      const vectors = await model.embed(request.texts);
      const result: EmbedResult = { vectors, count: request.texts.length, dim: model.dim };
      return [result, [vectors.buffer as ArrayBuffer]];
    }
    case "rerank": {
      if (!reranker) throw new Error("no rerank model is configured");
      return [await reranker.score(request.query, request.docs), []];
    }
    case "close":
      await Promise.all([embedder?.dispose(), reranker?.dispose()]);
      embedder = reranker = null;
      return [null, []];
    case "crash":
      // Never answers: the request stays owed, as one would be when a real fault kills the worker mid-call.
      setTimeout(() => {
        throw new Error("model worker crashed (test hook)");
      });
      return new Promise(() => {});
  }
}

async function init(options: ModelOptions): Promise<ModelInfo> {
  if (embedder) throw new Error("model worker is already initialised");
  embedder = await loadEmbedder(options);
  if (options.rerankModel) {
    const { loadOnnxReranker } = await import("./onnx-models");
    reranker = await loadOnnxReranker(options.modelsDir, options.rerankModel);
  }
  return { embedModelId: embedder.id, dim: embedder.dim, hasReranker: reranker !== null, runtime: embedder.runtime };
}

async function loadEmbedder(options: ModelOptions, { keepWhole = false } = {}): Promise<Embedder> {
  // Backends are imported on demand, so a USE-lite setup never loads onnxruntime and vice versa.
  if (options.embedModel === USE_LITE) {
    const [{ loadUseLite }, { resolveUseLiteFiles }] = await Promise.all([import("./use-lite"), import("./use-lite-files")]);
    return loadUseLite(resolveUseLiteFiles(), "wasm", { keepWhole });
  }
  const { loadOnnxEmbedder } = await import("./onnx-models");
  return loadOnnxEmbedder(options.modelsDir, options.embedModel);
}

function ready(model: Embedder | null): Embedder {
  if (!model) throw new Error("model worker is not initialised");
  return model;
}
