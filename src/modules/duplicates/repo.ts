// SQL for duplicate detections, all of it: the pending listing with both ideas' display fields, per-idea summaries,
// lookups and resolution, and the background check's recording (the pipeline's duplicate step calls it).
import type { Store } from "../../db/store";
import type { IdeaStatus } from "../../contract";

export const BODY_PREVIEW_CHARS = 280;

export interface DetectionRow {
  id: number;
  user_id: string;
  idea_id: number;
  duplicate_of_id: number;
  similarity_score: number;
  status: "pending" | "dismissed" | "merged";
  created_at: string;
  resolved_at: string | null;
}

export interface DetectionView {
  id: number;
  user_id: string;
  idea_id: number;
  idea_number: number;
  idea_title: string;
  idea_body: string;
  idea_status: IdeaStatus;
  idea_source: string;
  idea_created_at: string;
  duplicate_of_id: number;
  duplicate_number: number;
  duplicate_title: string;
  duplicate_body: string;
  duplicate_status: IdeaStatus;
  duplicate_source: string;
  duplicate_created_at: string;
  similarity_score: number;
  status: "pending";
  created_at: string;
}

export interface SummaryRow {
  idea_id: number;
  pending: number;
  duplicate_id: number;
  other_id: number;
  number: number;
  title: string;
  similarity_score: number;
  created_at: string;
}

// Detections with both ideas live, before the WHERE: one definition for every listing, the count and the lookup.
const PENDING_FROM = `FROM duplicate_detections d
     JOIN ideas a ON a.id = d.idea_id AND a.is_archived = 0
     JOIN ideas b ON b.id = d.duplicate_of_id AND b.is_archived = 0`;
const ACCOUNT_PENDING = "WHERE d.user_id = ? AND d.status = 'pending'";

// A pending detection with both ideas' previews (live ideas only), before its WHERE: one definition for every listing.
// substr counts characters (not bytes) on TEXT, so previews never split a multi-byte character.
const PENDING_VIEW = `SELECT d.id, d.user_id,
            d.idea_id, a.number AS idea_number, a.title AS idea_title, substr(a.body, 1, ${BODY_PREVIEW_CHARS}) AS idea_body,
            a.status AS idea_status, a.source AS idea_source, a.created_at AS idea_created_at,
            d.duplicate_of_id, b.number AS duplicate_number, b.title AS duplicate_title,
            substr(b.body, 1, ${BODY_PREVIEW_CHARS}) AS duplicate_body, b.status AS duplicate_status,
            b.source AS duplicate_source, b.created_at AS duplicate_created_at,
            d.similarity_score, d.status, d.created_at
     ${PENDING_FROM}`;

export function createDuplicatesRepo(store: Store) {
  const pending = store.query<DetectionView, [string]>(
    `${PENDING_VIEW}
     ${ACCOUNT_PENDING}
     ORDER BY d.similarity_score DESC, d.created_at DESC, d.id DESC`,
  );
  const pendingCount = store.query<{ n: number }, [string]>(`SELECT count(*) AS n ${PENDING_FROM} ${ACCOUNT_PENDING}`);
  // The same rows, only those with either idea among the given ids (a JSON array): what a page of the list badges.
  const pendingFor = store.query<DetectionView, [string, string, string]>(
    `${PENDING_VIEW}
     WHERE d.id IN (SELECT id FROM duplicate_detections WHERE idea_id IN (SELECT value FROM json_each(?2))
                    UNION SELECT id FROM duplicate_detections WHERE duplicate_of_id IN (SELECT value FROM json_each(?3)))
       AND d.user_id = ?1 AND d.status = 'pending'
     ORDER BY d.similarity_score DESC, d.created_at DESC, d.id DESC`,
  );
  // Per given idea (a JSON array): its pending detections with a live other idea, counted, and the closest one (the
  // listing's order: score, then newest, then id). Each side is found through its own index, never a scan of the
  // account's detections; a detection pairing two given ideas counts for both.
  const summaries = store.query<SummaryRow, [string, string]>(
    `WITH given(v) AS (SELECT DISTINCT value FROM json_each(?2)),
     sides AS (
       SELECT d.id, d.idea_id AS self, d.duplicate_of_id AS other, d.similarity_score, d.created_at
         FROM duplicate_detections d WHERE d.idea_id IN given AND d.user_id = ?1 AND d.status = 'pending'
       UNION ALL
       SELECT d.id, d.duplicate_of_id, d.idea_id, d.similarity_score, d.created_at
         FROM duplicate_detections d WHERE d.duplicate_of_id IN given AND d.user_id = ?1 AND d.status = 'pending'),
     ranked AS (
       SELECT s.self, s.id, s.other, o.number, o.title, s.similarity_score, s.created_at,
              count(*) OVER per_idea AS pending, row_number() OVER per_idea AS rank
         FROM sides s
         JOIN ideas me ON me.id = s.self AND me.is_archived = 0
         JOIN ideas o ON o.id = s.other AND o.is_archived = 0
       -- One window (one sort) for both: the frame is the whole partition, which row_number ignores.
       WINDOW per_idea AS (PARTITION BY s.self ORDER BY s.similarity_score DESC, s.created_at DESC, s.id DESC
                           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
     SELECT self AS idea_id, pending, id AS duplicate_id, other AS other_id, number, title, similarity_score, created_at
       FROM ranked WHERE rank = 1 ORDER BY self`,
  );
  // A detection whose idea was archived meanwhile is resolved for every purpose: it no longer shows and cannot be acted on.
  const actionable = store.query<DetectionRow, [string, number]>(
    `SELECT d.* ${PENDING_FROM} WHERE d.user_id = ? AND d.id = ? AND d.status = 'pending'`,
  );
  const resolve = store.query("UPDATE duplicate_detections SET status = ?, resolved_at = ? WHERE id = ? AND status = 'pending'");
  // The unordered pair is unique: a dismissed or merged pair is never detected again; a pending one keeps its row.
  const record = store.query<{ id: number }, [string, number, number, number, string]>(
    `INSERT INTO duplicate_detections (user_id, idea_id, duplicate_of_id, similarity_score, status, created_at, pair_lo, pair_hi)
     VALUES (?1, ?2, ?3, ?4, 'pending', ?5, min(?2, ?3), max(?2, ?3))
     ON CONFLICT (pair_lo, pair_hi) DO UPDATE SET similarity_score = excluded.similarity_score WHERE duplicate_detections.status = 'pending'
     RETURNING id`,
  );
  const pendingOf = store.query<{ id: number; other: number }, [number]>(
    `SELECT id, CASE WHEN idea_id = ?1 THEN duplicate_of_id ELSE idea_id END AS other FROM duplicate_detections
     WHERE status = 'pending' AND (idea_id = ?1 OR duplicate_of_id = ?1)`,
  );
  const deletePending = store.query("DELETE FROM duplicate_detections WHERE id = ? AND status = 'pending'");

  return {
    listPending: (userId: string) => pending.all(userId),
    /** How many `listPending` lists. */
    countPending: async (userId: string) => (await pendingCount.get(userId))!.n,
    /** Pending detections where either idea is one of `ideaIds` (the index on each side finds them). */
    listPendingFor: (userId: string, ideaIds: number[]) => {
      const ids = JSON.stringify(ideaIds);
      return pendingFor.all(userId, ids, ids);
    },
    /** Ideas among `ideaIds` with at least one pending detection, by id: count and closest detection. */
    summarizePendingFor: (userId: string, ideaIds: number[]) => summaries.all(userId, JSON.stringify(ideaIds)),
    findActionable: (userId: string, id: number) => actionable.get(userId, id),
    /** Marks a pending detection; false when it was no longer pending. */
    resolve: async (id: number, status: "dismissed" | "merged", now: string) => (await resolve.run(status, now, id)).changes > 0,
    /**
     * Records a pending detection of `ideaId` (the newer) as a copy of `duplicateOf`, or updates the score of the pair's
     * pending one; null when the pair was dismissed or merged (never detected again).
     */
    record: async (userId: string, ideaId: number, duplicateOf: number, score: number, now: string) =>
      (await record.get(userId, ideaId, duplicateOf, score, now))?.id ?? null,
    /** The idea's pending detections, each with the other idea's id (whichever side it is on). */
    pendingOf: (ideaId: number) => pendingOf.all(ideaId),
    /** Drops a detection the duplicate check no longer finds; one resolved meanwhile is kept. */
    deletePending: async (id: number) => void (await deletePending.run(id)),
  };
}
export type DuplicatesRepo = ReturnType<typeof createDuplicatesRepo>;
