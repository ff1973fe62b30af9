// SQL for the operator's routes: invitations, sign-out of a disabled account, and instance figures.
import type { Db } from "../../db/open";

export interface InvitationRow {
  token_hash: string;
  user_id: string;
  created_by: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export function createAdminRepo(db: Db) {
  return {
    insertInvitation: (row: InvitationRow) =>
      db.query(
        `INSERT INTO invitations (token_hash, user_id, created_by, expires_at, used_at, created_at)
         VALUES ($token_hash, $user_id, $created_by, $expires_at, $used_at, $created_at)`,
      ).run({ ...row }),
    findInvitation: (hash: string) => db.query<InvitationRow, [string]>("SELECT * FROM invitations WHERE token_hash = ?").get(hash),
    /** Claims an unused, unexpired invitation; false when another request used it first or it has expired. */
    useInvitation: (hash: string, now: string) =>
      db.query("UPDATE invitations SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2").run(hash, now).changes === 1,
    deleteSessionsOf: (userId: string) => db.query("DELETE FROM sessions WHERE user_id = ?").run(userId).changes,
    /** The main database's size in pages (the WAL is not counted: it is folded back at each checkpoint). */
    databaseBytes: () =>
      db.query<{ n: number }, []>("SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()").get()!.n,
  };
}
