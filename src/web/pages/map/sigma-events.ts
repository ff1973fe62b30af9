// What a person does to the map once sigma draws it: drag a node, draw a line from one node to another to connect them,
// pan, hover a node or a relation, click; and which of sigma's WebGL layers are in the page (only those with something
// to show).
import type Sigma from "sigma";
import { mounted, type MapState } from "./state";
import type { EdgeAttrs, MapViewEvents, NodeAttrs } from "./types";

export interface SigmaEvents {
  /** Follows sigma's events from now on (once, right after it is made). */
  wire(renderer: Sigma<NodeAttrs, EdgeAttrs>): void;
  /**
   * Without a GPU every frame costs a read-back of each visible WebGL layer (software compositing): sigma clears and
   * redraws all three on every render, so the ones with nothing to show are taken out of the page (display: none):
   * every layer until the graph is in, the edges' layer on a map without relations, the hover layer while no idea is
   * hovered, selected or focused.
   */
  showLayers(): void;
  kill(): void;
}

export interface SigmaEventOptions {
  canConnect: boolean;
  events: Pick<MapViewEvents, "connect" | "save" | "select" | "hoverEdge">;
  /** Ends a running layout where its nodes are now (a person took hold of one). */
  settleNow(): void;
  /** After each of sigma's renders (the labels' layer follows it). */
  afterRender(): void;
}

/** Made with the view (the connecting line's element goes in now, under sigma's layers to come). */
export function createSigmaEvents(s: MapState, o: SigmaEventOptions): SigmaEvents {
  const { container, graph } = s;
  // Dragging moves a node; with connect mode on (or Shift held) it draws a line to another node instead.
  const line = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  line.setAttribute("class", "map-connect-line");
  line.setAttribute("aria-hidden", "true");
  const stroke = document.createElementNS("http://www.w3.org/2000/svg", "line");
  line.appendChild(stroke);
  container.appendChild(line);
  let endPan: (() => void) | null = null;
  let sigmaLayers: (() => void) | null = null;
  const showLayers = () => sigmaLayers?.();

  /** sigma's events: drag, connect, pan, hover, click; and its layers shown only when they have something to show. */
  function wire(renderer: Sigma<NodeAttrs, EdgeAttrs>) {
    sigmaLayers = () => {
      const layer = (id: string) => container.querySelector<HTMLElement>(`canvas.sigma-${id}`);
      const nodes = layer("nodes"), edges = layer("edges"), hover = layer("hoverNodes");
      if (nodes) nodes.style.display = mounted(s) ? "" : "none";
      if (edges) edges.style.display = mounted(s) && graph.size > 0 ? "" : "none";
      if (hover) hover.style.display = s.overNode || s.selected !== null || s.focused !== null || s.connectingFrom !== null ? "" : "none";
    };
    renderer.on("afterRender", () => { if (mounted(s)) o.afterRender(); });
    renderer.on("downNode", ({ node, event }) => {
      s.moved = false;
      const shift = (event.original as MouseEvent).shiftKey;
      if (o.canConnect && (s.connectMode || shift)) {
        s.connectingFrom = node;
        showLayers();
        const p = renderer.graphToViewport(graph.getNodeAttributes(node));
        for (const [k, v] of [["x1", p.x], ["y1", p.y], ["x2", p.x], ["y2", p.y]] as const) stroke.setAttribute(k, String(v));
        line.classList.add("on");
        renderer.refresh();
      } else {
        s.dragging = node;
        // A person placed this node: the layout must not pull it back, so it ends here, where things are now.
        if (!s.settled) o.settleNow();
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
      s.moved = false;
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
        s.moved = true;
        const t = `translate(${pan.dx}px, ${pan.dy}px)`;
        for (const el of layers()) el.style.transform = t;
        event.preventSigmaDefault();
        return;
      }
      if (!s.dragging && !s.connectingFrom) return;
      s.moved = true;
      if (s.dragging) graph.mergeNodeAttributes(s.dragging, renderer.viewportToGraph(event));
      else {
        stroke.setAttribute("x2", String(event.x));
        stroke.setAttribute("y2", String(event.y));
      }
      event.preventSigmaDefault();
      event.original.preventDefault();
      event.original.stopPropagation();
    });
    const release = (target: string | null) => {
      if (s.connectingFrom && target && target !== s.connectingFrom) o.events.connect(Number(s.connectingFrom), Number(target));
      if (s.dragging && s.moved && s.settled) {
        const a = graph.getNodeAttributes(s.dragging);
        o.events.save([{ id: Number(s.dragging), x: a.x, y: a.y }]);
      }
      s.connectingFrom = null;
      showLayers();
      s.dragging = null;
      line.classList.remove("on");
      renderer.refresh();
    };
    renderer.on("upNode", ({ node }) => release(node));
    renderer.on("upStage", () => release(null));
    renderer.on("upEdge", () => release(null));
    renderer.on("clickNode", ({ node }) => {
      if (!s.moved) o.events.select(Number(node));
    });
    renderer.on("enterEdge", ({ edge, event }) => o.events.hoverEdge(graph.getEdgeAttribute(edge, "edge"), event.x, event.y));
    renderer.on("leaveEdge", ({ event }) => o.events.hoverEdge(null, event.x, event.y));
    renderer.on("enterNode", () => { container.classList.add("over-node"); s.overNode = true; showLayers(); });
    renderer.on("leaveNode", () => { container.classList.remove("over-node"); s.overNode = false; showLayers(); });
  }

  return {
    wire,
    showLayers,
    kill() {
      if (endPan) window.removeEventListener("mouseup", endPan);
      line.remove();
    },
  };
}
