// SQL for capture by e-mail: each account's address token, and the messages already filed (per account, by message key).
import type { Store } from "../../db/store";

export function createMailCaptureRepo(store: Store) {
  const tokenOf = store.query<{ token: string }, [string]>("SELECT token FROM capture_addresses WHERE user_id = ?");
  const ownerOf = store.query<{ user_id: string; plan: "free" | "pro"; settings_json: string }, [string]>(
    `SELECT c.user_id, u.plan, u.settings_json FROM capture_addresses c JOIN users u ON u.id = c.user_id WHERE c.token = ?`,
  );
  const upsert = store.query<unknown, [string, string, string]>(
    `INSERT INTO capture_addresses (user_id, token, created_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (user_id) DO UPDATE SET token = excluded.token, created_at = excluded.created_at`,
  );
  const insertIfMissing = store.query<unknown, [string, string, string]>(
    "INSERT INTO capture_addresses (user_id, token, created_at) VALUES (?1, ?2, ?3) ON CONFLICT (user_id) DO NOTHING",
  );
  const captured = store.query<{ idea_id: number | null }, [string, string]>("SELECT idea_id FROM mail_captures WHERE user_id = ? AND message_key = ?");
  const record = store.query<unknown, [string, string, number | null, string]>(
    "INSERT INTO mail_captures (user_id, message_key, idea_id, captured_at) VALUES (?, ?, ?, ?)",
  );
  const since = store.query<{ n: number }, [string, string]>("SELECT count(*) AS n FROM mail_captures WHERE user_id = ? AND captured_at >= ?");

  return {
    tokenFor: async (userId: string) => (await tokenOf.get(userId))?.token ?? null,
    /** The account a live token belongs to, with what the capture rules read (plan, settings). */
    ownerOfToken: (token: string) => ownerOf.get(token),
    /** Sets the account's token (a new one replaces the old in the same statement). */
    setToken: async (userId: string, token: string, now: string) => void (await upsert.run(userId, token, now)),
    /** Gives the account a token unless it has one; true when this call made it. */
    addTokenIfMissing: async (userId: string, token: string, now: string) => (await insertIfMissing.run(userId, token, now)).changes === 1,
    /** The idea a message became (null if that idea is gone), or undefined when it was never filed for this account. */
    capturedIdea: async (userId: string, messageKey: string) => (await captured.get(userId, messageKey))?.idea_id,
    recordCapture: async (userId: string, messageKey: string, ideaId: number | null, now: string) => void (await record.run(userId, messageKey, ideaId, now)),
    capturesSince: async (userId: string, since_: string) => (await since.get(userId, since_))!.n,
  };
}
