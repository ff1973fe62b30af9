// sigma's first intake of the map, step by step: what its setGraph does in one synchronous call (each node's and
// relation's reducer, then process(): extent, normalisation, every item written into the WebGL programs' buffers),
// written out against sigma 3.0.3's internals (the version is pinned in package.json) as generators, so the hand-over
// (handover.ts) runs them in slices. At 10,000 ideas and 8,000 drawn relations process() alone was a 36–230 ms task
// under load. Sigma's own process() and refresh() still do every later update.
import type Sigma from "sigma";
import type { Settings } from "sigma/settings";
import type { MapState } from "./state";
import type { EdgeAttrs, NodeAttrs } from "./types";

type Extent = [number, number];
interface DisplayData { x: number; y: number; type: string; zIndex: number }
interface Program { reallocate(capacity: number): void }
interface NormalizationFunction { applyTo(data: { x: number; y: number }): void }

/** The parts of sigma/utils process() uses (loaded with sigma: renderer.ts). */
export interface SigmaUtils {
  graphExtent(graph: MapState["graph"]): { x: Extent; y: Extent };
  createNormalizationFunction(extent: { x: Extent; y: Extent }): NormalizationFunction;
  zIndexOrdering<T>(extent: Extent, getter: (e: T) => number, elements: T[]): T[];
}

/** What of sigma 3.0.3's internals the hand-over uses. */
export interface SigmaInternals {
  graph: MapState["graph"];
  settings: Settings<NodeAttrs, EdgeAttrs>;
  webGLContexts: Record<string, WebGLRenderingContext | WebGL2RenderingContext>;
  needToProcess: boolean;
  nodeDataCache: Record<string, DisplayData>;
  edgeDataCache: Record<string, DisplayData>;
  nodePrograms: Record<string, Program>;
  edgePrograms: Record<string, Program>;
  nodeExtent: { x: Extent; y: Extent };
  nodeZExtent: Extent;
  edgeZExtent: Extent;
  customBBox: { x: Extent; y: Extent } | null;
  normalizationFunction: NormalizationFunction;
  labelGrid: { resizeAndClear(dimensions: { width: number; height: number }, cell: number): void; organize(): void };
  itemIDsIndex: Record<number, { type: "node" | "edge"; id: string }>;
  nodeIndices: Record<string, number>;
  edgeIndices: Record<string, number>;
  getDimensions(): { width: number; height: number };
  emit(event: string): void;
  unbindGraphHandlers(): void;
  bindGraphHandlers(): void;
  clearNodeIndices(): void;
  clearEdgeIndices(): void;
  addNode(key: string): void;
  addEdge(key: string): void;
  addNodeToProgram(node: string, fingerprint: number, position: number): void;
  addEdgeToProgram(edge: string, fingerprint: number, position: number): void;
  render(): void;
}

export const internals = (r: Sigma<NodeAttrs, EdgeAttrs>) => r as unknown as SigmaInternals;

/** Each node's and relation's reducer (sigma's refresh() without its render), a step per item. */
export function* reduceSteps(x: SigmaInternals): Generator<void, void> {
  x.clearEdgeIndices();
  x.clearNodeIndices();
  for (const n of x.graph.nodes()) {
    x.addNode(n);
    yield;
  }
  for (const e of x.graph.edges()) {
    x.addEdge(e);
    yield;
  }
}

/**
 * Sigma#process() of 3.0.3, a step per item. One difference: sigma's label grid is left empty, as the map draws its
 * labels itself (labels.ts; renderLabels is off, and nothing else reads the grid).
 */
export function* processSteps(x: SigmaInternals, u: SigmaUtils): Generator<void, void> {
  x.emit("beforeProcess");
  const { graph, settings } = x;
  const dimensions = x.getDimensions();
  x.nodeExtent = u.graphExtent(graph);
  if (!settings.autoRescale) {
    const { width, height } = dimensions, { x: ex, y: ey } = x.nodeExtent;
    x.nodeExtent = {
      x: [(ex[0] + ex[1]) / 2 - width / 2, (ex[0] + ex[1]) / 2 + width / 2],
      y: [(ey[0] + ey[1]) / 2 - height / 2, (ey[0] + ey[1]) / 2 + height / 2],
    };
  }
  x.normalizationFunction = u.createNormalizationFunction(x.customBBox || x.nodeExtent);
  x.labelGrid.resizeAndClear(dimensions, settings.labelGridCellSize);
  const nodesPerProgram: Record<string, number> = {};
  const nodeIndices: Record<string, number> = {}, edgeIndices: Record<string, number> = {};
  const itemIDsIndex: SigmaInternals["itemIDsIndex"] = {};
  let id = 1;
  let nodes = graph.nodes();
  for (const node of nodes) {
    const data = x.nodeDataCache[node];
    const a = graph.getNodeAttributes(node);
    data.x = a.x;
    data.y = a.y;
    x.normalizationFunction.applyTo(data);
    nodesPerProgram[data.type] = (nodesPerProgram[data.type] || 0) + 1;
    yield;
  }
  x.labelGrid.organize();
  for (const type in x.nodePrograms) {
    x.nodePrograms[type].reallocate(nodesPerProgram[type] || 0);
    nodesPerProgram[type] = 0;
  }
  if (settings.zIndex && x.nodeZExtent[0] !== x.nodeZExtent[1]) nodes = u.zIndexOrdering(x.nodeZExtent, (n: string) => x.nodeDataCache[n].zIndex, nodes);
  for (const node of nodes) {
    nodeIndices[node] = id;
    itemIDsIndex[id] = { type: "node", id: node };
    x.addNodeToProgram(node, id, nodesPerProgram[x.nodeDataCache[node].type]++);
    id++;
    yield;
  }
  const edgesPerProgram: Record<string, number> = {};
  let edges = graph.edges();
  for (const edge of edges) {
    const type = x.edgeDataCache[edge].type;
    edgesPerProgram[type] = (edgesPerProgram[type] || 0) + 1;
  }
  if (settings.zIndex && x.edgeZExtent[0] !== x.edgeZExtent[1]) edges = u.zIndexOrdering(x.edgeZExtent, (e: string) => x.edgeDataCache[e].zIndex, edges);
  for (const type in x.edgePrograms) {
    x.edgePrograms[type].reallocate(edgesPerProgram[type] || 0);
    edgesPerProgram[type] = 0;
  }
  for (const edge of edges) {
    edgeIndices[edge] = id;
    itemIDsIndex[id] = { type: "edge", id: edge };
    x.addEdgeToProgram(edge, id, edgesPerProgram[x.edgeDataCache[edge].type]++);
    id++;
    yield;
  }
  x.itemIDsIndex = itemIDsIndex;
  x.nodeIndices = nodeIndices;
  x.edgeIndices = edgeIndices;
  x.emit("afterProcess");
}
