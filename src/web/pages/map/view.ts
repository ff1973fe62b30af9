// The mind map's renderer: a graphology graph drawn by sigma (WebGL), laid out by ForceAtlas2, with drag, connect,
// hover and camera focus. Loaded only by the map page (dynamic import), so sigma stays out of the first-page bundle.
import Graph from "graphology";
import Sigma from "sigma";
import type { Settings } from "sigma/settings";
import type { NodeDisplayData, PartialButFor } from "sigma/types";
import type { MapData, MapEdge, MapNode } from "../../api/map";
import type { RelationType, Status } from "../../api/types";
import { ForceLayout, gridBelow, type Bounds } from "./layout";
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
  layoutMs: number | null;
  kill(): void;
}

// At least 5 px: sigma picks nodes on a downsized layer, and smaller nodes are hard to hit with a mouse anyway.
const nodeSize = (connections: number) => Math.min(5 + 2 * Math.sqrt(connections), 18);

export function createMapView(container: HTMLElement, data: MapData, palette: Palette, events: MapViewEvents, opts: { canConnect: boolean }): MapView {
  const started = performance.now();
  const graph = new Graph<NodeAttrs, EdgeAttrs>({ multi: true, type: "directed", allowSelfLoops: false });
  for (const n of data.nodes) {
    graph.addNode(String(n.id), { x: 0, y: 0, size: nodeSize(n.connectionCount), label: n.title, idea: n, isolated: n.connectionCount === 0 });
  }
  for (const e of data.edges) addEdgeToGraph(e);

  function addEdgeToGraph(e: MapEdge) {
    const s = String(e.source), t = String(e.target);
    if (!graph.hasNode(s) || !graph.hasNode(t) || graph.hasEdge(String(e.id))) return;
    graph.addDirectedEdgeWithKey(String(e.id), s, t, { type: DIRECTED.has(e.type) ? "arrow" : "line", size: e.created_by === "system" ? 1 : 2.5, edge: e });
  }

  // Layout: ForceAtlas2 over the connected nodes; the rest on a grid under them.
  const connected = graph.filterNodes((_, a) => !a.isolated);
  const isolated = graph.filterNodes((_, a) => a.isolated);
  const index = new Map(connected.map((id, i) => [id, i]));
  const layout = new ForceLayout(connected, graph.mapEdges((_, __, s, t) => [index.get(s)!, index.get(t)!] as [number, number]));
  function applyLayout() {
    let b: Bounds | null = null;
    graph.updateEachNodeAttributes((node, a) => {
      const i = index.get(node);
      if (i === undefined) return a;
      const p = layout.position(i);
      b = b ? { minX: Math.min(b.minX, p.x), maxX: Math.max(b.maxX, p.x), minY: Math.min(b.minY, p.y), maxY: Math.max(b.maxY, p.y) } : { minX: p.x, maxX: p.x, minY: p.y, maxY: p.y };
      return { ...a, x: p.x, y: p.y };
    }, { attributes: ["x", "y"] });
    placeIsolated(b);
  }
  function placeIsolated(b: Bounds | null) {
    const grid = gridBelow(isolated.length, b);
    isolated.forEach((id, i) => graph.mergeNodeAttributes(id, grid[i]));
  }
  applyLayout();

  let filters: Filters | null = null;
  let selected: string | null = null;
  let focused: string | null = null;
  let connectMode = false;
  let colours = palette;
  let dragging: string | null = null;
  let connectingFrom: string | null = null;
  let moved = false;

  const hidden = (a: NodeAttrs) =>
    !!filters && (!filters.statuses.has(a.idea.status) || (filters.tag !== "" && !a.idea.tags.includes(filters.tag)));

  const settings: Partial<Settings<NodeAttrs, EdgeAttrs>> = {
    enableEdgeEvents: true,
    // Big maps draw edges only when the camera rests: without a GPU (software WebGL) a 5,000-edge frame costs ~170 ms,
    // nodes alone ~60 ms; with a GPU both are a few ms and the difference is not seen.
    hideEdgesOnMove: data.edges.length > 1000,
    renderEdgeLabels: false,
    zIndex: true,
    labelSize: 13,
    labelWeight: "500",
    labelDensity: 0.6,
    // Small maps label every node; big ones label the larger nodes, and labelDensity keeps labels from piling up.
    labelRenderedSizeThreshold: data.nodes.length > 200 ? 8 : 0,
    minCameraRatio: 0.02,
    maxCameraRatio: 4,
    stagePadding: 24,
    nodeReducer: (node, a) => {
      const out: Partial<NodeDisplayData> = { ...a, color: colours.status[a.idea.status] ?? colours.muted };
      if (hidden(a)) out.hidden = true;
      if (node === selected || node === focused || node === connectingFrom) {
        out.highlighted = true;
        out.forceLabel = true;
        out.zIndex = 2;
      }
      return out;
    },
    edgeReducer: (_edge, a) => {
      const base = colours.relation[a.edge.type] ?? colours.muted;
      const off = !!filters && !filters.types.has(a.edge.type);
      return { ...a, hidden: off, color: a.edge.created_by === "system" ? withAlpha(base, 0.55) : base, zIndex: a.edge.created_by === "system" ? 0 : 1 };
    },
  };
  const renderer = new Sigma<NodeAttrs, EdgeAttrs>(graph, container, { ...settings, ...labelSettings(palette) });

  function labelSettings(p: Palette): Partial<Settings<NodeAttrs, EdgeAttrs>> {
    return {
      labelColor: { color: p.text },
      labelFont: p.font,
      // The built-in hover box is white in every theme; this one uses the page's surface and text colours.
      defaultDrawNodeHover: (ctx: CanvasRenderingContext2D, d: PartialButFor<NodeDisplayData, "x" | "y" | "size" | "label" | "color">, s: Settings<NodeAttrs, EdgeAttrs>) => {
        const size = s.labelSize;
        ctx.font = `${s.labelWeight} ${size}px ${s.labelFont}`;
        ctx.beginPath();
        ctx.arc(d.x, d.y, d.size + 3, 0, Math.PI * 2);
        ctx.fillStyle = p.surface;
        ctx.shadowBlur = 6;
        ctx.shadowColor = "rgba(0,0,0,0.35)";
        ctx.fill();
        if (d.label) {
          const w = ctx.measureText(d.label).width;
          ctx.fillRect(d.x + d.size + 1, d.y - size / 2 - 4, w + 8, size + 8);
        }
        ctx.shadowBlur = 0;
        ctx.beginPath();
        ctx.arc(d.x, d.y, d.size, 0, Math.PI * 2);
        ctx.fillStyle = d.color;
        ctx.fill();
        if (d.label) {
          ctx.fillStyle = p.text;
          ctx.fillText(d.label, d.x + d.size + 5, d.y + size / 3);
        }
      },
    };
  }

  // Dragging moves a node; with connect mode on (or Shift held) it draws a line to another node instead.
  const line = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  line.setAttribute("class", "map-connect-line");
  line.setAttribute("aria-hidden", "true");
  const stroke = document.createElementNS("http://www.w3.org/2000/svg", "line");
  line.appendChild(stroke);
  container.appendChild(line);

  renderer.on("downNode", ({ node, event }) => {
    moved = false;
    const shift = (event.original as MouseEvent).shiftKey;
    if (opts.canConnect && (connectMode || shift)) {
      connectingFrom = node;
      const p = renderer.graphToViewport(graph.getNodeAttributes(node));
      for (const [k, v] of [["x1", p.x], ["y1", p.y], ["x2", p.x], ["y2", p.y]] as const) stroke.setAttribute(k, String(v));
      line.classList.add("on");
      renderer.refresh();
    } else {
      dragging = node;
      if (!layout.settled) {
        // A person placed this node: the layout must not pull it back, so it ends here.
        layout.stop();
        layout.settled = true;
        view.layoutMs = performance.now() - started;
        events.settled(view.layoutMs);
      }
    }
    if (!renderer.getCustomBBox()) renderer.setCustomBBox(renderer.getBBox());
  });
  renderer.on("moveBody", ({ event }) => {
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
    connectingFrom = null;
    dragging = null;
    line.classList.remove("on");
    renderer.refresh();
  };
  renderer.on("upNode", ({ node }) => release(node));
  renderer.on("upStage", () => release(null));
  renderer.on("clickNode", ({ node }) => {
    if (!moved) events.select(Number(node));
  });
  renderer.on("enterEdge", ({ edge, event }) => events.hoverEdge(graph.getEdgeAttribute(edge, "edge"), event.x, event.y));
  renderer.on("leaveEdge", ({ event }) => events.hoverEdge(null, event.x, event.y));
  renderer.on("enterNode", () => container.classList.add("over-node"));
  renderer.on("leaveNode", () => container.classList.remove("over-node"));

  const view: MapView = {
    layoutMs: layout.settled ? performance.now() - started : null,
    setFilters(f) {
      filters = f;
      renderer.refresh();
    },
    setPalette(p) {
      colours = p;
      renderer.setSettings(labelSettings(p));
    },
    setConnectMode(on) {
      connectMode = on;
      container.classList.toggle("connecting", on);
    },
    focus(id) {
      const key = String(id);
      if (!graph.hasNode(key)) return;
      focused = key;
      renderer.refresh();
      const d = renderer.getNodeDisplayData(key);
      if (d) void renderer.getCamera().animate({ x: d.x, y: d.y, ratio: Math.min(renderer.getCamera().ratio, 0.35) }, { duration: 450 });
    },
    setSelected(id) {
      selected = id === null ? null : String(id);
      renderer.refresh();
    },
    addEdge(e) {
      addEdgeToGraph(e);
      for (const id of [String(e.source), String(e.target)]) {
        if (!graph.hasNode(id)) continue;
        graph.updateNodeAttributes(id, (a) => ({ ...a, idea: { ...a.idea, connectionCount: a.idea.connectionCount + 1 }, size: nodeSize(a.idea.connectionCount + 1) }));
      }
    },
    positionOf(id) {
      const key = String(id);
      if (!graph.hasNode(key)) return null;
      const p = renderer.graphToViewport(graph.getNodeAttributes(key));
      const r = container.getBoundingClientRect();
      return { x: r.left + p.x, y: r.top + p.y };
    },
    visibleIds() {
      return graph.filterNodes((_, a) => !hidden(a)).map(Number);
    },
    kill() {
      layout.stop();
      renderer.kill();
      line.remove();
    },
  };

  if (layout.settled) queueMicrotask(() => events.settled(view.layoutMs!));
  else
    layout.run((done) => {
      if (dragging) return;
      applyLayout();
      if (done) {
        view.layoutMs = performance.now() - started;
        events.settled(view.layoutMs);
      }
    });
  return view;
}
