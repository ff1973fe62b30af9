// The mind-map graph: nodes newest first with tags and in-response connection counts, edges by descending score.
import type { Deps } from "../../deps";
import { createMapRepo } from "./repo";
import type { MapNode, MapQuery } from "./model";

export function createMapService(deps: Deps) {
  const repo = createMapRepo(deps.store);
  return {
    /** One consistent read; since/until filter ideas by created_at and edges follow their ends. */
    async graph(userId: string, query: MapQuery) {
      const since = query.since ?? null;
      const until = query.until ?? null;
      // The three reads in one transaction (one snapshot); the graph is built after it, so others do not wait on that.
      const [tagRows, edges, ideas] = await deps.store.tx(async () =>
        [await repo.tags(userId, since, until), await repo.edges(userId, since, until), await repo.ideas(userId, since, until)] as const,
      );
      const tagsByIdea = new Map<number, string[]>();
      for (const r of tagRows) {
        const list = tagsByIdea.get(r.idea_id);
        if (list) list.push(r.name);
        else tagsByIdea.set(r.idea_id, [r.name]);
      }
      const degree = new Map<number, number>();
      for (const e of edges) {
        degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
        degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
      }
      const nodes: MapNode[] = ideas.map((i) => ({
        id: i.id,
        number: i.number,
        title: i.title,
        status: i.status,
        tags: tagsByIdea.get(i.id) ?? [],
        connectionCount: degree.get(i.id) ?? 0,
        created_at: i.created_at,
      }));
      return { nodes, edges };
    },
  };
}
