// Giving the page's main thread back between the map's set-up steps, so no step is one long task: a key press or a
// paint waits at most one slice. Lighthouse counts every main-thread task over 50 ms (under its 4× CPU slowdown, so
// over ~12 ms here) as blocking; a map of 10,000 ideas built in one go held the thread for hundreds of ms.

/** Milliseconds of work per slice before the thread is given back. */
export const SLICE_MS = 8;

export class Cancelled extends Error {
  override name = "AbortError";
  constructor() { super("the map view was closed while it was being made"); }
}

/** Lets input, rendering and other tasks run: scheduler.yield() where there is one (the continuation keeps its place in the queue), else a new task. */
export function yieldToMain(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (s?.yield) return s.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Resolves after the next frame is painted (a frame, then a task): what the page shows now is on screen first. */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** Calls `each` for every item, giving the thread back every SLICE_MS; stops with Cancelled once `signal` is aborted. */
export async function inSlices<T>(items: readonly T[], each: (item: T) => void, signal?: AbortSignal): Promise<void> {
  let since = performance.now();
  for (let i = 0; i < items.length; i++) {
    each(items[i]);
    if ((i & 127) === 127 && performance.now() - since > SLICE_MS) {
      await yieldToMain();
      if (signal?.aborted) throw new Cancelled();
      since = performance.now();
    }
  }
}

/** Runs a computation written as a generator (it yields between small steps) to its end, giving the thread back every SLICE_MS. */
export async function runInSlices<R>(steps: Generator<void, R>, signal?: AbortSignal): Promise<R> {
  let since = performance.now();
  for (let i = 0; ; i++) {
    const r = steps.next();
    if (r.done) return r.value;
    if ((i & 127) === 127 && performance.now() - since > SLICE_MS) {
      await yieldToMain();
      if (signal?.aborted) throw new Cancelled();
      since = performance.now();
    }
  }
}

/** Runs the same computation all at once. */
export function runNow<R>(steps: Generator<void, R>): R {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Resolves when the browser is idle (requestIdleCallback, or once `timeout` ms have passed whatever it is doing);
 * where there is no requestIdleCallback (Safari), after a short timer.
 */
export function whenIdle(timeout: number): Promise<void> {
  const ric = (globalThis as { requestIdleCallback?: (fn: () => void, o: { timeout: number }) => number }).requestIdleCallback;
  return new Promise((resolve) => {
    if (ric) ric(() => resolve(), { timeout });
    else setTimeout(resolve, 50);
  });
}

/**
 * Resolves once `quietMs` have passed without a long task (over 50 ms) on the page, checked in idle time; or after
 * `timeout` ms whatever happens. Without requestIdleCallback (Safari), after `quietMs`.
 */
export function whenQuiet(quietMs: number, timeout: number): Promise<void> {
  type Deadline = { didTimeout: boolean };
  const ric = (globalThis as { requestIdleCallback?: (fn: (d: Deadline) => void, o: { timeout: number }) => number }).requestIdleCallback;
  if (!ric) return new Promise((resolve) => setTimeout(resolve, quietMs));
  let last = performance.now();
  let seen: PerformanceObserver | null = null;
  try {
    seen = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) last = Math.max(last, e.startTime + e.duration);
    });
    seen.observe({ type: "longtask" });
  } catch {
    seen = null; // no long-task timing here: quiet is then just time passed in idle callbacks
  }
  return new Promise((resolve) => {
    const end = performance.now() + timeout;
    const tick = (d: Deadline) => {
      const now = performance.now();
      if (d.didTimeout || now >= end || now - last >= quietMs) {
        seen?.disconnect();
        resolve();
        return;
      }
      ric(tick, { timeout: Math.max(1, end - now) });
    };
    ric(tick, { timeout });
  });
}
