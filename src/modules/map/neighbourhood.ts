// An idea's neighbourhood: the part of the map graph within a few relation steps of it (the agent's and MCP's view).
import type { MapEdge, MapNode } from "./model";

export const MAX_DEPTH = 3;

/** Breadth-first over the edges in both directions; nodes keep the map's order, the centre's own entry included. */
export function neighbourhood(graph: { nodes: MapNode[]; edges: MapEdge[] }, centre: number, depth: number) {
  const adjacent = new Map<number, number[]>();
  for (const e of graph.edges) {
    adjacent.set(e.source, [...(adjacent.get(e.source) ?? []), e.target]);
    adjacent.set(e.target, [...(adjacent.get(e.target) ?? []), e.source]);
  }
  const distance = new Map<number, number>([[centre, 0]]);
  let frontier = [centre];
  for (let step = 1; step <= depth && frontier.length; step++) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const other of adjacent.get(id) ?? []) {
        if (distance.has(other)) continue;
        distance.set(other, step);
        next.push(other);
      }
    }
    frontier = next;
  }
  return {
    centre,
    depth,
    nodes: graph.nodes.filter((n) => distance.has(n.id)).map((n) => ({ ...n, distance: distance.get(n.id)! })),
    edges: graph.edges.filter((e) => distance.has(e.source) && distance.has(e.target)),
  };
}
