// Placing the map's nodes: the connected ones laid out by the force layout in a worker (layout.ts), remembered ones
// fixed where the person left them, unconnected new ones on a grid below the rest; then the settled map is drawn.
import type { EdgeLod } from "./edges";
import { initialPositions } from "./force";
import { gridBelow, startLayout, type Bounds, type LayoutRun, type Point } from "./layout";
import type { MapState } from "./state";

export interface ArrangeHooks {
  /** Nodes this layout places (they had no remembered position). */
  placing(n: number): void;
  /** Draws the settled graph in one frame, then calls `done`. */
  drawGraph(done: () => void): void;
  /** The layout has settled and its frame is drawn (the page hears "settled"). */
  settled(): void;
  /** Positions to remember. */
  save(positions: Array<{ id: number; x: number; y: number }>): void;
  /** The first positions of an animated layout are in: draw them. */
  show(): void;
  /** A small map's layout moved its nodes: draw them again soon. */
  moved(): void;
  /** Aborted when the view is killed. */
  signal: AbortSignal;
}

export interface Arranger {
  arrange(saved: ReadonlyMap<number, Point>): void;
  /** Whether the last arrange left a layout running (its result not yet in). */
  running(): boolean;
  /** Ends a running layout where its nodes are now (a person started dragging one). */
  settleNow(): void;
  stop(): void;
}

export function createArranger(s: MapState, lod: EdgeLod, h: ArrangeHooks): Arranger {
  const { graph } = s;
  let layout: LayoutRun | null = null;
  let settleNow: (() => void) | null = null;

  function arrange(saved: ReadonlyMap<number, Point>) {
    layout?.stop();
    s.settled = false;
    const connected = graph.filterNodes((_, a) => !a.isolated);
    const index = new Map(connected.map((id, i) => [id, i]));
    // Every relation pulls, also those a big map keeps out of sigma's graph at this zoom (edges.ts).
    const pairs: number[] = [];
    graph.forEachEdge((_, __, from, to) => { pairs.push(index.get(from)!, index.get(to)!); });
    lod.forEachAside((from, to) => { pairs.push(index.get(from)!, index.get(to)!); });
    const links = Int32Array.from(pairs);
    const fixed = new Float64Array(connected.length * 2).fill(NaN);
    connected.forEach((id, i) => {
      const p = saved.get(Number(id));
      if (p) { fixed[i * 2] = p.x; fixed[i * 2 + 1] = p.y; }
    });
    const isolatedNew: string[] = [];
    graph.forEachNode((id, a) => {
      if (!a.isolated) return;
      const p = saved.get(Number(id));
      if (p) graph.mergeNodeAttributes(id, { x: p.x, y: p.y });
      else isolatedNew.push(id);
    });
    const fresh = connected.filter((id) => !saved.has(Number(id)));
    const input = { n: connected.length, links, fixed, seed: graph.order * 7919 + graph.size };
    h.placing(fresh.length + isolatedNew.length);
    const apply = (positions: Float64Array) => {
      graph.updateEachNodeAttributes((node, a) => {
        const i = index.get(node);
        return i === undefined ? a : { ...a, x: positions[i * 2], y: positions[i * 2 + 1] };
      }, { attributes: ["x", "y"] });
    };
    const finish = (positions: Float64Array | null) => {
      if (positions) apply(positions);
      let b: Bounds | null = null;
      const gridded = new Set(isolatedNew);
      graph.forEachNode((id, a) => {
        if (a.isolated && gridded.has(id)) return;
        b = b ? { minX: Math.min(b.minX, a.x), maxX: Math.max(b.maxX, a.x), minY: Math.min(b.minY, a.y), maxY: Math.max(b.maxY, a.y) } : { minX: a.x, maxX: a.x, minY: a.y, maxY: a.y };
      });
      const grid = gridBelow(isolatedNew.length, b);
      isolatedNew.forEach((id, i) => graph.mergeNodeAttributes(id, grid[i]));
      s.settled = true;
      settleNow = null;
      // The first frame with the graph in it: see drawGraph.
      h.drawGraph(h.settled);
      const placed = [...fresh, ...isolatedNew];
      if (placed.length) h.save(placed.map((id) => ({ id: Number(id), x: graph.getNodeAttribute(id, "x"), y: graph.getNodeAttribute(id, "y") })));
    };
    if (fresh.length === 0) {
      // Everything connected was remembered: nothing to simulate, the map opens as it was left.
      connected.forEach((id, i) => graph.mergeNodeAttributes(id, { x: fixed[i * 2], y: fixed[i * 2 + 1] }));
      // Which edges to draw first is worked out in slices first (on a big map: 0.1–0.4 s in one go otherwise).
      lod.precompute(h.signal).then(() => finish(null), () => {});
      return;
    }
    // Big maps draw nothing until the result is in: every frame before it would cost the page a full render (hundreds
    // of ms in software WebGL) and take a core from the worker while the person waits. A map already on screen (Arrange
    // again) stays as it was meanwhile; a first visit shows the empty stage and "arranging…".
    const animate = graph.order <= 1000;
    if (animate) {
      apply(initialPositions(input).pos);
      h.show();
    }
    settleNow = () => finish(null);
    // Marks on the page's timeline (the benchmark reads them): when the worker got the work, when it answered.
    performance.mark("map:layout-start");
    layout = startLayout(input, (r) => {
      if (s.dragging) return;
      if (r.done) performance.mark("map:layout-done", { detail: { workerMs: r.ms, ticks: r.tick } });
      if (r.done) finish(r.positions);
      else if (animate) {
        apply(r.positions);
        h.moved();
      }
    }, animate ? 120 : 60_000);
  }

  return {
    arrange,
    running: () => settleNow !== null,
    settleNow() {
      layout?.stop();
      settleNow?.();
    },
    stop: () => layout?.stop(),
  };
}
