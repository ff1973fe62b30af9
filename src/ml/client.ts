// Main-thread API to the model worker: startModels() → embed / rerank, queued by priority, batched, restarted after a
// crash, unloaded while idle.
import { BACKGROUND_BATCH_CHARS, clipText, MAX_BATCH_CHARS, MAX_BATCH_TEXTS, planBatches } from "./batching";
import type { CallOptions, ClientOptions, ModelClient, ModelClientStats } from "./api";
import { Lanes, type Priority } from "./lanes";
import { findModelFolder } from "./model-folder";
import { nativeDir } from "./native-dir";
import { USE_LITE, type EmbedResult, type ModelInfo, type ModelOptions, type Reply, type Request, type SettledNotice } from "./protocol";

export { cosine } from "./vectors";
export { USE_LITE, type ModelOptions } from "./protocol";
export type { Priority } from "./lanes";
export type { CallOptions, ClientOptions, ModelClient, ModelClientStats } from "./api";

/**
 * With idle unloading on, a freshly started client waits at most this long for a first call before it releases the
 * worker: the start-up load only proves the model works, and an idle server should not hold it for a whole idle
 * period. The grace covers the work a starting server queues at once (a restart's pending jobs call within
 * milliseconds), so that work does not pay an unload and a reload.
 */
const START_GRACE_MS = 1000;

/**
 * Inside a `bun build --compile` binary, modules are bundled into the executable, so import.meta.url no longer
 * points next to worker.ts; the worker is found by its entrypoint path relative to the build root instead. This
 * assumes the build passes src/main.ts and src/ml/worker.ts as entrypoints (root src/), see docs/models.md.
 */
const COMPILED_WORKER_PATH = "./ml/worker.ts";

export function workerUrl(): string {
  return import.meta.url.startsWith("file:///$bunfs/") ? COMPILED_WORKER_PATH : new URL("./worker.ts", import.meta.url).href;
}

/** Docs per rerank request; like embed batches, keeps other callers' turns short. */
const RERANK_BATCH = 32;

/** Omit applied to each member of a union rather than to the union as a whole. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A request before the client numbers it. */
type RequestBody = DistributiveOmit<Request, "id">;

/** A call waiting for the model worker (not a queued job: those are the pipeline's, jobs/queue.ts). */
interface Call {
  body: RequestBody;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * Starts the worker and loads the models; rejects with a readable message if a model folder is missing or broken.
 * The returned client may be shared by all request handlers: calls are queued and run one batch at a time.
 */
export async function startModels(options: ModelOptions, lifecycle: ClientOptions = {}): Promise<ModelClient> {
  // Checked here too, so a bad configuration fails before a worker is spawned, with the folder and the fix named.
  if (options.embedModel !== USE_LITE) findModelFolder(options.modelsDir, options.embedModel);
  if (options.rerankModel) findModelFolder(options.modelsDir, options.rerankModel);
  const idleSeconds = lifecycle.idleUnloadSeconds ?? 0;
  if (!Number.isFinite(idleSeconds) || idleSeconds < 0) throw new Error(`idle unload must be ≥ 0 seconds, got ${idleSeconds}`);
  const client = new WorkerModelClient(options, idleSeconds * 1000);
  await client.start();
  return client;
}

class WorkerModelClient implements ModelClient {
  embedModelId = "";
  dim = 0;
  hasReranker = false;

  private worker: Worker | null = null;
  private queue = new Lanes<Call>();
  private pending: { id: number; call: Call } | null = null;
  private pumping = false;
  private closed = false;
  private closing: Promise<void> | null = null;
  private nextId = 1;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private loads = 0;
  private idleUnloads = 0;
  private lastLoadMs: number | null = null;
  private releasedBytes: number | null = null;

  /** idleUnloadMs 0: never unload while open. */
  constructor(
    private options: ModelOptions,
    private idleUnloadMs: number,
  ) {}

  async start(): Promise<void> {
    await this.ensureWorker();
    this.worker?.unref();
    this.armIdleTimer(Math.min(this.idleUnloadMs, START_GRACE_MS));
  }

  async embed(texts: string[], { priority = "background" }: CallOptions = {}): Promise<Float32Array[]> {
    const vectors = new Array<Float32Array>(texts.length);
    // Background work goes in smaller requests: an interactive call jumps the queue but waits for the one running.
    const maxChars = priority === "interactive" ? MAX_BATCH_CHARS : BACKGROUND_BATCH_CHARS;
    // One request per batch, each queued only after the previous returns, so concurrent callers take turns.
    for (const batch of planBatches(texts, MAX_BATCH_TEXTS, maxChars)) {
      const result = (await this.call({ type: "embed", texts: batch.map((i) => clipText(texts[i])) }, priority)) as EmbedResult;
      batch.forEach((textIndex, row) => {
        vectors[textIndex] = result.vectors.slice(row * result.dim, (row + 1) * result.dim);
      });
    }
    return vectors;
  }

  async rerank(query: string, docs: string[], { priority = "background" }: CallOptions = {}): Promise<number[]> {
    if (!this.hasReranker) throw new Error("no rerank model is configured");
    const scores: number[] = [];
    for (let i = 0; i < docs.length; i += RERANK_BATCH) {
      const chunk = docs.slice(i, i + RERANK_BATCH).map(clipText);
      scores.push(...((await this.call({ type: "rerank", query: clipText(query), docs: chunk }, priority)) as number[]));
    }
    return scores;
  }

  stats(): ModelClientStats {
    return { loaded: this.worker !== null, loads: this.loads, idleUnloads: this.idleUnloads, lastLoadMs: this.lastLoadMs, releasedBytes: this.releasedBytes };
  }

  /** Lets queued calls finish, frees the models, stops the worker; later calls reject. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.disarmIdleTimer();
      // Queued behind the calls still owed (last in the background lane; no new call is taken now); answered without a
      // worker when there is none (see pump).
      await this.call({ type: "close" }).catch(() => {});
      this.closed = true;
      this.worker?.terminate();
      this.worker = null;
    })();
    return this.closing;
  }

  /** Test hook: makes the worker throw an uncaught error, as a runtime fault would. */
  crashForTest(): Promise<unknown> {
    return this.call({ type: "crash" });
  }

  private call(body: RequestBody, priority: Priority = "background"): Promise<unknown> {
    if (this.closed || (this.closing && body.type !== "close")) return Promise.reject(new Error("model client is closed"));
    this.disarmIdleTimer();
    return new Promise((resolve, reject) => {
      this.queue.push({ body, resolve, reject }, priority);
      void this.pump();
    });
  }

  /** Idle from now: unload after `ms` unless a call comes first (a call disarms the timer). */
  private armIdleTimer(ms: number): void {
    this.disarmIdleTimer();
    if (this.idleUnloadMs <= 0 || this.closing || !this.worker) return;
    this.idleTimer = setTimeout(() => this.unloadIfIdle(), ms);
    this.idleTimer.unref(); // waiting to unload must not keep a CLI command or test run alive
  }

  private disarmIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /**
   * Terminating the worker returns its memory to the OS (measured: the TF.js wasm heap and the worker's JS heap,
   * within ~100 ms, no GC needed); no "close" message first, as the thread and everything it holds go at once.
   * The next call starts a new worker through ensureWorker(), the same path as after a crash.
   */
  private unloadIfIdle(): void {
    this.idleTimer = null;
    const worker = this.worker;
    if (!worker || this.pumping || this.pending || this.queue.size > 0 || this.closing) return;
    this.worker = null; // first, so the worker's own "close" event is not taken for a crash
    worker.terminate();
    this.idleUnloads++;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.size > 0) {
        const call = this.queue.shift()!;
        if (call.body.type === "close" && !this.worker) {
          call.resolve(null); // nothing loaded to free; don't start a worker just to stop it
          continue;
        }
        try {
          const worker = await this.ensureWorker();
          worker.ref(); // keep the process alive while a reply is owed
          call.resolve(await this.send(worker, call));
        } catch (error) {
          call.reject(error instanceof Error ? error : new Error(String(error)));
        }
      }
    } finally {
      this.pumping = false;
      this.worker?.unref(); // an idle model worker must not keep a CLI command or test run from exiting
      this.armIdleTimer(this.idleUnloadMs);
    }
  }

  private send(worker: Worker, call: Call): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending = { id, call: { body: call.body, resolve, reject } };
      worker.postMessage({ id, ...call.body } as Request);
    });
  }

  private async ensureWorker(): Promise<Worker> {
    if (this.worker) return this.worker;
    const started = performance.now();
    this.loads++;
    const worker = new Worker(workerUrl());
    this.releasedBytes = null;
    worker.addEventListener("message", (event: MessageEvent<Reply | SettledNotice>) => {
      const data = event.data;
      if ("notice" in data) {
        if (worker === this.worker) this.releasedBytes = data.releasedBytes;
      } else this.onReply(data);
    });
    worker.addEventListener("error", (event: ErrorEvent) => this.onCrash(worker, errorSummary(event)));
    worker.addEventListener("close", () => this.onCrash(worker, "worker exited"));
    this.worker = worker;
    try {
      const info = (await this.send(worker, { body: { type: "init", options: this.options, nativeDir: nativeDir() } } as Call)) as ModelInfo;
      if (this.embedModelId && info.embedModelId !== this.embedModelId) {
        // Vectors already stored came from the old model; mixing them silently would corrupt search. A restart of the
        // server plans a re-embedding for the new model (src/vectors/generations.ts).
        throw new Error(`embedding model changed since it was first loaded (${this.embedModelId} → ${info.embedModelId}); restart to re-embed`);
      }
      Object.assign(this, { embedModelId: info.embedModelId, dim: info.dim, hasReranker: info.hasReranker });
      this.lastLoadMs = performance.now() - started;
      return worker;
    } catch (error) {
      if (this.worker === worker) this.worker = null;
      worker.terminate();
      throw error;
    }
  }

  private onReply(reply: Reply): void {
    if (!this.pending || this.pending.id !== reply.id) return;
    const { call } = this.pending;
    this.pending = null;
    if (reply.ok) call.resolve(reply.result);
    else call.reject(new Error(reply.error));
  }

  /** A dead worker fails what it owed and everything queued behind it; the next call starts a fresh one. */
  private onCrash(worker: Worker, reason: string): void {
    if (worker !== this.worker || this.closed) return;
    this.worker = null;
    worker.terminate();
    const error = new Error(`model worker crashed: ${reason}`);
    const owed = [...(this.pending ? [this.pending.call] : []), ...this.queue.takeAll()];
    this.pending = null;
    for (const call of owed) call.reject(error);
  }
}

/** Bun's ErrorEvent message carries a source excerpt; keep only the "error: ..." line for logs and callers. */
function errorSummary(event: ErrorEvent): string {
  const text = event.message || String(event.error ?? "uncaught error");
  return text.match(/^error: (.*)$/m)?.[1] ?? text.split("\n")[0];
}
