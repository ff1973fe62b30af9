// SQL for the operator's routes: invitations, sign-out of a disabled account, and instance figures.
import type { Store } from "../../db/store";

export interface InvitationRow {
  token_hash: string;
  user_id: string;
  created_by: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export function createAdminRepo(store: Store) {
  const insertInvitation = store.query(
    `INSERT INTO invitations (token_hash, user_id, created_by, expires_at, used_at, created_at)
     VALUES ($token_hash, $user_id, $created_by, $expires_at, $used_at, $created_at)`,
  );
  const findInvitation = store.query<InvitationRow, [string]>("SELECT * FROM invitations WHERE token_hash = ?");
  const useInvitation = store.query("UPDATE invitations SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2");
  const deleteSessions = store.query("DELETE FROM sessions WHERE user_id = ?");
  return {
    insertInvitation: (row: InvitationRow) => insertInvitation.run({ ...row }),
    findInvitation: (hash: string) => findInvitation.get(hash),
    /** Claims an unused, unexpired invitation; false when another request used it first or it has expired. */
    useInvitation: async (hash: string, now: string) => (await useInvitation.run(hash, now)).changes === 1,
    deleteSessionsOf: async (userId: string) => (await deleteSessions.run(userId)).changes,
  };
}
