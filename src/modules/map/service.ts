// The mind-map graph: nodes newest first with tags and in-response connection counts, edges by descending score.
import type { Deps } from "../../deps";
import { createMapRepo } from "./repo";
import type { MapNode, MapQuery } from "./model";

export function createMapService(deps: Deps) {
  const repo = createMapRepo(deps.db);
  return {
    /** One consistent read; since/until filter ideas by created_at and edges follow their ends. */
    graph(userId: string, query: MapQuery) {
      const since = query.since ?? null;
      const until = query.until ?? null;
      return deps.db.transaction(() => {
        const tagsByIdea = new Map<number, string[]>();
        for (const r of repo.tags(userId, since, until)) {
          const list = tagsByIdea.get(r.idea_id);
          if (list) list.push(r.name);
          else tagsByIdea.set(r.idea_id, [r.name]);
        }
        const edges = repo.edges(userId, since, until);
        const degree = new Map<number, number>();
        for (const e of edges) {
          degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
          degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
        }
        const nodes: MapNode[] = repo.ideas(userId, since, until).map((i) => ({
          id: i.id,
          number: i.number,
          title: i.title,
          status: i.status,
          tags: tagsByIdea.get(i.id) ?? [],
          connectionCount: degree.get(i.id) ?? 0,
          created_at: i.created_at,
        }));
        return { nodes, edges };
      })();
    },
  };
}
