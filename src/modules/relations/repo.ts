// The one store for `relations` (and `rejected_pairs`): the routes' look-ups and writes, an idea's flat list,
// repointing on merge, the pipeline's system relations, and row inserts for imports and fixtures.
import type { Store } from "../../db/store";
import type { IdeaStatus, RelationCreator, RelationType } from "../../contract";

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

/** `imported`: carried over from another tool by an import (kept out of the review's new connections). */
export type NewRelationRow = Omit<RelationRow, "id"> & { imported?: boolean };

export interface RelationListRow {
  id: number;
  relation_type: RelationType;
  score: number | null;
  note: string | null;
  created_by: RelationCreator;
  created_at: string;
  idea_id: number;
  idea_number: number;
  idea_title: string;
  idea_status: IdeaStatus;
}

/** A relation as GET /ideas/:id lists it: both directions in one list, the other idea's summary beside it. */
export type IdeaRelationRow = Omit<RelationRow, "user_id" | "relation_type"> & {
  relation_type: RelationType;
  direction: "outgoing" | "incoming";
  related_idea_id: number;
  related_idea_number: number;
  related_idea_title: string;
  related_idea_status: IdeaStatus;
};

/** What the background pass reads of the system relations it maintains. */
export type SystemRelation = Pick<RelationRow, "id" | "source_idea_id" | "target_idea_id" | "relation_type" | "note">;

const LIST_COLS = `r.id, r.relation_type, r.score, r.note, r.created_by, r.created_at,
  o.id AS idea_id, o.number AS idea_number, o.title AS idea_title, o.status AS idea_status`;
// NULL scores last, said in so many words: SQLite sorts NULL lowest (last under DESC), PostgreSQL highest. id keeps
// equal scores in creation order.
const LIST_ORDER = "ORDER BY r.relation_type, r.score IS NULL, r.score DESC, r.id";
const SYSTEM_COLS = "id, source_idea_id, target_idea_id, relation_type, note";

export function createRelationsRepo(store: Store) {
  const idea = store.query<{ id: number; is_archived: number }, [number, string]>(
    "SELECT id, is_archived FROM ideas WHERE id = ? AND user_id = ?",
  );
  const outgoing = store.query<RelationListRow, [number]>(
    `SELECT ${LIST_COLS} FROM relations r JOIN ideas o ON o.id = r.target_idea_id
     WHERE r.source_idea_id = ? AND o.is_archived = 0 ${LIST_ORDER}`,
  );
  // One account's relations the person made, to live ideas, in one read (the vault's periodic pass compares every idea).
  const userOutgoingAll = store.query<{ source_idea_id: number; relation_type: string; idea_title: string }, [string]>(
    `SELECT r.source_idea_id, r.relation_type, o.title AS idea_title FROM relations r JOIN ideas o ON o.id = r.target_idea_id
     WHERE r.user_id = ? AND r.created_by = 'user' AND o.is_archived = 0`,
  );
  const incoming = store.query<RelationListRow, [number]>(
    `SELECT ${LIST_COLS} FROM relations r JOIN ideas o ON o.id = r.source_idea_id
     WHERE r.target_idea_id = ? AND o.is_archived = 0 ${LIST_ORDER}`,
  );
  // Both ends must be live: archived ideas drop out of every relation query, in either direction.
  const touching = store.query<IdeaRelationRow, [{ id: number }]>(
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
  // Uses the relations_pair index (source first); archived ideas are dead ends for the walk.
  const nextHops = store.query<{ id: number }, [number, string, number]>(
    `SELECT r.target_idea_id AS id FROM relations r JOIN ideas t ON t.id = r.target_idea_id
     WHERE r.source_idea_id = ? AND r.relation_type = ? AND t.is_archived = 0 AND r.id <> ? ORDER BY r.target_idea_id`,
  );
  const userPair = store.query<{ id: number }, [number, number]>(
    "SELECT id FROM relations WHERE source_idea_id = ? AND target_idea_id = ? AND created_by = 'user'",
  );
  const userEitherWay = store.query<{ n: number }, [number, number]>(
    `SELECT count(*) AS n FROM relations WHERE created_by = 'user'
       AND ((source_idea_id = ?1 AND target_idea_id = ?2) OR (source_idea_id = ?2 AND target_idea_id = ?1))`,
  );
  const userPartners = store.query<{ other: number }, [number]>(
    `SELECT CASE WHEN source_idea_id = ?1 THEN target_idea_id ELSE source_idea_id END AS other FROM relations
     WHERE created_by = 'user' AND (source_idea_id = ?1 OR target_idea_id = ?1)`,
  );
  const dropSystemRelated = store.query(
    `DELETE FROM relations WHERE created_by = 'system' AND relation_type = 'related' AND note IS NULL
       AND ((source_idea_id = ?1 AND target_idea_id = ?2) OR (source_idea_id = ?2 AND target_idea_id = ?1))`,
  );
  const byId = store.query<RelationRow, [number, string]>("SELECT * FROM relations WHERE id = ? AND user_id = ?");
  const archivedEnd = store.query<{ n: number }, [number, number]>(
    "SELECT count(*) AS n FROM ideas WHERE id IN (?, ?) AND is_archived = 1",
  );
  const insert = store.query<{ id: number }, [Record<string, string | number | null>]>(
    `INSERT INTO relations (user_id, source_idea_id, target_idea_id, relation_type, score, note, created_by, created_at)
     VALUES ($user_id, $source_idea_id, $target_idea_id, $relation_type, $score, $note, $created_by, $created_at) RETURNING id`,
  );
  // The pair index makes a repeated (source, target, creator) a no-op rather than a failure.
  const insertIfNew = store.query<{ id: number }, [Record<string, string | number | null>]>(
    `INSERT INTO relations (user_id, source_idea_id, target_idea_id, relation_type, score, note, created_by, created_at, imported)
     VALUES ($user_id, $source_idea_id, $target_idea_id, $relation_type, $score, $note, $created_by, $created_at, $imported)
     ON CONFLICT (source_idea_id, target_idea_id, created_by) DO NOTHING`,
  );
  const updateSystem = store.query("UPDATE relations SET relation_type = ?, score = ? WHERE id = ?");
  const deleteById = store.query("DELETE FROM relations WHERE id = ?");
  const deleteForUser = store.query("DELETE FROM relations WHERE id = ? AND user_id = ?");
  const rejectPair = store.query("INSERT INTO rejected_pairs (user_id, pair_lo, pair_hi, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING");
  // The pipeline asks for every candidate of an idea at once: one statement instead of one per pair (on PostgreSQL
  // each is a round trip; ~80 an idea in an account of near-copies, the largest share of its pass).
  const rejectedAmong = store.query<{ other: number }, [number, string]>(
    `SELECT pair_hi AS other FROM rejected_pairs WHERE pair_lo = ?1 AND pair_hi IN (SELECT value FROM json_each(?2))
     UNION ALL
     SELECT pair_lo AS other FROM rejected_pairs WHERE pair_hi = ?1 AND pair_lo IN (SELECT value FROM json_each(?2))`,
  );
  const systemBetween = store.query<SystemRelation, [number, number]>(
    `SELECT ${SYSTEM_COLS} FROM relations WHERE created_by = 'system'
       AND ((source_idea_id = ?1 AND target_idea_id = ?2) OR (source_idea_id = ?2 AND target_idea_id = ?1))`,
  );
  const systemTouching = store.query<SystemRelation, [number, string]>(
    `SELECT ${SYSTEM_COLS} FROM relations
     WHERE created_by = 'system' AND relation_type = ?2 AND (source_idea_id = ?1 OR target_idea_id = ?1)`,
  );
  const dropBetween = store.query(
    `DELETE FROM relations WHERE (source_idea_id = ?1 AND target_idea_id = ?2) OR (source_idea_id = ?2 AND target_idea_id = ?1)`,
  );
  // A repointed row that would repeat an existing (source, target, created_by) of the survivor is dropped instead.
  const dropCollidingSources = store.query(
    `DELETE FROM relations WHERE source_idea_id = ?1 AND EXISTS (
       SELECT 1 FROM relations k WHERE k.source_idea_id = ?2 AND k.target_idea_id = relations.target_idea_id
                                   AND k.created_by = relations.created_by)`,
  );
  const dropCollidingTargets = store.query(
    `DELETE FROM relations WHERE target_idea_id = ?1 AND EXISTS (
       SELECT 1 FROM relations k WHERE k.target_idea_id = ?2 AND k.source_idea_id = relations.source_idea_id
                                   AND k.created_by = relations.created_by)`,
  );
  const moveSources = store.query("UPDATE relations SET source_idea_id = ?2 WHERE source_idea_id = ?1");
  const moveTargets = store.query("UPDATE relations SET target_idea_id = ?2 WHERE target_idea_id = ?1");

  return {
    // Reads for the relation routes.
    findIdea: (userId: string, id: number) => idea.get(id, userId),
    listOutgoing: (ideaId: number) => outgoing.all(ideaId),
    listIncoming: (ideaId: number) => incoming.all(ideaId),
    /** The person's relations of an account to live ideas, grouped by source idea id (the pipeline's suggestions left out). */
    async userOutgoingByIdea(userId: string): Promise<Map<number, Array<{ relation_type: string; idea_title: string }>>> {
      const out = new Map<number, Array<{ relation_type: string; idea_title: string }>>();
      for (const r of await userOutgoingAll.all(userId)) {
        const list = out.get(r.source_idea_id);
        if (list) list.push(r);
        else out.set(r.source_idea_id, [r]);
      }
      return out;
    },
    /** Every live relation touching the idea (none when the idea itself is archived), highest score first. */
    listTouching: (ideaId: number) => touching.all({ id: ideaId }),
    /** Targets of `type` edges leaving `ideaId`, ignoring the relation `exceptId` (the one being retyped). */
    nextHops: async (ideaId: number, type: string, exceptId = 0) => (await nextHops.all(ideaId, type, exceptId)).map((r) => r.id),
    hasUserPair: async (source: number, target: number) => (await userPair.get(source, target)) !== null,
    /** Either direction: a user's relation between two ideas is one connection (imports do not add a second). */
    hasUserRelationEitherWay: async (a: number, b: number) => (await userEitherWay.get(a, b))!.n > 0,
    /** Ideas the user related to `ideaId` themselves (any type, either direction). */
    userRelatedIds: async (ideaId: number) => new Set((await userPartners.all(ideaId)).map((r) => r.other)),
    findForUser: (userId: string, id: number) => byId.get(id, userId),
    touchesArchived: async (r: Pick<RelationRow, "source_idea_id" | "target_idea_id">) => (await archivedEnd.get(r.source_idea_id, r.target_idea_id))!.n > 0,

    // Writes.
    /** Stores a row as given and returns its id; a repeated (source, target, creator) fails with SQLite's constraint error. */
    insertRow: async ({ imported: _, ...row }: NewRelationRow) => (await insert.get({ ...row }))!.id,
    /** Stores a row unless the pair already has one by the same creator; true when stored (imports, the pipeline). */
    insertRowIfNew: async ({ imported, ...row }: NewRelationRow) => (await insertIfNew.run({ ...row, imported: imported ? 1 : 0 })).changes > 0,
    insertUserRelation: async (userId: string, r: { source_idea_id: number; target_idea_id: number; relation_type: string; note: string | null }, now: string) =>
      (await insert.get({ user_id: userId, ...r, score: null, created_by: "user", created_at: now }))!.id,
    async update(id: number, fields: { relation_type?: string; note?: string | null }): Promise<void> {
      const keys = Object.keys(fields) as Array<keyof typeof fields>;
      if (keys.length === 0) return;
      await store.query(`UPDATE relations SET ${keys.map((k) => `${k} = $${k}`).join(", ")} WHERE id = $id`).run({ ...fields, id });
    },
    deleteForUser: async (userId: string, id: number) => (await deleteForUser.run(id, userId)).changes > 0,
    /** Remembers that the user rejected the automatic connection between two ideas (either direction). */
    rejectPair: async (userId: string, a: number, b: number, now: string) => void (await rejectPair.run(userId, Math.min(a, b), Math.max(a, b), now)),
    /**
     * Moves every relation of `from` onto `to`. Relations between the two would become self-relations and are
     * removed; rows colliding with the survivor's own (same ordered pair and creator) are dropped. Run in a transaction.
     */
    async repoint(from: number, to: number): Promise<void> {
      await dropBetween.run(from, to);
      await dropCollidingSources.run(from, to);
      await moveSources.run(from, to);
      await dropCollidingTargets.run(from, to);
      await moveTargets.run(from, to);
    },

    // The background pass's system relations.
    /** Whether the user rejected the automatic connection between the two ideas (by deleting it). */
    /** Which of `others` form a rejected pair with `ideaId` (a dismissed detection or a deleted automatic relation). */
    rejectedAmong: async (ideaId: number, others: number[]): Promise<Set<number>> =>
      others.length === 0 ? new Set() : new Set((await rejectedAmong.all(ideaId, JSON.stringify(others))).map((r) => r.other)),
    systemRelationsBetween: (a: number, b: number) => systemBetween.all(a, b),
    systemRelationsTouching: (ideaId: number, type: string) => systemTouching.all(ideaId, type),
    insertSystemRelation: async (userId: string, source: number, target: number, type: string, score: number | null, now: string) =>
      (await insertIfNew.run({
        user_id: userId, source_idea_id: source, target_idea_id: target, relation_type: type, score, note: null,
        created_by: "system", created_at: now, imported: 0,
      })).changes > 0,
    /** Sets a system relation's type and score (a `related` pair upgraded to `parent`, a refreshed similarity). */
    updateSystemRelation: async (id: number, type: string, score: number | null) => void (await updateSystem.run(type, score, id)),
    deleteById: async (id: number) => void (await deleteById.run(id)),
    /** Removes the pair's unannotated system `related` suggestion (the user related the pair: it adds nothing). */
    dropSystemRelatedBetween: async (a: number, b: number) => (await dropSystemRelated.run(a, b)).changes > 0,
  };
}
export type RelationsRepo = ReturnType<typeof createRelationsRepo>;

export interface TextRelation { id: number; target_idea_id: number; relation_type: string; note: string | null }
export interface Backlink { id: number; number: number; title: string }

/**
 * The relations a body's [[wikilinks]] make (src/modules/wikilinks/): marked `from_text`, so only they are ever removed
 * with a link. Written against the async store from the start; here because this file holds every statement over
 * `relations` (test/foundation/stores.test.ts).
 */
export function createTextRelationsRepo(store: Store) {
  const made = store.query<TextRelation, [number]>(
    "SELECT id, target_idea_id, relation_type, note FROM relations WHERE source_idea_id = ? AND created_by = 'user' AND from_text = 1",
  );
  const userEitherWay = store.query<{ n: number }, [number, number]>(
    `SELECT count(*) AS n FROM relations WHERE created_by = 'user'
       AND ((source_idea_id = ?1 AND target_idea_id = ?2) OR (source_idea_id = ?2 AND target_idea_id = ?1))`,
  );
  const insert = store.query<unknown, [string, number, number, string]>(
    `INSERT INTO relations (user_id, source_idea_id, target_idea_id, relation_type, score, note, created_by, created_at, from_text)
     VALUES (?, ?, ?, 'related', NULL, NULL, 'user', ?, 1)
     ON CONFLICT (source_idea_id, target_idea_id, created_by) DO NOTHING`,
  );
  const dropSystem = store.query<unknown, [number, number]>(
    `DELETE FROM relations WHERE created_by = 'system' AND relation_type = 'related' AND note IS NULL
       AND ((source_idea_id = ?1 AND target_idea_id = ?2) OR (source_idea_id = ?2 AND target_idea_id = ?1))`,
  );
  const remove = store.query<unknown, [number]>("DELETE FROM relations WHERE id = ?");
  // Both ends live, as live_relations has it (the view does not carry from_text).
  const backlinks = store.query<Backlink, [number]>(
    `SELECT s.id, s.number, s.title FROM relations r
     JOIN ideas s ON s.id = r.source_idea_id JOIN ideas t ON t.id = r.target_idea_id
     WHERE r.target_idea_id = ? AND r.created_by = 'user' AND (r.from_text = 1 OR r.imported = 1)
       AND s.is_archived = 0 AND t.is_archived = 0 AND s.user_id = r.user_id
     ORDER BY s.number`,
  );
  return {
    madeBy: (ideaId: number) => made.all(ideaId),
    userRelationEitherWay: async (a: number, b: number) => (await userEitherWay.get(a, b))!.n > 0,
    /** False when the pair already had a user relation this way (the unique key). */
    insert: async (userId: string, source: number, target: number, now: string) => (await insert.run(userId, source, target, now)).changes > 0,
    /** The person's link replaces the pipeline's unannotated `related` suggestion of the pair, as an import's does. */
    dropSystemBetween: (a: number, b: number) => dropSystem.run(a, b),
    remove: (id: number) => remove.run(id),
    /** Live ideas whose links (from_text) or an import's made a relation to this one. */
    backlinks: (ideaId: number) => backlinks.all(ideaId),
  };
}
