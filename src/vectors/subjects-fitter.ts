// The main thread's side of the subjects worker (subjects-worker.ts): hands it an account's vectors, gets the subjects
// back, and counts the ideas whose fit is under way (GET /health `embeddings.subjects_fitting`).
//
// Why a worker: a fit over every idea is what keeps a subject of a large account apart (docs/search.md, *A subject
// inside a large account*), and it is k-means over thousands of 512-dimension vectors: ~1 s at 2,000 ideas, seconds at
// 10,000. On the event loop that was a stalled request (804 ms measured); on a thread of its own, requests and other
// accounts' captures go on while the account's re-scoring pass waits for its subjects.
import type { Centre } from "./calibration";
import { dot } from "./calibration";
import type { Subjects } from "./subjects";

export type FitRequest = { id: number; packed: Float32Array; n: number; dim: number; centre: Float32Array | null; scale: number; rounds: number };
export type FitReply =
  | { id: number; subjects: { means: Float32Array; removed: Float32Array } | null }
  | { id: number; error: string };

/** The worker is stopped after this long without a fit (its memory is the last account's vectors). */
const IDLE_MS = 30_000;

/**
 * Inside a `bun build --compile` binary the worker is a bundle entrypoint addressed from the bundle root (src/), as
 * the model and checkpoint workers are (scripts/build.ts lists it).
 */
function workerUrl(): string {
  return import.meta.url.startsWith("file:///$bunfs/") ? "./vectors/subjects-worker.ts" : new URL("./subjects-worker.ts", import.meta.url).href;
}

interface Pending {
  resolve(s: Subjects | null): void;
  reject(e: Error): void;
  dim: number;
}

let worker: Worker | null = null;
let idleTimer: ReturnType<typeof setTimeout> | null = null;
const pending = new Map<number, Pending>();
let nextId = 1;
/** Ideas of the fits in the worker now (handed over, no answer yet). */
let inFlight = 0;

/** Ideas whose account's subjects are being fitted in the worker now: a request that sees it above 0 was answered during a fit. */
export const fittingIdeas = () => inFlight;

/** Counts `n` ideas as being fitted until the returned function is called. */
function fitStarted(n: number): () => void {
  inFlight += n;
  let done = false;
  return () => {
    if (!done) (done = true), (inFlight -= n);
  };
}

function failAll(message: string): void {
  for (const p of pending.values()) p.reject(new Error(message));
  pending.clear();
  worker?.terminate();
  worker = null;
}

function ensureWorker(): Worker {
  if (idleTimer) (clearTimeout(idleTimer), (idleTimer = null));
  if (worker) return worker;
  const w = new Worker(workerUrl());
  w.addEventListener("message", (e: MessageEvent<FitReply>) => {
    const reply = e.data;
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if ("error" in reply) p.reject(new Error(reply.error));
    else p.resolve(reply.subjects ? unpack(reply.subjects.means, reply.subjects.removed, p.dim) : null);
    if (pending.size === 0) {
      idleTimer = setTimeout(() => {
        worker?.terminate();
        worker = null;
      }, IDLE_MS);
      idleTimer.unref?.();
    }
  });
  w.addEventListener("error", (e) => failAll(`subjects worker failed: ${e.message}`));
  // A worker that ends without an error event (killed, out of memory) would leave its fits waiting for ever: they fail
  // instead, and are fitted on this thread. Its own terminate() (idle, failAll) has cleared `worker` first.
  w.addEventListener("close", () => {
    if (worker === w) failAll("subjects worker exited");
  });
  w.unref();
  return (worker = w);
}

function unpack(means: Float32Array, removed: Float32Array, dim: number): Subjects {
  const C = means.length / dim;
  const m = Array.from({ length: C }, (_, j) => means.slice(j * dim, (j + 1) * dim));
  return {
    means: m,
    meanNorms: Float64Array.from(m.map((x) => dot(x, x))),
    removed: Array.from({ length: C }, (_, j) => removed.slice(j * dim, (j + 1) * dim)),
  };
}

/** fitPacked (subjects.ts) in the worker; `packed` is handed over (transferred), not copied. */
export function fitInWorker(packed: Float32Array, n: number, dim: number, centre: Centre, scale: number, rounds: number): Promise<Subjects | null> {
  const w = ensureWorker();
  const id = nextId++;
  const finished = fitStarted(n);
  const fit = new Promise<Subjects | null>((resolve, reject) => {
    pending.set(id, { resolve, reject, dim });
    w.postMessage({ id, packed, n, dim, centre, scale, rounds } satisfies FitRequest, [packed.buffer as ArrayBuffer]);
  });
  return fit.finally(finished);
}
