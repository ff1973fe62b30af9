// SQL for sign-in sessions, stored by token hash only.
import type { Db } from "../db/open";

export interface SessionRow { token_hash: string; user_id: string; expires_at: string; last_used_at: string | null; created_at: string }

export function createSessionsRepo(db: Db) {
  const byHash = db.query<SessionRow, [string]>("SELECT * FROM sessions WHERE token_hash = ?");
  const slide = db.query("UPDATE sessions SET expires_at = ?, last_used_at = ? WHERE token_hash = ?");
  return {
    /** The session, expired or not: the caller compares `expires_at` with its clock. */
    find: (hash: string) => byHash.get(hash),
    insert: (row: SessionRow) =>
      db.query("INSERT INTO sessions (token_hash, user_id, expires_at, last_used_at, created_at) VALUES ($token_hash, $user_id, $expires_at, $last_used_at, $created_at)").run({ ...row }),
    slide: (hash: string, expiresAt: string, usedAt: string) => slide.run(expiresAt, usedAt, hash),
    delete: (hash: string) => db.query("DELETE FROM sessions WHERE token_hash = ?").run(hash),
    deleteForUser: (userId: string) => db.query("DELETE FROM sessions WHERE user_id = ?").run(userId).changes,
    deleteExpired: (now: string) => db.query("DELETE FROM sessions WHERE expires_at <= ?").run(now).changes,
  };
}
