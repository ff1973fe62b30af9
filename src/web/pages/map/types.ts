// The mind map view's public shapes (what the page hands in and gets back) and the graph's node and edge attributes.
import type { MapEdge, MapNode } from "../../api/map";
import type { RelationType, Status } from "../../api/types";
import type { LabelBox } from "./labels";
import type { Point } from "./layout";
import type { Palette } from "./palette";

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

export interface NodeAttrs { x: number; y: number; size: number; label: string; idea: MapNode; isolated: boolean }
export interface EdgeAttrs { type: "arrow" | "line"; size: number; edge: MapEdge }

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

export interface ViewOptions {
  canConnect: boolean;
  /** Remembered positions by idea id; only the other nodes are placed. */
  saved: ReadonlyMap<number, Point>;
}
