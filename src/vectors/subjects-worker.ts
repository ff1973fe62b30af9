// Fits an account's subjects (subjects.ts) on a thread of its own, so a fit over every idea of a large account (seconds
// of k-means) never holds the event loop that answers requests. One fit at a time, in the order asked.
import { fitPacked } from "./subjects";
import type { FitReply, FitRequest } from "./subjects-fitter";

declare const self: Worker;

self.onmessage = (event: MessageEvent<FitRequest>) => {
  const { id, packed, n, dim, centre, scale, rounds } = event.data;
  try {
    const s = fitPacked(packed, n, dim, centre, scale, rounds);
    if (!s) return self.postMessage({ id, subjects: null } satisfies FitReply);
    const C = s.means.length;
    const means = new Float32Array(C * dim);
    const removed = new Float32Array(C * dim);
    s.means.forEach((m, j) => means.set(m, j * dim));
    s.removed.forEach((r, j) => removed.set(r, j * dim));
    self.postMessage({ id, subjects: { means, removed } } satisfies FitReply, [means.buffer as ArrayBuffer, removed.buffer as ArrayBuffer]);
  } catch (e) {
    self.postMessage({ id, error: (e as Error).message } satisfies FitReply);
  }
};
