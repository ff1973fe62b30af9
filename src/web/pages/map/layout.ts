// Where nodes go: the force layout runs in a Web Worker (layout-worker.ts, served from /assets/ like the other chunks,
// so the page CSP's `worker-src 'self'` allows it), with remembered positions fixed; ideas without relations sit on a
// grid below the rest. Without worker support the same code runs on the page's thread.
import { LINK_DISTANCE, runLayout, type LayoutInput } from "./force";

/** Set by the bundler (src/modules/web/assets.ts): the worker's content-hashed URL. */
declare const MAP_LAYOUT_WORKER_URL: string;

export interface Point { x: number; y: number }
export interface LayoutReply { positions: Float64Array; tick: number; done: boolean; ms: number }
export interface LayoutRun { stop(): void }

/** Below this many nodes and relations the layout takes a few ms: starting a worker would cost more than it saves. */
const IN_PAGE_BELOW = { nodes: 300, links: 600 };

let spare: Worker | null = null;
function newWorker(): Worker | null {
  try {
    return new Worker(MAP_LAYOUT_WORKER_URL, { type: "module", name: "map-layout" });
  } catch (e) {
    performance.mark("map:layout-worker-failed", { detail: (e as Error).message });
    return null;
  }
}

/** Starts the worker (fetch, parse) while the map's data is still on its way; the next layout takes it. */
export function prewarmLayoutWorker(): void {
  spare ??= newWorker();
}

/** Starts a layout; `onReply` gets progress (done = false) and the final positions (done = true), then nothing. */
export function startLayout(input: LayoutInput, onReply: (r: LayoutReply) => void, everyMs = 250): LayoutRun {
  let worker: Worker | null = null;
  if (input.n >= IN_PAGE_BELOW.nodes || input.links.length / 2 >= IN_PAGE_BELOW.links) {
    worker = spare ?? newWorker();
    spare = null;
  }
  if (!worker) {
    performance.mark("map:layout-in-page", { detail: { n: input.n } });
    let stopped = false;
    const t = setTimeout(() => {
      const started = performance.now();
      const positions = runLayout(input);
      if (!stopped) onReply({ positions, tick: 0, done: true, ms: performance.now() - started });
    }, 0);
    return { stop: () => { stopped = true; clearTimeout(t); } };
  }
  const w = worker;
  w.onmessage = (e: MessageEvent<LayoutReply>) => {
    onReply(e.data);
    if (e.data.done) w.terminate();
  };
  w.onerror = (e) => {
    // A worker that failed to load (e.g. an old cached page after an upgrade): lay out here instead.
    e.preventDefault();
    w.terminate();
    performance.mark("map:layout-worker-failed", { detail: e.message || "the worker did not load" });
    const started = performance.now();
    onReply({ positions: runLayout(input), tick: 0, done: true, ms: performance.now() - started });
  };
  // Copied, not transferred: the page keeps the input for the fallback above.
  w.postMessage({ ...input, everyMs });
  return { stop: () => w.terminate() };
}

export interface Bounds { minX: number; maxX: number; minY: number; maxY: number }

/** Grid positions for `count` unconnected ideas, below the given bounds (or alone, around 0). */
export function gridBelow(count: number, bounds: Bounds | null): Point[] {
  if (count === 0) return [];
  const cols = Math.max(1, Math.ceil(Math.sqrt(count * 2.5)));
  const width = bounds ? Math.max(bounds.maxX - bounds.minX, 1) : cols * LINK_DISTANCE;
  // Spread across the width of what is above, but never closer than a relation's length (nodes must not touch).
  const cell = Math.max(width / cols, LINK_DISTANCE);
  const left = (bounds ? (bounds.minX + bounds.maxX) / 2 : 0) - ((cols - 1) * cell) / 2;
  // Graph y grows upwards in sigma, so "below" is smaller y; leave a gap of two cells under the rest.
  const top = bounds ? bounds.minY - cell * 2 : 0;
  const out: Point[] = [];
  for (let i = 0; i < count; i++) out.push({ x: left + (i % cols) * cell, y: top - Math.floor(i / cols) * cell });
  return out;
}
