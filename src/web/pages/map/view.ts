// The mind map's view: a graphology graph laid out in a worker (layout.ts) from the account's remembered positions,
// first drawn on a plain 2D canvas (preview.ts), then by sigma (WebGL) with drag, connect, hover, camera focus, once the
// person first points at, scrolls or presses on the map, or the page is idle; collision-free labels on their own layer.
// Loaded only by the map page (dynamic import); graphology and sigma are imported separately (loadGraph, loadRenderer),
// each evaluated in a task of its own, and everything is made in slices, so no step is one long task.
import type Graph from "graphology";
import type Sigma from "sigma";
import type { Settings } from "sigma/settings";
import type { NodeDisplayData } from "sigma/types";
import type { MapData, MapEdge, MapNode } from "../../api/map";
import type { RelationType, Status } from "../../api/types";
import { initialPositions } from "./force";
import { gridBelow, startLayout, type Bounds, type LayoutRun, type Point } from "./layout";
import { createEdgeLod } from "./edges";
import { labelSettings } from "./hover";
import { createLabelLayer, type LabelBox } from "./labels";
import { createPreviewLayer, type PreviewEdge, type PreviewNode } from "./preview";
import { defaultProjection, type Projection } from "./projection";
import { Cancelled, inSlices, whenIdle, whenQuiet, yieldToMain } from "./yield";

export { prewarmLayoutWorker } from "./layout";
import { DIRECTED, type Palette, withAlpha } from "./palette";

export interface Filters { statuses: ReadonlySet<Status>; types: ReadonlySet<RelationType>; tag: string }

export interface MapViewEvents {
  /** A node was clicked (not dragged). */
  select(id: number): void;
  /** A drag from one node ended on another (connect mode or Shift held, and connecting is allowed). */
  connect(source: number, target: number): void;
  /** The pointer entered (edge) or left (null) an edge; x/y are relative to the container. */
  hoverEdge(edge: MapEdge | null, x: number, y: number): void;
  /** The force layout stopped moving nodes (after `ms` from the view's creation). */
  settled(ms: number): void;
  /** Positions to remember: every placed node after a layout, one node after a drag. */
  save(positions: Array<{ id: number; x: number; y: number }>): void;
  /** The WebGL renderer could not be made (no WebGL): the first view stays, without pan or zoom. */
  failed(e: unknown): void;
}

interface NodeAttrs { x: number; y: number; size: number; label: string; idea: MapNode; isolated: boolean }
interface EdgeAttrs { type: "arrow" | "line"; size: number; edge: MapEdge }

export interface MapView {
  setFilters(f: Filters): void;
  setPalette(p: Palette): void;
  setConnectMode(on: boolean): void;
  /** Moves the camera to the node and highlights it. */
  focus(id: number): void;
  setSelected(id: number | null): void;
  addEdge(e: MapEdge): void;
  /** The node's centre in page coordinates (CSS pixels), or null when it is not on the map. */
  positionOf(id: number): { x: number; y: number } | null;
  /** Ids of the nodes the filters leave visible. */
  visibleIds(): number[];
  /** Graph coordinates of every node, by id (what gets saved). */
  positions(): Record<number, Point>;
  /** The labels drawn by the last render, in container pixels (none overlap). */
  labelBoxes(): LabelBox[];
  /** The node under a container point, if any. */
  nodeAt(x: number, y: number): number | null;
  /** Lays the whole map out afresh, ignoring remembered positions. */
  rearrange(): void;
  /** Relations drawn now (on a big map, the budget for the zoom: edges.ts), and the camera's zoom ratio (1 = default, larger = zoomed out). */
  edgesShown(): number;
  zoomRatio(): number;
  /** Whether hovering a relation is looked for (off above EDGE_EVENTS_UP_TO relations). */
  edgeEvents(): boolean;
  /** What draws the map now: the first view's 2D canvas ("preview"), or sigma ("webgl") once it has drawn. */
  drawnBy(): "preview" | "webgl" | null;
  /** Makes the WebGL renderer now (the page calls it for anything that needs it); resolves once it has drawn. */
  wake(): Promise<void>;
  layoutMs: number | null;
  /** Nodes the last layout placed (had no remembered position). */
  placed: number;
  kill(): void;
}

// At least 5 px: sigma picks nodes on a downsized layer, and smaller nodes are hard to hit with a mouse anyway.
/** Edge hover (the tooltip) up to this many relations. */
const EDGE_EVENTS_UP_TO = 6000;
/** sigma's stagePadding: the first view frames the map the same way. */
const STAGE_PADDING = 24;
const nodeSize = (connections: number) => Math.min(5 + 2 * Math.sqrt(connections), 18);

export interface ViewOptions {
  canConnect: boolean;
  /** Remembered positions by idea id; only the other nodes are placed. */
  saved: ReadonlyMap<number, Point>;
}

interface Renderer {
  Graph: typeof Graph;
  Sigma: typeof Sigma;
  /** The WebGL programs the map draws with, by sigma's node and edge type. */
  programs: { node: Settings<NodeAttrs, EdgeAttrs>["nodeProgramClasses"]; edge: Settings<NodeAttrs, EdgeAttrs>["edgeProgramClasses"] };
}

let graphLib: Promise<typeof Graph> | null = null;
/** graphology, in a task of its own: started early by the page (prewarm) and awaited by createMapView. */
export function loadGraph(): Promise<typeof Graph> {
  graphLib ??= import("graphology").then((m) => m.default);
  graphLib.catch(() => { graphLib = null; });
  return graphLib;
}

let libs: Promise<Renderer> | null = null;
/**
 * graphology, then sigma, each evaluated in a task of its own (one chunk of both was a 55–130 ms task on the map's
 * first load). Only once the map is to become interactive (the first view needs neither sigma nor WebGL).
 */
export function loadRenderer(): Promise<Renderer> {
  libs ??= (async () => {
    const Graph = await loadGraph();
    await yieldToMain();
    const { default: Sigma } = await import("sigma");
    await yieldToMain();
    const { DEFAULT_NODE_PROGRAM_CLASSES, DEFAULT_EDGE_PROGRAM_CLASSES } = await import("sigma/settings");
    return { Graph, Sigma, programs: { node: DEFAULT_NODE_PROGRAM_CLASSES, edge: DEFAULT_EDGE_PROGRAM_CLASSES } as unknown as Renderer["programs"] };
  })();
  libs.catch(() => { libs = null; });
  return libs;
}

/**
 * When nobody touches the map, sigma is made once the page has gone QUIET_MS without a long task (the load is over:
 * the first view, its labels and the rest of the page are on screen), each step in an idle period of its own; and at
 * the latest after IDLE_TIMEOUT_MS however busy the page is.
 */
const QUIET_MS = 3_000;
const IDLE_TIMEOUT_MS = 10_000;

/**
 * Stands in for a WebGL program while sigma's renderer is made: sigma compiles every program in its constructor (each a
 * synchronous shader link, tens of ms in software WebGL), so the real ones are swapped in afterwards, one per task.
 * It draws nothing; nothing is drawn before the swap, as the renderer starts on an empty graph.
 */
class PendingProgram {
  reallocate() {}
  process() {}
  render() {}
  kill() {}
}
const pending = <T extends object>(classes: T): T =>
  Object.fromEntries(Object.keys(classes).map((k) => [k, PendingProgram])) as unknown as T;

/**
 * Makes the view, giving the main thread back between its steps (the graph is built in slices; sigma's contexts and
 * each of its programs in tasks of their own, later); rejects with Cancelled (an AbortError) once `signal` is aborted.
 * The map is drawn first on a 2D canvas; sigma is made on the first pointer, wheel or touch over the map, when the page
 * asks (wake: focus, connect mode), or when the page is idle, and replaces that canvas in the frame it first draws.
 */
export async function createMapView(container: HTMLElement, data: MapData, palette: Palette, events: MapViewEvents, opts: ViewOptions, signal?: AbortSignal): Promise<MapView> {
  const Graph = await loadGraph();
  if (signal?.aborted) throw new Cancelled();
  const started = performance.now();
  performance.mark("map:view-start");
  const graph = new Graph<NodeAttrs, EdgeAttrs>({ multi: true, type: "directed", allowSelfLoops: false });
  await inSlices(data.nodes, (n) => {
    graph.addNode(String(n.id), { x: 0, y: 0, size: nodeSize(n.connectionCount), label: n.title, idea: n, isolated: n.connectionCount === 0 });
  }, signal);
  await inSlices(data.edges, addEdgeToGraph, signal);
  await yieldToMain();
  if (signal?.aborted) throw new Cancelled();

  function addEdgeToGraph(e: MapEdge) {
    const s = String(e.source), t = String(e.target);
    if (!graph.hasNode(s) || !graph.hasNode(t) || graph.hasEdge(String(e.id))) return;
    graph.addDirectedEdgeWithKey(String(e.id), s, t, { type: DIRECTED.has(e.type) ? "arrow" : "line", size: e.created_by === "system" ? 1 : 2.5, edge: e });
  }

  /** Aborted when the view is killed: its pending steps stop. */
  const closed = new AbortController();
  // Layout: the connected nodes go to the worker, remembered ones fixed; unconnected new ones on a grid below the rest.
  let layout: LayoutRun | null = null;
  let settled = false;
  const bigMap = data.edges.length > 1000;
  /** Ends a running layout where its nodes are now (a person started dragging one). */
  let settleNow: (() => void) | null = null;
  function arrange(saved: ReadonlyMap<number, Point>) {
    layout?.stop();
    settled = false;
    const connected = graph.filterNodes((_, a) => !a.isolated);
    const index = new Map(connected.map((id, i) => [id, i]));
    // Every relation pulls, also those a big map keeps out of sigma's graph at this zoom (edges.ts).
    const pairs: number[] = [];
    graph.forEachEdge((_, __, s, t) => { pairs.push(index.get(s)!, index.get(t)!); });
    lod.forEachAside((s, t) => { pairs.push(index.get(s)!, index.get(t)!); });
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
    view.placed = fresh.length + isolatedNew.length;
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
      settled = true;
      settleNow = null;
      const done = () => {
        view.layoutMs = performance.now() - started;
        events.settled(view.layoutMs);
      };
      // The first frame with the graph in it: see drawGraph.
      drawGraph(done);
      const placed = [...fresh, ...isolatedNew];
      if (placed.length) events.save(placed.map((id) => ({ id: Number(id), x: graph.getNodeAttribute(id, "x"), y: graph.getNodeAttribute(id, "y") })));
    };
    if (fresh.length === 0) {
      // Everything connected was remembered: nothing to simulate, the map opens as it was left.
      connected.forEach((id, i) => graph.mergeNodeAttributes(id, { x: fixed[i * 2], y: fixed[i * 2 + 1] }));
      // Which edges to draw first is worked out in slices first (on a big map: 0.1–0.4 s in one go otherwise).
      lod.precompute(closed.signal).then(() => finish(null), () => {});
      return;
    }
    // Big maps draw nothing until the result is in: every frame before it would cost the page a full render (hundreds
    // of ms in software WebGL) and take a core from the worker while the person waits. A map already on screen (Arrange
    // again) stays as it was meanwhile; a first visit shows the empty stage and "arranging…".
    const animate = graph.order <= 1000;
    if (animate) {
      apply(initialPositions(input).pos);
      show();
    }
    settleNow = () => finish(null);
    // Marks on the page's timeline (the benchmark reads them): when the worker got the work, when it answered.
    performance.mark("map:layout-start");
    layout = startLayout(input, (r) => {
      if (dragging) return;
      if (r.done) performance.mark("map:layout-done", { detail: { workerMs: r.ms, ticks: r.tick } });
      if (r.done) finish(r.positions);
      else if (animate) {
        apply(r.positions);
        previewSoon();
      }
    }, animate ? 120 : 60_000);
  }

  let filters: Filters | null = null;
  let selected: string | null = null;
  let focused: string | null = null;
  let connectMode = false;
  let colours = palette;
  let dragging: string | null = null;
  let connectingFrom: string | null = null;
  let overNode = false;
  /** The graph has positions to show (from the first placement on). */
  let positioned = false;

  const hidden = (a: NodeAttrs) =>
    !!filters && (!filters.statuses.has(a.idea.status) || (filters.tag !== "" && !a.idea.tags.includes(filters.tag)));

  /** Whether these filters hide any node or relation of this map. */
  const hidesAny = (f: Filters) =>
    graph.someNode((_, a) => !f.statuses.has(a.idea.status) || (f.tag !== "" && !a.idea.tags.includes(f.tag))) ||
    graph.someEdge((_, a) => !f.types.has(a.edge.type));

  const faded = new Map<string, string>();
  const faint = (c: string) => {
    let f = faded.get(c);
    if (f === undefined) faded.set(c, (f = withAlpha(c, 0.55)));
    return f;
  };
  const highlighted = (node: string) => node === selected || node === focused || node === connectingFrom;
  /** Whether a relation is drawn (the edge budget on a big map, the type filter), and its colour and layer when it is. */
  const edgeLook = (edge: string, a: EdgeAttrs): { hidden: true; zIndex: number } | { hidden: false; colour: string; zIndex: number } => {
    const system = a.edge.created_by === "system";
    if ((bigMap && !lod.shown(edge)) || (!!filters && !filters.types.has(a.edge.type))) return { hidden: true, zIndex: system ? 0 : 1 };
    const base = colours.relation[a.edge.type] ?? colours.muted;
    return { hidden: false, colour: system ? faint(base) : base, zIndex: system ? 0 : 1 };
  };

  const lod = createEdgeLod(graph, bigMap);

  // The first view: a 2D canvas of the nodes and drawn relations where sigma will draw them (projection.ts).
  const preview = createPreviewLayer(container);
  let previewAt: Projection | null = null;
  function previewProjection(): Projection {
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    graph.forEachNode((_, a) => {
      if (a.x < minX) minX = a.x;
      if (a.x > maxX) maxX = a.x;
      if (a.y < minY) minY = a.y;
      if (a.y > maxY) maxY = a.y;
    });
    const { width, height } = preview.size();
    return defaultProjection(graph.order ? { minX, maxX, minY, maxY } : { minX: 0, maxX: 1, minY: 0, maxY: 1 }, width, height, STAGE_PADDING);
  }
  function drawPreview() {
    if (renderer || !positioned) return;
    const at = previewProjection();
    const nodes = new Map<string, PreviewNode>();
    graph.forEachNode((id, a) => {
      nodes.set(id, { x: a.x, y: a.y, size: a.size, colour: colours.status[a.idea.status] ?? colours.muted, hidden: hidden(a), top: highlighted(id) });
    });
    const edges: PreviewEdge[] = [];
    graph.forEachEdge((e, a, s, t) => {
      const look = edgeLook(e, a);
      if (!look.hidden) edges.push({ from: nodes.get(s)!, to: nodes.get(t)!, colour: look.colour, size: a.size, arrow: a.type === "arrow", under: look.zIndex === 0 });
    });
    previewAt = at;
    preview.draw(at, nodes.values(), edges, (ms) => {
      performance.mark("map:preview-drawn", { detail: { nodes: graph.order, edges: edges.length, ms } });
      // The labels in a task of their own (the next frame): laying out and drawing a few hundred is ~10 ms here.
      if (labelFrame === null && !closed.signal.aborted) {
        labelFrame = requestAnimationFrame(() => {
          labelFrame = null;
          if (renderer && mounted()) return;
          labels.draw();
          performance.mark("map:preview-labelled", { detail: { labels: labels.boxes().length } });
        });
      }
    });
  }
  let labelFrame: number | null = null;
  /** Draws the first view again at the next frame (several changes in one task cost one drawing). */
  let previewFrame: number | null = null;
  function previewSoon() {
    if (renderer || !positioned || previewFrame !== null) return;
    previewFrame = requestAnimationFrame(() => {
      previewFrame = null;
      drawPreview();
    });
  }
  /** Where nodes are on screen now: sigma's camera once it draws the graph, the first view's before. */
  const projection = (): Projection => (renderer && mounted() ? renderer : previewAt ?? previewProjection());

  /** The graph's first positions are in (a first placement to animate, or the settled map): draw them. */
  function show() {
    positioned = true;
    if (renderer) mount();
    else drawPreview();
  }

  /**
   * Draws the laid-out graph, with the edges its zoom allows (edges.ts), in one frame; then calls `done`. (Drawing a big
   * map's nodes first and its relations in a second task was tried: without a GPU the frame between them costs a
   * read-back of the nodes' layer, and the relations came 2–3.5 s later at load ~15, keys waiting up to 978 ms.)
   */
  function drawGraph(done: () => void) {
    performance.mark("map:draw-start");
    lod.prepare();
    performance.mark("map:edges-picked");
    if (renderer && mounted()) renderer.refresh();
    else show();
    performance.mark("map:drawn", { detail: { edges: lod.count(), by: renderer ? "webgl" : "preview" } });
    // The page's own update for "settled" (a render of its controls) in a task of its own, not after this one's drawing.
    if (renderer) done();
    else setTimeout(() => { if (!closed.signal.aborted) done(); }, 0);
    // When that frame is on screen (without a GPU, seconds after the call for a big map): for the benchmark.
    requestAnimationFrame(() => performance.mark("map:presented"));
    if (!renderer) soon();
  }

  // Labels by importance: most connections first, then the newest (the API lists nodes newest first).
  let importance: string[] = [];
  const rank = () => {
    importance = graph.nodes().sort((a, b) => graph.getNodeAttribute(b, "idea").connectionCount - graph.getNodeAttribute(a, "idea").connectionCount);
  };
  rank();
  const labels = createLabelLayer(
    container,
    projection,
    () => importance,
    () => [selected, focused, connectingFrom].filter((k): k is string => k !== null && graph.hasNode(k)),
    (key) => {
      if (!positioned || !graph.hasNode(key)) return null;
      const a = graph.getNodeAttributes(key);
      return { key, label: a.label, size: a.size, x: a.x, y: a.y, hidden: hidden(a) };
    },
  );
  labels.setStyle(palette.text, palette.surface, palette.font);

  // ---- sigma (WebGL), made on demand ----
  let renderer: Sigma<NodeAttrs, EdgeAttrs> | null = null;
  let making: Promise<void> | null = null;
  /** An interaction is waiting for sigma: its steps no longer wait for idle time. */
  let hurry = false;
  const mounted = () => renderer?.getGraph() === graph;

  /** Makes sigma at once (an interaction, or the page asks); resolves once it draws the graph (or could not be made). */
  function wake(): Promise<void> {
    hurry = true;
    making ??= makeRenderer();
    return making;
  }
  /** Makes sigma when the page has been idle a while, a step per idle period (unless something wakes it first). */
  let queued = false;
  function soon() {
    if (queued) return;
    queued = true;
    void whenQuiet(QUIET_MS, IDLE_TIMEOUT_MS).then(() => {
      if (!closed.signal.aborted) making ??= makeRenderer();
    });
  }

  // Until sigma is made, the first view answers the pointer: pointing at or pressing on the map makes sigma; a press
  // still held when it is ready is handed to it (so a drag or pan goes on), a click before then selects the idea under
  // it, and a wheel turn is kept and handed over (the page does not scroll under the map meanwhile).
  let press: { x: number; y: number; startX: number; startY: number; shift: boolean; handed: boolean } | null = null;
  let wheel: { deltaY: number; x: number; y: number } | null = null;
  const onOver = () => { if (!renderer) void wake(); };
  const onDown = (e: PointerEvent) => {
    if (renderer || e.button !== 0) return;
    press = { x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY, shift: e.shiftKey, handed: false };
    void wake();
  };
  const onMove = (e: PointerEvent) => {
    if (press) { press.x = e.clientX; press.y = e.clientY; }
  };
  const onUp = (e: PointerEvent) => {
    if (!press) return;
    const p = press;
    press = null;
    const r = container.getBoundingClientRect();
    const at = (x: number, y: number) => view.nodeAt(x - r.left, y - r.top);
    if (Math.hypot(e.clientX - p.startX, e.clientY - p.startY) > 4) {
      // A whole connecting drag made before sigma was ready (right after switching connect mode on, on a slow
      // machine) never reaches sigma: it connects the two ideas as sigma's drag would, instead of being lost.
      if (!p.handed && opts.canConnect && (connectMode || p.shift)) {
        const from = at(p.startX, p.startY), to = at(e.clientX, e.clientY);
        if (from !== null && to !== null && from !== to) events.connect(from, to);
      }
      return;
    }
    // A press that began before sigma existed never reaches sigma as a click: a short one selects the idea under it.
    if (p.handed && moved) return;
    const id = at(e.clientX, e.clientY);
    if (id !== null) events.select(id);
  };
  const onWheel = (e: WheelEvent) => {
    if (renderer) return;
    e.preventDefault();
    wheel = { deltaY: (wheel?.deltaY ?? 0) + e.deltaY, x: e.clientX, y: e.clientY };
    void wake();
  };
  container.addEventListener("pointerover", onOver);
  container.addEventListener("pointerdown", onDown);
  container.addEventListener("wheel", onWheel, { passive: false });
  window.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", onUp);
  // The press's move and release listeners stay until the view goes: a press handed to sigma ends after the swap.
  const stopListening = () => {
    container.removeEventListener("pointerover", onOver);
    container.removeEventListener("pointerdown", onDown);
    container.removeEventListener("wheel", onWheel);
  };

  /** Hands a held press and a kept wheel turn to sigma's mouse layer, as if they had happened there. */
  function handOver() {
    const layer = container.querySelector<HTMLElement>(".sigma-mouse");
    if (!layer) return;
    if (press) {
      // Pressed where the person pressed (the idea they took hold of), then moved to where the pointer is now.
      press.handed = true;
      layer.dispatchEvent(new MouseEvent("mousedown", { bubbles: true, cancelable: true, clientX: press.startX, clientY: press.startY, button: 0, buttons: 1, shiftKey: press.shift }));
      if (press.x !== press.startX || press.y !== press.startY) {
        document.dispatchEvent(new MouseEvent("mousemove", { bubbles: true, cancelable: true, clientX: press.x, clientY: press.y, button: 0, buttons: 1, shiftKey: press.shift }));
      }
    }
    if (wheel) {
      layer.dispatchEvent(new WheelEvent("wheel", { bubbles: true, cancelable: true, clientX: wheel.x, clientY: wheel.y, deltaY: wheel.deltaY, deltaMode: 0 }));
      wheel = null;
    }
  }

  let moved = false;
  /** sigma has drawn the graph (the first view is gone). */
  let webglDrawn = false;
  let sigmaLayers: (() => void) | null = null;
  /** Makes sigma and hands it the graph; each step in a task of its own (idle ones while nobody waits). */
  async function makeRenderer(): Promise<void> {
    const step = async () => {
      await (hurry ? yieldToMain() : whenIdle(IDLE_TIMEOUT_MS));
      if (closed.signal.aborted) throw new Cancelled();
    };
    if (closed.signal.aborted) return;
    try {
      performance.mark("map:renderer-start", { detail: { hurry } });
      const { Graph: G, Sigma, programs } = await loadRenderer();
      await step();
      const r = new Sigma<NodeAttrs, EdgeAttrs>(new G<NodeAttrs, EdgeAttrs>({ multi: true, type: "directed" }), container, {
        ...settings,
        ...labelSettings<NodeAttrs, EdgeAttrs>(colours),
        nodeProgramClasses: pending(programs.node),
        edgeProgramClasses: pending(programs.edge),
      });
      performance.mark("map:contexts");
      wire(r);
      showLayers();
      // Each swap schedules a render of the (still empty) graph; without a GPU every frame that touches a WebGL canvas
      // costs the page a read-back of all three of sigma's layers at the next commit, so those renders are called off:
      // the graph's own first render is the next.
      const unschedule = () => {
        const x = r as unknown as { renderFrame: number | null };
        if (x.renderFrame !== null) cancelAnimationFrame(x.renderFrame);
        x.renderFrame = null;
      };
      try {
        for (const type of Object.keys(programs.node)) {
          await step();
          r.setSetting("nodeProgramClasses", { ...r.getSetting("nodeProgramClasses"), [type]: programs.node[type] });
          unschedule();
        }
        for (const type of Object.keys(programs.edge)) {
          await step();
          r.setSetting("edgeProgramClasses", { ...r.getSetting("edgeProgramClasses"), [type]: programs.edge[type] });
          unschedule();
        }
        await step();
      } catch (e) {
        r.kill();
        throw e;
      }
      performance.mark("map:programs");
      renderer = r;
      lod.attach(r as unknown as Sigma);
      if (positioned) mount();
      else showLayers();
      handOver();
      performance.mark("map:renderer-ready");
    } catch (e) {
      if (e instanceof Cancelled || closed.signal.aborted) return;
      stopListening();
      events.failed(e);
    }
  }

  function mount() {
    if (!renderer) return;
    if (!mounted()) {
      // A big map hands sigma only the relations it draws at this zoom (edges.ts): it processes every edge it holds.
      lod.prepare();
      lod.holdOnlyShown();
      // The first view goes in the frame sigma first draws the graph (same task: one commit shows the swap).
      const swap = () => {
        renderer?.off("afterRender", swap);
        preview.remove();
        stopListening();
        webglDrawn = true;
        performance.mark("map:webgl-drawn");
      };
      renderer.on("afterRender", swap);
      renderer.setGraph(graph);
    }
    showLayers();
  }
  // Without a GPU every frame costs a read-back of each visible WebGL layer (software compositing): sigma clears and
  // redraws all three on every render, so the ones with nothing to show are taken out of the page (display: none):
  // every layer until the graph is in, the edges' layer on a map without relations, the hover layer while no idea is
  // hovered, selected or focused.
  function showLayers() {
    sigmaLayers?.();
  }

  const settings: Partial<Settings<NodeAttrs, EdgeAttrs>> = {
    // Hovering an edge shows what it is; above a few thousand relations the edges are a texture more than lines to point
    // at, and their picking pass (every edge drawn a second time, off screen) doubled the cost of each frame.
    enableEdgeEvents: data.edges.length <= EDGE_EVENTS_UP_TO,
    // Big maps draw edges only when the camera rests: without a GPU (software WebGL) a 5,000-edge frame costs ~170 ms,
    // nodes alone ~60 ms; with a GPU both are a few ms and the difference is not seen.
    hideEdgesOnMove: bigMap,
    renderEdgeLabels: false,
    // Node labels are drawn by labels.ts (importance order, no overlaps); sigma still draws the hovered node's box.
    renderLabels: false,
    zIndex: true,
    labelSize: 13,
    labelWeight: "500",
    minCameraRatio: 0.02,
    maxCameraRatio: 4,
    stagePadding: STAGE_PADDING,
    nodeReducer: (node, a) => {
      const out: Partial<NodeDisplayData> = { ...a, color: colours.status[a.idea.status] ?? colours.muted };
      if (hidden(a)) out.hidden = true;
      if (highlighted(node)) {
        out.highlighted = true;
        out.forceLabel = true;
        out.zIndex = 2;
      }
      return out;
    },
    edgeReducer: (edge, a) => {
      // Big maps draw at most a budget of their edges for the zoom (edges.ts): the rest are hidden, which costs the GPU
      // nothing. The reducer runs for every edge in the frame that draws the graph (25,000 at 10,000 ideas), so a
      // hidden one is answered without working out its colour, and faint colours are made once per colour.
      const look = edgeLook(edge, a);
      return look.hidden ? { ...a, hidden: true, zIndex: look.zIndex } : { ...a, hidden: false, color: look.colour, zIndex: look.zIndex };
    },
  };

  // Dragging moves a node; with connect mode on (or Shift held) it draws a line to another node instead.
  const line = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  line.setAttribute("class", "map-connect-line");
  line.setAttribute("aria-hidden", "true");
  const stroke = document.createElementNS("http://www.w3.org/2000/svg", "line");
  line.appendChild(stroke);
  container.appendChild(line);
  let endPan: (() => void) | null = null;

  /** sigma's events: drag, connect, pan, hover, click; and its layers shown only when they have something to show. */
  function wire(renderer: Sigma<NodeAttrs, EdgeAttrs>) {
    sigmaLayers = () => {
      const layer = (id: string) => container.querySelector<HTMLElement>(`canvas.sigma-${id}`);
      const nodes = layer("nodes"), edges = layer("edges"), hover = layer("hoverNodes");
      if (nodes) nodes.style.display = mounted() ? "" : "none";
      if (edges) edges.style.display = mounted() && graph.size > 0 ? "" : "none";
      if (hover) hover.style.display = overNode || selected !== null || focused !== null || connectingFrom !== null ? "" : "none";
    };
    renderer.on("afterRender", () => { if (mounted()) labels.draw(); });
    renderer.on("downNode", ({ node, event }) => {
      moved = false;
      const shift = (event.original as MouseEvent).shiftKey;
      if (opts.canConnect && (connectMode || shift)) {
        connectingFrom = node;
        showLayers();
        const p = renderer.graphToViewport(graph.getNodeAttributes(node));
        for (const [k, v] of [["x1", p.x], ["y1", p.y], ["x2", p.x], ["y2", p.y]] as const) stroke.setAttribute(k, String(v));
        line.classList.add("on");
        renderer.refresh();
      } else {
        dragging = node;
        if (!settled) {
          // A person placed this node: the layout must not pull it back, so it ends here, where things are now.
          layout?.stop();
          settleNow?.();
        }
      }
      if (!renderer.getCustomBBox()) renderer.setCustomBBox(renderer.getBBox());
    });

    // Panning with the mouse moves the drawn layers with a CSS transform and renders once on release: a WebGL frame of a
    // big map costs tens of ms without a GPU, a moved layer costs the compositor nothing. (Touch keeps sigma's own pan.)
    let pan: { x: number; y: number; dx: number; dy: number } | null = null;
    const layers = () => Array.from(container.children) as HTMLElement[];
    renderer.on("downStage", ({ event }) => {
      const e = event.original;
      if (!(e instanceof MouseEvent) || e.button !== 0) return;
      moved = false;
      pan = { x: e.clientX, y: e.clientY, dx: 0, dy: 0 };
      // Sigma looks for a hovered node or edge on every move over its mouse layer (a pixel read back from the GPU, which
      // stalls software WebGL); nothing can be hovered mid-pan, so the layer is taken out of hit testing until release.
      // Its document-level move and up listeners still see the pointer.
      const mouseLayer = container.querySelector<HTMLElement>(".sigma-mouse");
      if (mouseLayer) mouseLayer.style.pointerEvents = "none";
    });
    endPan = () => {
      if (!pan) return;
      const { dx, dy } = pan;
      pan = null;
      for (const el of layers()) el.style.transform = "";
      const mouseLayer = container.querySelector<HTMLElement>(".sigma-mouse");
      if (mouseLayer) mouseLayer.style.pointerEvents = "";
      if (dx === 0 && dy === 0) return;
      const c = renderer.viewportToFramedGraph({ x: container.clientWidth / 2 - dx, y: container.clientHeight / 2 - dy });
      renderer.getCamera().setState({ x: c.x, y: c.y });
    };
    window.addEventListener("mouseup", endPan);

    renderer.on("moveBody", ({ event }) => {
      if (pan) {
        const e = event.original as MouseEvent;
        pan.dx = e.clientX - pan.x;
        pan.dy = e.clientY - pan.y;
        moved = true;
        const t = `translate(${pan.dx}px, ${pan.dy}px)`;
        for (const el of layers()) el.style.transform = t;
        event.preventSigmaDefault();
        return;
      }
      if (!dragging && !connectingFrom) return;
      moved = true;
      if (dragging) graph.mergeNodeAttributes(dragging, renderer.viewportToGraph(event));
      else {
        stroke.setAttribute("x2", String(event.x));
        stroke.setAttribute("y2", String(event.y));
      }
      event.preventSigmaDefault();
      event.original.preventDefault();
      event.original.stopPropagation();
    });
    const release = (target: string | null) => {
      if (connectingFrom && target && target !== connectingFrom) events.connect(Number(connectingFrom), Number(target));
      if (dragging && moved && settled) {
        const a = graph.getNodeAttributes(dragging);
        events.save([{ id: Number(dragging), x: a.x, y: a.y }]);
      }
      connectingFrom = null;
      showLayers();
      dragging = null;
      line.classList.remove("on");
      renderer.refresh();
    };
    renderer.on("upNode", ({ node }) => release(node));
    renderer.on("upStage", () => release(null));
    renderer.on("upEdge", () => release(null));
    renderer.on("clickNode", ({ node }) => {
      if (!moved) events.select(Number(node));
    });
    renderer.on("enterEdge", ({ edge, event }) => events.hoverEdge(graph.getEdgeAttribute(edge, "edge"), event.x, event.y));
    renderer.on("leaveEdge", ({ event }) => events.hoverEdge(null, event.x, event.y));
    renderer.on("enterNode", () => { container.classList.add("over-node"); overNode = true; showLayers(); });
    renderer.on("leaveNode", () => { container.classList.remove("over-node"); overNode = false; showLayers(); });
  }

  /** Redraws whatever draws the map now. */
  const redraw = () => {
    if (renderer) renderer.refresh();
    else previewSoon();
  };

  const view: MapView = {
    layoutMs: null,
    placed: 0,
    setFilters(f) {
      if (f === filters) return;
      const first = filters === null;
      filters = f;
      // The page hands its filters over once the view is made: with every status, type and tag on, nothing changes.
      if (first && !hidesAny(f)) return;
      redraw();
    },
    setPalette(p) {
      colours = p;
      labels.setStyle(p.text, p.surface, p.font);
      if (renderer) renderer.setSettings(labelSettings<NodeAttrs, EdgeAttrs>(p));
      else previewSoon();
    },
    setConnectMode(on) {
      connectMode = on;
      container.classList.toggle("connecting", on);
      // The next thing the person does is drag on the map: sigma must be there for it.
      if (on) void wake();
    },
    focus(id) {
      const key = String(id);
      if (!graph.hasNode(key)) return;
      focused = key;
      previewSoon();
      void wake().then(() => {
        if (!renderer || focused !== key || !graph.hasNode(key)) return;
        showLayers();
        renderer.refresh();
        const d = renderer.getNodeDisplayData(key);
        if (d) void renderer.getCamera().animate({ x: d.x, y: d.y, ratio: Math.min(renderer.getCamera().ratio, 0.35) }, { duration: 450 });
      });
    },
    setSelected(id) {
      const key = id === null ? null : String(id);
      if (key === selected) return;
      selected = key;
      showLayers();
      redraw();
    },
    addEdge(e) {
      addEdgeToGraph(e);
      showLayers();
      for (const id of [String(e.source), String(e.target)]) {
        if (!graph.hasNode(id)) continue;
        graph.updateNodeAttributes(id, (a) => ({ ...a, idea: { ...a.idea, connectionCount: a.idea.connectionCount + 1 }, size: nodeSize(a.idea.connectionCount + 1) }));
      }
      rank();
      previewSoon();
    },
    positionOf(id) {
      const key = String(id);
      if (!positioned || !graph.hasNode(key)) return null;
      const p = projection().graphToViewport(graph.getNodeAttributes(key));
      const r = container.getBoundingClientRect();
      return { x: r.left + p.x, y: r.top + p.y };
    },
    visibleIds() {
      return graph.filterNodes((_, a) => !hidden(a)).map(Number);
    },
    positions() {
      const out: Record<number, Point> = {};
      graph.forEachNode((id, a) => { out[Number(id)] = { x: a.x, y: a.y }; });
      return out;
    },
    labelBoxes() {
      // Labels waiting for the next frame are laid out now, so the answer is what that frame will show.
      if (labelFrame !== null && !(renderer && mounted())) {
        cancelAnimationFrame(labelFrame);
        labelFrame = null;
        labels.draw();
      }
      return labels.boxes();
    },
    nodeAt(x, y) {
      let best: number | null = null;
      if (!positioned) return null;
      const at = projection();
      graph.forEachNode((id, a) => {
        if (hidden(a)) return;
        const p = at.graphToViewport(a);
        if (Math.hypot(p.x - x, p.y - y) <= at.scaleSize(a.size) + 2) best = Number(id);
      });
      return best;
    },
    edgesShown: () => lod.count(),
    zoomRatio: () => renderer?.getCamera().ratio ?? 1,
    edgeEvents: () => settings.enableEdgeEvents === true,
    drawnBy: () => (webglDrawn ? "webgl" : preview.drawn ? "preview" : null),
    wake,
    rearrange() {
      view.layoutMs = null;
      renderer?.setCustomBBox(null);
      arrange(new Map());
    },
    kill() {
      closed.abort();
      if (previewFrame !== null) cancelAnimationFrame(previewFrame);
      if (labelFrame !== null) cancelAnimationFrame(labelFrame);
      layout?.stop();
      lod.kill();
      stopListening();
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      if (endPan) window.removeEventListener("mouseup", endPan);
      labels.kill();
      preview.remove();
      renderer?.kill();
      line.remove();
    },
  };

  arrange(opts.saved);
  // While the worker lays out, which edges to draw first is worked out in slices (the settled frame need not).
  if (settleNow) lod.precompute(closed.signal).catch(() => {});
  performance.mark("map:view-ready");
  return view;
}
