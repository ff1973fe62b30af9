// SQL for sign-in sessions, stored by token hash only.
import type { Store } from "../db/store";

export interface SessionRow { token_hash: string; user_id: string; expires_at: string; last_used_at: string | null; created_at: string }

export function createSessionsRepo(store: Store) {
  const byHash = store.query<SessionRow, [string]>("SELECT * FROM sessions WHERE token_hash = ?");
  const slide = store.query("UPDATE sessions SET expires_at = ?, last_used_at = ? WHERE token_hash = ?");
  const insert = store.query(
    "INSERT INTO sessions (token_hash, user_id, expires_at, last_used_at, created_at) VALUES ($token_hash, $user_id, $expires_at, $last_used_at, $created_at)",
  );
  const del = store.query("DELETE FROM sessions WHERE token_hash = ?");
  const delForUser = store.query("DELETE FROM sessions WHERE user_id = ?");
  const delExpired = store.query("DELETE FROM sessions WHERE expires_at <= ?");
  return {
    /** The session, expired or not: the caller compares `expires_at` with its clock. */
    find: (hash: string) => byHash.get(hash),
    insert: (row: SessionRow) => insert.run({ ...row }),
    slide: (hash: string, expiresAt: string, usedAt: string) => slide.run(expiresAt, usedAt, hash),
    delete: (hash: string) => del.run(hash),
    deleteForUser: async (userId: string) => (await delForUser.run(userId)).changes,
    deleteExpired: async (now: string) => (await delExpired.run(now)).changes,
  };
}
