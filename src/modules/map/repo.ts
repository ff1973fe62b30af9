// SQL for the mind map: unarchived ideas in a created_at window, their tags, and the relations among them.
import type { Store } from "../../db/store";
import type { IdeaStatus } from "../../contract";
import type { MapEdge } from "./model";

export interface MapIdeaRow {
  id: number;
  number: number;
  title: string;
  status: IdeaStatus;
  created_at: string;
}

// NULL bounds mean "open"; comparisons are plain TEXT comparisons, exactly as the spec describes.
const IN_WINDOW = (alias: string) =>
  `${alias}.is_archived = 0 AND (?2 IS NULL OR ${alias}.created_at >= ?2) AND (?3 IS NULL OR ${alias}.created_at <= ?3)`;

export function createMapRepo(store: Store) {
  const ideas = store.query<MapIdeaRow, [string, string | null, string | null]>(
    `SELECT i.id, i.number, i.title, i.status, i.created_at FROM ideas i
     WHERE i.user_id = ?1 AND ${IN_WINDOW("i")} ORDER BY i.created_at DESC, i.id DESC`,
  );
  const tags = store.query<{ idea_id: number; name: string }, [string, string | null, string | null]>(
    `SELECT it.idea_id, t.name FROM idea_tags it JOIN tags t ON t.id = it.tag_id JOIN ideas i ON i.id = it.idea_id
     WHERE i.user_id = ?1 AND ${IN_WINDOW("i")} ORDER BY t.name`,
  );
  // Edges by descending score, unscored last, then newest first so the order is total and stable.
  const edges = store.query<MapEdge, [string, string | null, string | null]>(
    `SELECT r.id, r.source_idea_id AS source, r.target_idea_id AS target, r.relation_type AS type,
            r.score, r.note, r.created_by, r.created_at
     FROM live_relations r JOIN ideas s ON s.id = r.source_idea_id JOIN ideas t ON t.id = r.target_idea_id
     WHERE r.user_id = ?1 AND ${IN_WINDOW("s")} AND ${IN_WINDOW("t")}
     ORDER BY r.score IS NULL, r.score DESC, r.created_at DESC, r.id DESC`,
  );
  return {
    ideas: (userId: string, since: string | null, until: string | null) => ideas.all(userId, since, until),
    tags: (userId: string, since: string | null, until: string | null) => tags.all(userId, since, until),
    edges: (userId: string, since: string | null, until: string | null) => edges.all(userId, since, until),
  };
}
