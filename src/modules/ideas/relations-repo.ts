// The relation SQL the idea core needs: the flat list on GET /ideas/:id and repointing when one idea absorbs another.
import type { Db } from "../../db/open";
import type { RelationRow } from "../relations/repo";

export type IdeaRelationRow = Omit<RelationRow, "user_id"> & {
  direction: "outgoing" | "incoming";
  related_idea_id: number;
  related_idea_number: number;
  related_idea_title: string;
  related_idea_status: string;
};

export function createIdeaRelationsRepo(db: Db) {
  // Both ends must be live: archived ideas drop out of every relation query, in either direction.
  const touching = db.query<IdeaRelationRow, { id: number }>(
    `SELECT r.id, r.source_idea_id, r.target_idea_id, r.relation_type, r.score, r.note, r.created_by, r.created_at,
            CASE WHEN r.source_idea_id = $id THEN 'outgoing' ELSE 'incoming' END AS direction,
            o.id AS related_idea_id, o.number AS related_idea_number, o.title AS related_idea_title,
            o.status AS related_idea_status
     FROM relations r
     JOIN ideas me ON me.id = $id AND me.is_archived = 0
     JOIN ideas o ON o.id = CASE WHEN r.source_idea_id = $id THEN r.target_idea_id ELSE r.source_idea_id END
     WHERE (r.source_idea_id = $id OR r.target_idea_id = $id) AND o.is_archived = 0 AND o.user_id = me.user_id
     ORDER BY r.score IS NULL, r.score DESC, r.created_at DESC, r.id DESC`,
  );
  const dropBetween = db.query(
    `DELETE FROM relations WHERE (source_idea_id = ?1 AND target_idea_id = ?2) OR (source_idea_id = ?2 AND target_idea_id = ?1)`,
  );
  // A repointed row that would repeat an existing (source, target, created_by) of the survivor is dropped instead.
  const dropCollidingSources = db.query(
    `DELETE FROM relations WHERE source_idea_id = ?1 AND EXISTS (
       SELECT 1 FROM relations k WHERE k.source_idea_id = ?2 AND k.target_idea_id = relations.target_idea_id
                                   AND k.created_by = relations.created_by)`,
  );
  const dropCollidingTargets = db.query(
    `DELETE FROM relations WHERE target_idea_id = ?1 AND EXISTS (
       SELECT 1 FROM relations k WHERE k.target_idea_id = ?2 AND k.source_idea_id = relations.source_idea_id
                                   AND k.created_by = relations.created_by)`,
  );
  const moveSources = db.query("UPDATE relations SET source_idea_id = ?2 WHERE source_idea_id = ?1");
  const moveTargets = db.query("UPDATE relations SET target_idea_id = ?2 WHERE target_idea_id = ?1");
  const insert = db.query<{ id: number }, Record<string, string | number | null>>(
    `INSERT INTO relations (user_id, source_idea_id, target_idea_id, relation_type, score, note, created_by, created_at)
     VALUES ($user_id, $source_idea_id, $target_idea_id, $relation_type, $score, $note, $created_by, $created_at) RETURNING id`,
  );

  return {
    /** Every live relation touching the idea (none when the idea itself is archived), highest score first. */
    touching: (ideaId: number) => touching.all({ id: ideaId }),
    /**
     * Moves every relation of `from` onto `to`. Relations between the two would become self-relations and are
     * removed; rows colliding with the survivor's own (same ordered pair and creator) are dropped. Run in a transaction.
     */
    repoint(from: number, to: number): void {
      dropBetween.run(from, to);
      dropCollidingSources.run(from, to);
      moveSources.run(from, to);
      dropCollidingTargets.run(from, to);
      moveTargets.run(from, to);
    },
    /** Stores a relation row as-is. Relation rules live in the relations module; this is for fixtures and imports. */
    insert(row: { user_id: string; source_idea_id: number; target_idea_id: number; relation_type: string; score: number | null; note: string | null; created_by: "user" | "system"; created_at: string }): number {
      return insert.get(row)!.id;
    },
  };
}
