// SQL for relations: ownership look-ups, the two listing directions, the cycle walk's next hops, writes.
import type { Db } from "../../db/open";

export interface RelationRow {
  id: number;
  user_id: string;
  source_idea_id: number;
  target_idea_id: number;
  relation_type: string;
  score: number | null;
  note: string | null;
  created_by: "user" | "system";
  created_at: string;
}

export interface RelationListRow {
  id: number;
  relation_type: string;
  score: number | null;
  note: string | null;
  created_by: string;
  created_at: string;
  idea_id: number;
  idea_number: number;
  idea_title: string;
  idea_status: string;
}

const LIST_COLS = `r.id, r.relation_type, r.score, r.note, r.created_by, r.created_at,
  o.id AS idea_id, o.number AS idea_number, o.title AS idea_title, o.status AS idea_status`;
// NULL scores sort last under DESC in SQLite; id keeps equal scores in creation order.
const LIST_ORDER = "ORDER BY r.relation_type, r.score DESC, r.id";

export function createRelationsRepo(db: Db) {
  const idea = db.query<{ id: number; is_archived: number }, [number, string]>(
    "SELECT id, is_archived FROM ideas WHERE id = ? AND user_id = ?",
  );
  const outgoing = db.query<RelationListRow, [number]>(
    `SELECT ${LIST_COLS} FROM relations r JOIN ideas o ON o.id = r.target_idea_id
     WHERE r.source_idea_id = ? AND o.is_archived = 0 ${LIST_ORDER}`,
  );
  const incoming = db.query<RelationListRow, [number]>(
    `SELECT ${LIST_COLS} FROM relations r JOIN ideas o ON o.id = r.source_idea_id
     WHERE r.target_idea_id = ? AND o.is_archived = 0 ${LIST_ORDER}`,
  );
  // Uses the relations_pair index (source first); archived ideas are dead ends for the walk.
  const nextHops = db.query<{ id: number }, [number, string, number]>(
    `SELECT r.target_idea_id AS id FROM relations r JOIN ideas t ON t.id = r.target_idea_id
     WHERE r.source_idea_id = ? AND r.relation_type = ? AND t.is_archived = 0 AND r.id <> ? ORDER BY r.target_idea_id`,
  );
  const userPair = db.query<{ id: number }, [number, number]>(
    "SELECT id FROM relations WHERE source_idea_id = ? AND target_idea_id = ? AND created_by = 'user'",
  );
  const byId = db.query<RelationRow, [number, string]>("SELECT * FROM relations WHERE id = ? AND user_id = ?");
  const insert = db.query<{ id: number }, [string, number, number, string, string | null, string]>(
    `INSERT INTO relations (user_id, source_idea_id, target_idea_id, relation_type, score, note, created_by, created_at)
     VALUES (?, ?, ?, ?, NULL, ?, 'user', ?) RETURNING id`,
  );
  const archivedEnd = db.query<{ n: number }, [number, number]>(
    "SELECT count(*) AS n FROM ideas WHERE id IN (?, ?) AND is_archived = 1",
  );
  return {
    findIdea: (userId: string, id: number) => idea.get(id, userId),
    listOutgoing: (ideaId: number) => outgoing.all(ideaId),
    listIncoming: (ideaId: number) => incoming.all(ideaId),
    /** Targets of `type` edges leaving `ideaId`, ignoring the relation `exceptId` (the one being retyped). */
    nextHops: (ideaId: number, type: string, exceptId = 0) => nextHops.all(ideaId, type, exceptId).map((r) => r.id),
    hasUserPair: (source: number, target: number) => userPair.get(source, target) !== null,
    findForUser: (userId: string, id: number) => byId.get(id, userId),
    touchesArchived: (r: Pick<RelationRow, "source_idea_id" | "target_idea_id">) => archivedEnd.get(r.source_idea_id, r.target_idea_id)!.n > 0,
    insertUserRelation: (userId: string, r: { source_idea_id: number; target_idea_id: number; relation_type: string; note: string | null }, now: string) =>
      insert.get(userId, r.source_idea_id, r.target_idea_id, r.relation_type, r.note, now)!.id,
    update(id: number, fields: { relation_type?: string; note?: string | null }) {
      const keys = Object.keys(fields) as Array<keyof typeof fields>;
      if (keys.length === 0) return;
      db.query(`UPDATE relations SET ${keys.map((k) => `${k} = $${k}`).join(", ")} WHERE id = $id`).run({ ...fields, id });
    },
    deleteForUser: (userId: string, id: number) => db.query("DELETE FROM relations WHERE id = ? AND user_id = ?").run(id, userId).changes > 0,
    /** Remembers that the user rejected the automatic connection between two ideas (either direction). */
    rejectPair: (userId: string, a: number, b: number, now: string) =>
      void db.query("INSERT OR IGNORE INTO rejected_pairs (user_id, pair_lo, pair_hi, created_at) VALUES (?, ?, ?, ?)")
        .run(userId, Math.min(a, b), Math.max(a, b), now),
  };
}
export type RelationsRepo = ReturnType<typeof createRelationsRepo>;
