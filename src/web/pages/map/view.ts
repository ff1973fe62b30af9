// The mind map's view: a graphology graph laid out in a worker (arrange.ts) from the account's remembered positions,
// first drawn on a plain 2D canvas (preview.ts), then by sigma (WebGL: renderer.ts, sigma-events.ts) with drag, connect,
// hover, camera focus, once the person first points at, scrolls or presses on the map, or the page is idle
// (handover.ts, early-input.ts); collision-free labels on their own layer (labels.ts). Loaded only by the map page
// (dynamic import); graphology and sigma are imported separately (loadGraph, loadRenderer), each evaluated in a task of
// its own, and everything is made in slices, so no step is one long task.
import type { MapData, MapEdge } from "../../api/map";
import { createArranger } from "./arrange";
import { createEdgeLod } from "./edges";
import { createHandOver } from "./handover";
import { labelSettings } from "./hover";
import { createLabelLayer } from "./labels";
import type { Point } from "./layout";
import { DIRECTED, type Palette } from "./palette";
import { createPreviewLayer, type PreviewEdge, type PreviewNode } from "./preview";
import { defaultProjection, type Projection } from "./projection";
import { loadGraph, sigmaSettings, STAGE_PADDING } from "./renderer";
import { createSigmaEvents } from "./sigma-events";
import { createEdgeLook, hidden, hidesAny, highlighted, mounted, type MapState } from "./state";
import type { EdgeAttrs, MapView, MapViewEvents, NodeAttrs, ViewOptions } from "./types";
import { Cancelled, inSlices, yieldToMain } from "./yield";

export { prewarmLayoutWorker } from "./layout";
export { loadGraph, loadRenderer } from "./renderer";
export type { Filters, MapView, MapViewEvents, ViewOptions } from "./types";

// At least 5 px: sigma picks nodes on a downsized layer, and smaller nodes are hard to hit with a mouse anyway.
const nodeSize = (connections: number) => Math.min(5 + 2 * Math.sqrt(connections), 18);

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
    const from = String(e.source), to = String(e.target);
    if (!graph.hasNode(from) || !graph.hasNode(to) || graph.hasEdge(String(e.id))) return;
    graph.addDirectedEdgeWithKey(String(e.id), from, to, { type: DIRECTED.has(e.type) ? "arrow" : "line", size: e.created_by === "system" ? 1 : 2.5, edge: e });
  }

  /** Aborted when the view is killed: its pending steps stop. */
  const closed = new AbortController();
  const s: MapState = {
    graph, container, bigMap: data.edges.length > 1000, filters: null, selected: null, focused: null, connectMode: false,
    colours: palette, dragging: null, connectingFrom: null, overNode: false, moved: false, positioned: false, settled: false, renderer: null, onScreen: false,
  };
  const lod = createEdgeLod(graph, s.bigMap);
  const edgeLook = createEdgeLook(s, lod);
  const layout = createArranger(s, lod, {
    placing: (n) => { view.placed = n; },
    drawGraph,
    settled: () => {
      view.layoutMs = performance.now() - started;
      events.settled(view.layoutMs);
    },
    save: events.save,
    show,
    moved: () => previewSoon(),
    signal: closed.signal,
  });

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
    if (mounted(s) || !s.positioned) return;
    const drawing = looks;
    const at = previewProjection();
    const nodes = new Map<string, PreviewNode>();
    graph.forEachNode((id, a) => {
      nodes.set(id, { x: a.x, y: a.y, size: a.size, colour: s.colours.status[a.idea.status] ?? s.colours.muted, hidden: hidden(s, a), top: highlighted(s, id) });
    });
    const edges: PreviewEdge[] = [];
    graph.forEachEdge((e, a, from, to) => {
      const look = edgeLook(e, a);
      if (!look.hidden) edges.push({ from: nodes.get(from)!, to: nodes.get(to)!, colour: look.colour, size: a.size, arrow: a.type === "arrow", under: look.zIndex === 0 });
    });
    previewAt = at;
    preview.draw(at, nodes.values(), edges, (ms) => {
      performance.mark("map:preview-drawn", { detail: { nodes: graph.order, edges: edges.length, ms } });
      // The labels in a task of their own (the next frame): laying out and drawing a few hundred is ~10 ms here.
      if (labelFrame === null && !closed.signal.aborted) {
        labelFrame = requestAnimationFrame(() => {
          labelFrame = null;
          if (mounted(s)) return;
          labels.draw();
          labelled = drawing;
          performance.mark("map:preview-labelled", { detail: { labels: labels.boxes().length } });
        });
      }
    });
  }
  let labelFrame: number | null = null;
  /** Changes to what the first view shows (counted), and the count its labels on screen were laid out for. */
  let looks = 0, labelled = -1;
  /** Draws the first view again at the next frame (several changes in one task cost one drawing). */
  let previewFrame: number | null = null;
  function previewSoon() {
    looks++;
    // While sigma is being handed the graph, what it has taken in may be out of date now: see handover.ts.
    if (s.renderer && !mounted(s)) handover.changed();
    if (mounted(s) || !s.positioned || previewFrame !== null) return;
    previewFrame = requestAnimationFrame(() => {
      previewFrame = null;
      drawPreview();
    });
  }
  /** Where nodes are on screen now: sigma's camera once it draws the graph, the first view's before. */
  const projection = (): Projection => (s.renderer && mounted(s) ? s.renderer : previewAt ?? previewProjection());

  /** The graph's first positions are in (a first placement to animate, or the settled map): draw them. */
  function show() {
    s.positioned = true;
    looks++;
    // The first view stays until sigma's first frame with the graph is on screen.
    drawPreview();
    if (s.renderer) void handover.mount();
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
    if (s.renderer && mounted(s)) s.renderer.refresh();
    else show();
    performance.mark("map:drawn", { detail: { edges: lod.count(), by: s.renderer ? "webgl" : "preview" } });
    // The page's own update for "settled" (a render of its controls) in a task of its own, not after this one's drawing.
    if (s.renderer) done();
    else setTimeout(() => { if (!closed.signal.aborted) done(); }, 0);
    // When that frame is on screen (without a GPU, seconds after the call for a big map): for the benchmark.
    requestAnimationFrame(() => performance.mark("map:presented"));
    if (!s.renderer) handover.soon();
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
    () => [s.selected, s.focused, s.connectingFrom].filter((k): k is string => k !== null && graph.hasNode(k)),
    (key) => {
      if (!s.positioned || !graph.hasNode(key)) return null;
      const a = graph.getNodeAttributes(key);
      return { key, label: a.label, size: a.size, x: a.x, y: a.y, hidden: hidden(s, a) };
    },
  );
  labels.setStyle(palette.text, palette.surface, palette.font);
  // Where the labels' pass looks for nodes follows them (a layout's positions, a dragged node).
  graph.on("nodeAttributesUpdated", ({ key }) => labels.moved(key));
  graph.on("eachNodeAttributesUpdated", () => labels.moved());

  // sigma (WebGL), made on demand: its settings, its events, and when it takes over (handover.ts).
  const settings = sigmaSettings(s, data.edges.length, edgeLook);
  const sigma = createSigmaEvents(s, {
    canConnect: opts.canConnect,
    events,
    settleNow: () => layout.settleNow(),
    afterRender: () => labels.draw(),
  });
  const handover = createHandOver(s, {
    lod, preview, settings, sigma, canConnect: opts.canConnect, events, signal: closed.signal,
    nodeAt: (x, y) => view.nodeAt(x, y),
    // The labels on screen were laid out with the first view's projection, which is sigma's at rest: they stay, unless
    // a layout of them is still waiting for its frame (laying out 250 labels was a 40–80 ms task under load).
    onScreen: () => {
      if (labelled === looks) return;
      if (labelFrame !== null) cancelAnimationFrame(labelFrame);
      labelFrame = null;
      labels.draw();
    },
  });

  /** Redraws whatever draws the map now. */
  const redraw = () => {
    if (s.renderer && mounted(s)) s.renderer.refresh();
    else previewSoon();
  };

  const view: MapView = {
    layoutMs: null,
    placed: 0,
    setFilters(f) {
      if (f === s.filters) return;
      const first = s.filters === null;
      s.filters = f;
      // The page hands its filters over once the view is made: with every status, type and tag on, nothing changes.
      if (first && !hidesAny(s, f)) return;
      redraw();
    },
    setPalette(p) {
      s.colours = p;
      labels.setStyle(p.text, p.surface, p.font);
      if (s.renderer) s.renderer.setSettings(labelSettings<NodeAttrs, EdgeAttrs>(p));
      if (!mounted(s)) previewSoon();
    },
    setConnectMode(on) {
      s.connectMode = on;
      container.classList.toggle("connecting", on);
      // The next thing the person does is drag on the map: sigma must be there for it.
      if (on) void handover.wake();
    },
    focus(id) {
      const key = String(id);
      if (!graph.hasNode(key)) return;
      s.focused = key;
      previewSoon();
      void handover.wake().then(() => {
        const renderer = s.renderer;
        if (!renderer || s.focused !== key || !graph.hasNode(key)) return;
        sigma.showLayers();
        renderer.refresh();
        const d = renderer.getNodeDisplayData(key);
        if (d) void renderer.getCamera().animate({ x: d.x, y: d.y, ratio: Math.min(renderer.getCamera().ratio, 0.35) }, { duration: 450 });
      });
    },
    setSelected(id) {
      const key = id === null ? null : String(id);
      if (key === s.selected) return;
      s.selected = key;
      sigma.showLayers();
      redraw();
    },
    addEdge(e) {
      addEdgeToGraph(e);
      sigma.showLayers();
      for (const id of [String(e.source), String(e.target)]) {
        if (!graph.hasNode(id)) continue;
        graph.updateNodeAttributes(id, (a) => ({ ...a, idea: { ...a.idea, connectionCount: a.idea.connectionCount + 1 }, size: nodeSize(a.idea.connectionCount + 1) }));
      }
      rank();
      previewSoon();
    },
    positionOf(id) {
      const key = String(id);
      if (!s.positioned || !graph.hasNode(key)) return null;
      const p = projection().graphToViewport(graph.getNodeAttributes(key));
      const r = container.getBoundingClientRect();
      return { x: r.left + p.x, y: r.top + p.y };
    },
    visibleIds() {
      return graph.filterNodes((_, a) => !hidden(s, a)).map(Number);
    },
    positions() {
      const out: Record<number, Point> = {};
      graph.forEachNode((id, a) => { out[Number(id)] = { x: a.x, y: a.y }; });
      return out;
    },
    labelBoxes() {
      // Labels waiting for the next frame are laid out now, so the answer is what that frame will show.
      if (labelFrame !== null && !(s.renderer && mounted(s))) {
        cancelAnimationFrame(labelFrame);
        labelFrame = null;
        labels.draw();
      }
      return labels.boxes();
    },
    nodeAt(x, y) {
      let best: number | null = null;
      if (!s.positioned) return null;
      const at = projection();
      graph.forEachNode((id, a) => {
        if (hidden(s, a)) return;
        const p = at.graphToViewport(a);
        if (Math.hypot(p.x - x, p.y - y) <= at.scaleSize(a.size) + 2) best = Number(id);
      });
      return best;
    },
    edgesShown: () => lod.count(),
    zoomRatio: () => s.renderer?.getCamera().ratio ?? 1,
    edgeEvents: () => settings.enableEdgeEvents === true,
    drawnBy: () => (handover.drawn() ? "webgl" : preview.drawn ? "preview" : null),
    wake: () => handover.wake(),
    rearrange() {
      view.layoutMs = null;
      s.renderer?.setCustomBBox(null);
      layout.arrange(new Map());
    },
    kill() {
      closed.abort();
      if (previewFrame !== null) cancelAnimationFrame(previewFrame);
      if (labelFrame !== null) cancelAnimationFrame(labelFrame);
      layout.stop();
      lod.kill();
      handover.kill();
      labels.kill();
      preview.remove();
      s.renderer?.kill();
      sigma.kill();
    },
  };

  layout.arrange(opts.saved);
  // While the worker lays out, which edges to draw first is worked out in slices (the settled frame need not).
  if (layout.running()) lod.precompute(closed.signal).catch(() => {});
  performance.mark("map:view-ready");
  return view;
}
