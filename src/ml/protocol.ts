// Messages between the main thread (client.ts) and the model worker (worker.ts); one request, one reply, matched by id.

export interface ModelOptions {
  /** Folder holding user-provided ONNX models, one sub-folder each. */
  modelsDir: string;
  /** "use-lite" (built in) or the name of a folder under modelsDir. */
  embedModel: string;
  /** Name of a cross-encoder folder under modelsDir, or null for no reranker. */
  rerankModel: string | null;
}

export interface ModelInfo {
  embedModelId: string;
  dim: number;
  hasReranker: boolean;
  /** Which runtime runs the embedder, e.g. "tfjs-wasm" or "onnxruntime-node"; for logs and benchmarks. */
  runtime: string;
}

export type Request =
  /** nativeDir: where the compiled binary writes onnxruntime's library (<data_dir>/.native); null from a checkout. */
  | { id: number; type: "init"; options: ModelOptions; nativeDir: string | null }
  | { id: number; type: "embed"; texts: string[] }
  | { id: number; type: "rerank"; query: string; docs: string[] }
  | { id: number; type: "close" }
  /** Test hook: throws an uncaught error inside the worker, the way a runtime fault would. */
  | { id: number; type: "crash" };

/** Embeddings travel as one flat, transferred buffer (count × dim floats) instead of one clone per text. */
export interface EmbedResult {
  vectors: Float32Array;
  count: number;
  dim: number;
}

export type Reply =
  | { id: number; ok: true; result: ModelInfo | EmbedResult | number[] | null }
  | { id: number; ok: false; error: string };

/** Sent by the worker on its own, outside the request/reply pairs: after loading, what settling freed (worker.ts). */
export interface SettledNotice {
  notice: "settled";
  /** Bytes of the model's memory handed back to the OS (0: nothing to release, or it failed its check and was reloaded). */
  releasedBytes: number;
}

/** The name that selects the built-in Universal Sentence Encoder lite. */
export const USE_LITE = "use-lite";
