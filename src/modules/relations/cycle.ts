// The cycle rule: a breadth-first walk from the new edge's target over same-type edges, looking for its source.
export const MAX_CYCLE_HOPS = 50;

/** Relation types whose cycles are refused: always (blocks, parent) or unless forced (supersedes). */
export const ALWAYS_REFUSED = new Set(["blocks", "parent"]);
export const FORCEABLE = new Set(["supersedes"]);

/**
 * For a proposed edge source → target, returns the closing chain `[source, target, …, source]` when the existing
 * edges lead from target back to source within `maxHops` edges, else null. One hop is one existing edge, so a
 * path of exactly `maxHops` edges is found and one of `maxHops + 1` is not. BFS yields a shortest chain.
 */
export async function findCyclePath(
  nextHops: (id: number) => Promise<number[]>,
  source: number,
  target: number,
  maxHops = MAX_CYCLE_HOPS,
): Promise<number[] | null> {
  const cameFrom = new Map<number, number | null>([[target, null]]);
  let frontier = [target];
  for (let depth = 1; depth <= maxHops && frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const node of frontier) {
      for (const hop of await nextHops(node)) {
        if (cameFrom.has(hop)) continue;
        cameFrom.set(hop, node);
        if (hop === source) return [source, ...pathTo(cameFrom, source)];
        next.push(hop);
      }
    }
    frontier = next;
  }
  return null;
}

function pathTo(cameFrom: Map<number, number | null>, end: number): number[] {
  const path: number[] = [];
  for (let at: number | null = end; at !== null; at = cameFrom.get(at) ?? null) path.push(at);
  return path.reverse();
}

export function cycleMessage(chain: number[], forceable: boolean): string {
  const msg = `This would create a circular blocking chain: ${chain.map((id) => `#${id}`).join(" → ")}`;
  return forceable ? `${msg}. Use ?force=true to create it anyway.` : msg;
}
