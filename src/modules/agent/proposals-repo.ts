// Proposals waiting for the person, as rows (PostgreSQL): a confirm that reached another node is handed to the turn here.
import type { Store } from "../../db/store";

export type RemoteDecision = "approved" | "declined";

export function createProposalsRepo(store: Store) {
  const insert = store.query(
    `INSERT INTO agent_proposals (user_id, call_id, decision, expires_at, created_at) VALUES (?1, ?2, NULL, ?3, ?4)
     ON CONFLICT (user_id, call_id) DO UPDATE SET decision = NULL, expires_at = excluded.expires_at, created_at = excluded.created_at`,
  );
  // A node that died with proposals waiting leaves their rows: the account's next proposal clears those long lapsed.
  const clearLapsed = store.query("DELETE FROM agent_proposals WHERE user_id = ? AND expires_at < ?");
  const decision = store.query<{ decision: RemoteDecision | null }, [string, string]>(
    "SELECT decision FROM agent_proposals WHERE user_id = ? AND call_id = ?",
  );
  const decide = store.query(
    "UPDATE agent_proposals SET decision = ?3 WHERE user_id = ?1 AND call_id = ?2 AND decision IS NULL AND expires_at > ?4",
  );
  const remove = store.query("DELETE FROM agent_proposals WHERE user_id = ? AND call_id = ?");
  return {
    async open(userId: string, callId: string, expiresAt: string, now: string): Promise<void> {
      await clearLapsed.run(userId, now);
      await insert.run(userId, callId, expiresAt, now);
    },
    decision: async (userId: string, callId: string) => (await decision.get(userId, callId))?.decision ?? null,
    /** Records the person's answer for the node whose turn waits; false when no such proposal is waiting. */
    decide: async (userId: string, callId: string, d: RemoteDecision, now: string) => (await decide.run(userId, callId, d, now)).changes === 1,
    close: async (userId: string, callId: string) => void (await remove.run(userId, callId)),
  };
}
export type ProposalsRepo = ReturnType<typeof createProposalsRepo>;
