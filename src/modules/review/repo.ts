// SQL for the review queue: stale captured ideas and the week's new connections between live ideas (not imported ones).
import type { Store } from "../../db/store";
import type { IdeaStatus, RelationCreator, RelationType } from "../../contract";
import type { IdeaRow } from "../ideas/repo";

export type StaleRow = Pick<IdeaRow, "id" | "number" | "title" | "body" | "source" | "updated_at"> & { status: IdeaStatus };

export interface ConnectionRow {
  id: number;
  relation_type: RelationType;
  score: number | null;
  created_by: RelationCreator;
  created_at: string;
  source_idea_id: number;
  source_number: number;
  source_title: string;
  target_idea_id: number;
  target_number: number;
  target_title: string;
}

// Each group's FROM and WHERE once, for its listing (GET /review) and its count (GET /review/counts): the two agree by
// construction.
// Only captured ideas can be stale; one that moved on never comes back, whatever its date.
const STALE = `FROM ideas WHERE user_id = ? AND is_archived = 0 AND status = 'captured' AND updated_at < ?`;
const CONNECTIONS = `FROM live_relations r
     JOIN ideas s ON s.id = r.source_idea_id
     JOIN ideas g ON g.id = r.target_idea_id
     WHERE r.user_id = ? AND r.created_at >= ? AND r.imported = 0`;
const CONNECTIONS_ORDER = "ORDER BY r.created_at DESC, r.id DESC";

/** A vault conflict file waiting for the person (docs/vault.md), with the idea it belongs to when that still exists. */
export interface VaultConflictRow { path: string; idea_id: number | null; idea_number: number | null; idea_title: string | null; message: string; at: string }

export function createReviewRepo(store: Store) {
  const hasVault = store.query<{ n: number }, [string]>("SELECT count(*) AS n FROM vault_bindings WHERE user_id = ?");
  const vaultConflicts = store.query<VaultConflictRow, [string]>(
    `SELECT v.path, v.idea_id, i.number AS idea_number, i.title AS idea_title, v.message, v.at
     FROM vault_issues v LEFT JOIN ideas i ON i.id = v.idea_id AND i.user_id = v.user_id
     WHERE v.user_id = ? AND v.kind = 'conflict' ORDER BY v.at DESC, v.path`,
  );
  const stale = store.query<StaleRow, [string, string]>(
    `SELECT id, number, title, body, status, source, updated_at ${STALE} ORDER BY updated_at ASC, id ASC`,
  );
  const staleCount = store.query<{ n: number }, [string, string]>(`SELECT count(*) AS n ${STALE}`);
  const connections = store.query<ConnectionRow, [string, string]>(
    `SELECT r.id, r.relation_type, r.score, r.created_by, r.created_at,
            s.id AS source_idea_id, s.number AS source_number, s.title AS source_title,
            g.id AS target_idea_id, g.number AS target_number, g.title AS target_title
     ${CONNECTIONS} ${CONNECTIONS_ORDER}`,
  );
  const connectionIds = store.query<{ id: number }, [string, string]>(`SELECT r.id ${CONNECTIONS} ${CONNECTIONS_ORDER}`);
  return {
    /** Captured, live ideas last updated strictly before `cutoff`, oldest first. */
    stale: (userId: string, cutoff: string) => stale.all(userId, cutoff),
    /** How many `stale` lists. */
    countStale: async (userId: string, cutoff: string) => (await staleCount.get(userId, cutoff))!.n,
    /** Relations created at or after `since` whose two ends are live, newest first; an import's are not new. */
    connectionsSince: (userId: string, since: string) => connections.all(userId, since),
    /** The ids of what `connectionsSince` lists, in its order. */
    connectionIdsSince: async (userId: string, since: string) => (await connectionIds.all(userId, since)).map((r) => r.id),
    /** The vault's conflict files, newest first, or null when the account has no folder (the queue then keeps the spec's shape). */
    vaultConflicts: async (userId: string) => ((await hasVault.get(userId))!.n > 0 ? await vaultConflicts.all(userId) : null),
  };
}
