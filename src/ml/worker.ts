// The model worker: loads the embedder (USE-lite or ONNX) and optional reranker, answers one request at a time.
import { USE_LITE, type EmbedResult, type ModelInfo, type ModelOptions, type Reply, type Request } from "./protocol";
import { setNativeDir } from "./native-dir";
import { pageOutEmbeddedFiles } from "./page-out";
import type { Embedder, Reranker } from "./vectors";

declare const self: Worker;

let embedder: Embedder | null = null;
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
    const message = error instanceof Error ? error.message : String(error);
    self.postMessage({ id: request.id, ok: false, error: message } satisfies Reply);
  }
}

async function run(request: Request): Promise<[ModelInfo | EmbedResult | number[] | null, ArrayBuffer[]]> {
  switch (request.type) {
    case "init": {
      setNativeDir(request.nativeDir);
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
  // Backends are imported on demand, so a USE-lite setup never loads onnxruntime and vice versa.
  if (options.embedModel === USE_LITE) {
    const [{ loadUseLite }, { resolveUseLiteFiles }] = await Promise.all([import("./use-lite"), import("./use-lite-files")]);
    embedder = await loadUseLite(resolveUseLiteFiles());
  } else {
    const { loadOnnxEmbedder } = await import("./onnx-models");
    embedder = await loadOnnxEmbedder(options.modelsDir, options.embedModel);
  }
  if (options.rerankModel) {
    const { loadOnnxReranker } = await import("./onnx-models");
    reranker = await loadOnnxReranker(options.modelsDir, options.rerankModel);
  }
  return { embedModelId: embedder.id, dim: embedder.dim, hasReranker: reranker !== null, runtime: embedder.runtime };
}

function ready(model: Embedder | null): Embedder {
  if (!model) throw new Error("model worker is not initialised");
  return model;
}
