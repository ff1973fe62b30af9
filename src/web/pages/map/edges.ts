// Which of a big map's relations are drawn: at the default zoom at most EDGE_BUDGET of them, more as the camera zooms
// in (the budget grows with the zoomed-in area), the most telling first: one per idea, to its best-connected neighbour
// (so no connected idea looks alone), then those the person made, then those between the best-connected ideas. Once
// sigma draws the map, the others are not even in its graph (kept aside here, put back as the camera zooms in): sigma
// processes every edge of its graph in the frame that takes the graph, and at 10,000 ideas that was 25,000 where 8,000
// are drawn. (Showing them a batch per frame was tried and was slower: without a GPU each presented frame of the map
// costs the page a readback of every WebGL layer, whatever it holds.)
import type Sigma from "sigma";
import type Graph from "graphology";
import type { MapEdge, MapNode } from "../../api/map";
import { runInSlices, runNow } from "./yield";

/** Relations drawn at the default zoom (camera ratio 1) on a big map. */
export const EDGE_BUDGET = 8_000;

export interface EdgeLod {
  /** Whether the renderer should draw this edge (the edge reducer asks). */
  shown(edge: string): boolean;
  /** Works out which edges matter most, in slices (while the layout runs), so the frame that draws the graph need not. */
  precompute(signal?: AbortSignal): Promise<void>;
  /** Picks the edges to draw for the camera's zoom (before the frame that draws the graph). */
  prepare(): void;
  /** Edges shown now. */
  count(): number;
  /** Follows the renderer's camera from now on (the first view has none: it is drawn at the default zoom). */
  attach(renderer: Sigma): void;
  /**
   * From now on the graph holds only the relations drawn: the others are taken out (before sigma takes the graph), in
   * slices (17,000 drops at 10,000 ideas were a 25–65 ms step), and put back as the camera zooms in. Needs the order
   * (precompute or prepare first).
   */
  holdOnlyShown(signal?: AbortSignal): Promise<void>;
  /** Every relation taken out of the graph meanwhile (the layout still counts them). */
  forEachAside(fn: (source: string, target: string) => void): void;
  kill(): void;
}

type G = Graph<{ idea: MapNode }, { edge: MapEdge }>;

export function createEdgeLod(graph: Graph, big: boolean): EdgeLod {
  let renderer: Sigma | null = null;
  const g = graph as unknown as G;
  let order: string[] | null = null;
  const rank = new Map<string, number>();
  let count = 0;
  /** Relations taken out of the graph (holdOnlyShown), by key; `held` ranked ones are in it (a prefix of the order). */
  const aside = new Map<string, { source: string; target: string; attrs: Record<string, unknown> }>();
  let holding = false;
  let held = 0;
  /**
   * Takes out order[count, held) (only before sigma holds the graph: sigma answers each dropped edge with a full
   * re-index), or adds back order[held, count) as the camera zooms in. Zooming out again leaves them in, hidden by
   * the edge reducer like any relation over the budget.
   */
  function sync(sigmaHolds: boolean) {
    if (!holding || !order) return;
    const g2 = graph as unknown as Graph<Record<string, unknown>, Record<string, unknown>>;
    for (; held < count; held++) {
      const key = order[held], e = aside.get(key);
      if (!e) continue;
      aside.delete(key);
      if (!g2.hasEdge(key) && g2.hasNode(e.source) && g2.hasNode(e.target)) g2.addDirectedEdgeWithKey(key, e.source, e.target, e.attrs);
    }
    if (sigmaHolds) return;
    runNow(takeOut());
  }
  /** Takes out order[count, held), a step per relation (run at once by sync, in slices by holdOnlyShown). */
  function* takeOut(): Generator<void, void> {
    const g2 = graph as unknown as Graph<Record<string, unknown>, Record<string, unknown>>;
    for (; held > count; held--) {
      const key = order![held - 1];
      if (g2.hasEdge(key)) {
        aside.set(key, { source: g2.source(key), target: g2.target(key), attrs: g2.getEdgeAttributes(key) });
        g2.dropEdge(key);
      }
      yield;
    }
  }

  /** The edges in drawing order, computed step by step (a step per idea or relation) so it can be run in slices. */
  function* importance(): Generator<void, string[]> {
    const deg = (n: string) => g.getNodeAttribute(n, "idea").connectionCount;
    const taken = new Set<string>();
    const out: string[] = [];
    for (const n of g.nodes().sort((a, b) => deg(b) - deg(a))) {
      let best: string | null = null, bd = -1;
      g.forEachEdge(n, (e, _a, s, t) => {
        const d = deg(s === n ? t : s);
        if (d > bd) { bd = d; best = e; }
      });
      if (best !== null && !taken.has(best)) { taken.add(best); out.push(best); }
      yield;
    }
    const rest: Array<[string, number]> = [];
    for (const e of g.edges()) {
      if (!taken.has(e)) rest.push([e, (g.getEdgeAttribute(e, "edge").created_by === "system" ? 0 : 1e6) + deg(g.source(e)) + deg(g.target(e))]);
      yield;
    }
    rest.sort((a, b) => b[1] - a[1]);
    for (const [e] of rest) out.push(e);
    return out;
  }
  const ranked = (o: string[]) => {
    rank.clear();
    o.forEach((e, i) => rank.set(e, i));
    return o;
  };
  const target = () => {
    const ratio = Math.max(renderer?.getCamera().ratio ?? 1, 0.05);
    return Math.min(order!.length, Math.round(EDGE_BUDGET / (ratio * ratio)));
  };

  // Zooming in shows more, zooming out fewer, once the camera rests: one frame, the changed edges only.
  let rest: ReturnType<typeof setTimeout> | undefined;
  const onCamera = () => {
    if (!order) return;
    clearTimeout(rest);
    rest = setTimeout(() => {
      const from = count;
      count = target();
      if (count === from || !renderer || renderer.getGraph() !== graph) return;
      // Relations put back reach sigma through the graph's own events (one render at the next frame); those already in
      // its graph whose side of the budget changed are re-reduced.
      const before = holding ? held : order!.length;
      if (holding) sync(true);
      const changed = order!.slice(Math.min(from, count), Math.min(Math.max(from, count), before));
      if (changed.length) renderer.refresh({ partialGraph: { edges: changed }, skipIndexation: true });
    }, 200);
  };

  const lod: EdgeLod = {
    // Edges made after the order was computed (a person connected two ideas) have no rank: always shown.
    shown: (edge) => !big || (rank.get(edge) ?? -1) < count,
    async precompute(signal) {
      if (!big || order) return;
      const o = await runInSlices(importance(), signal);
      order ??= ranked(o);
    },
    prepare() {
      if (!big) return;
      order ??= ranked(runNow(importance()));
      count = target();
      sync(renderer?.getGraph() === graph);
    },
    async holdOnlyShown(signal) {
      if (!big || holding || !order) return;
      holding = true;
      held = order.length;
      await runInSlices(takeOut(), signal);
    },
    forEachAside(fn) {
      for (const e of aside.values()) fn(e.source, e.target);
    },
    count: () => (big ? count : graph.size),
    attach(r) {
      renderer = r;
      if (big) r.getCamera().on("updated", onCamera);
    },
    kill() {
      clearTimeout(rest);
      if (big) renderer?.getCamera().off("updated", onCamera);
    },
  };
  return lod;
}
