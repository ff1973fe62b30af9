// What the map view's parts share: the graph, what the person selected, focused, filtered and is dragging, and sigma
// once it is made; and the looks every drawing agrees on (which nodes and relations are hidden, highlighted, coloured),
// so the first view (preview.ts) and sigma draw the same map.
import type Graph from "graphology";
import type Sigma from "sigma";
import type { EdgeLod } from "./edges";
import { type Palette, withAlpha } from "./palette";
import type { EdgeAttrs, Filters, NodeAttrs } from "./types";

export interface MapState {
  readonly graph: Graph<NodeAttrs, EdgeAttrs>;
  readonly container: HTMLElement;
  /** More than 1,000 relations: the edge budget (edges.ts) and edges hidden while the camera moves. */
  readonly bigMap: boolean;
  filters: Filters | null;
  selected: string | null;
  focused: string | null;
  connectMode: boolean;
  colours: Palette;
  /** The node being dragged, or the one a connecting drag started from. */
  dragging: string | null;
  connectingFrom: string | null;
  overNode: boolean;
  /** The pointer moved since the last press (a click is a press that did not move). */
  moved: boolean;
  /** The graph has positions to show (from the first placement on). */
  positioned: boolean;
  /** The layout has stopped moving nodes. */
  settled: boolean;
  /** sigma, once made (null before, and when there is no WebGL). */
  renderer: Sigma<NodeAttrs, EdgeAttrs> | null;
  /** sigma's first frame with the graph is on screen: it draws the map from then on (handover.ts). */
  onScreen: boolean;
}

/**
 * Whether sigma draws the map now. It is made on an empty graph and handed the graph once positions are in, over several
 * tasks (handover.ts); until its first frame with the graph is on screen, the first view (preview.ts) is what is seen.
 */
export const mounted = (s: MapState) => s.onScreen;

export const hidden = (s: MapState, a: NodeAttrs) =>
  !!s.filters && (!s.filters.statuses.has(a.idea.status) || (s.filters.tag !== "" && !a.idea.tags.includes(s.filters.tag)));

/** Whether these filters hide any node or relation of this map. */
export const hidesAny = (s: MapState, f: Filters) =>
  s.graph.someNode((_, a) => !f.statuses.has(a.idea.status) || (f.tag !== "" && !a.idea.tags.includes(f.tag))) ||
  s.graph.someEdge((_, a) => !f.types.has(a.edge.type));

export const highlighted = (s: MapState, node: string) => node === s.selected || node === s.focused || node === s.connectingFrom;

export type EdgeLook = { hidden: true; zIndex: number } | { hidden: false; colour: string; zIndex: number };

/** Whether a relation is drawn (the edge budget on a big map, the type filter), and its colour and layer when it is. */
export function createEdgeLook(s: MapState, lod: EdgeLod): (edge: string, a: EdgeAttrs) => EdgeLook {
  // Faint colours are made once per colour: the look is asked for every edge in the frame that draws the graph.
  const faded = new Map<string, string>();
  const faint = (c: string) => {
    let f = faded.get(c);
    if (f === undefined) faded.set(c, (f = withAlpha(c, 0.55)));
    return f;
  };
  return (edge, a) => {
    const system = a.edge.created_by === "system";
    if ((s.bigMap && !lod.shown(edge)) || (!!s.filters && !s.filters.types.has(a.edge.type))) return { hidden: true, zIndex: system ? 0 : 1 };
    const base = s.colours.relation[a.edge.type] ?? s.colours.muted;
    return { hidden: false, colour: system ? faint(base) : base, zIndex: system ? 0 : 1 };
  };
}
