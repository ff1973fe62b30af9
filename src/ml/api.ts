// What callers of the model client see (client.ts implements it): the calls, their priority, the worker's lifetime.
import type { Priority } from "./lanes";

/** How a call queues: background (the default) unless a person is waiting on the answer (lanes.ts). */
export interface CallOptions {
  priority?: Priority;
}

export interface ModelClient {
  /** Stable identity of the embedding model, e.g. "use-lite@0.2.0" or "onnx:<name>:<sha256 prefix of the file>". */
  embedModelId: string;
  dim: number;
  hasReranker: boolean;
  /** One L2-normalised vector per text, in input order (so cosine = dot product). */
  embed(texts: string[], opts?: CallOptions): Promise<Float32Array[]>;
  /** One score per doc, in input order; higher = more relevant. Rejects when no reranker is configured. */
  rerank(query: string, docs: string[], opts?: CallOptions): Promise<number[]>;
  /** Whether a worker holds the models now, and how often one was started and unloaded (for tests and logs). */
  stats(): ModelClientStats;
  close(): Promise<void>;
}

export interface ModelClientStats {
  /** A worker is running (or starting) with the models in memory. */
  loaded: boolean;
  /** Workers started so far, the start-up load included. */
  loads: number;
  /** Workers stopped for being idle. */
  idleUnloads: number;
  /** How long the last completed load took (spawn + model load), in ms; null before the first. */
  lastLoadMs: number | null;
  /** Bytes the current worker handed back after loading (USE-lite: its packed weights); null until it has settled. */
  releasedBytes: number | null;
}

/** How the client manages the worker's lifetime; the models themselves are chosen by ModelOptions. */
export interface ClientOptions {
  /**
   * Stop the worker (freeing the models' memory, ~110 MB for USE-lite) after this many seconds without a call; the
   * next call starts it again (~130 ms for USE-lite). 0 or absent: keep it loaded until close().
   */
  idleUnloadSeconds?: number;
}
