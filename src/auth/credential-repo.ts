// A credential and its account in one statement: authenticating a request is one round trip on PostgreSQL, not two.
import type { Stmt, Store } from "../db/store";
import type { UserRow } from "../modules/users/repo";

/** What a request needs of the credential itself, beside the account's row. */
export type CredentialRow = (
  | { kind: "session"; expires_at: string; user: UserRow }
  | { kind: "key"; id: string; scopes: string | null; user: UserRow }
) & {
  /**
   * PostgreSQL, when read with a quota count (`keyCounting`, `bearerCounting`): the account's count of the day after
   * this request was counted, or null when it was not (the account disabled, or the count already at `cap`).
   */
  counted?: number | null;
};

/** What a counting read counts: the day's period and the highest quota of any plan (the caller compares its own). */
export interface Counting { day: string; cap: number }

// The credential's own fields carry a `cred_` prefix so they cannot collide with a users column.
const SESSION = `SELECT 'session' AS cred_kind, s.expires_at AS cred_expires_at, NULL AS cred_id, NULL AS cred_scopes, u.*
  FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?1`;
const KEY = `SELECT 'key' AS cred_kind, NULL AS cred_expires_at, k.id AS cred_id, k.scopes AS cred_scopes, u.*
  FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?1`;

type Joined = UserRow & { cred_kind: "session" | "key"; cred_expires_at: string | null; cred_id: string | null; cred_scopes: string | null; cred_counted?: number | null };

function split(row: Joined): CredentialRow {
  const { cred_kind, cred_expires_at, cred_id, cred_scopes, cred_counted, ...user } = row;
  const counted = cred_counted === undefined ? {} : { counted: cred_counted };
  return cred_kind === "session"
    ? { kind: "session", expires_at: cred_expires_at!, user, ...counted }
    : { kind: "key", id: cred_id!, scopes: cred_scopes, user, ...counted };
}

/**
 * PostgreSQL: the credential's rows and, in the same statement, the request counted against its account's daily
 * quota (auth/rate-limiter.ts): one round trip authenticates and counts, on any number of nodes. The upsert takes the
 * counter row's lock, so counts from every node are exact; it stops at `cap` (?3), the highest quota, and the caller
 * refunds a count its plan refuses or a credential it does not accept. set_config(…, true) makes this statement's own
 * transaction commit without waiting for the WAL's flush, as the limiter's counts always have (a crash forgets the
 * last moment's counts); nothing else is written by it.
 */
function counting(credential: string): string {
  return `WITH cred AS (${credential}),
    counted AS (
      INSERT INTO usage_counters (user_id, kind, period, count)
      SELECT DISTINCT id, 'requests', ?2, 1 FROM cred WHERE disabled_at IS NULL AND set_config('synchronous_commit', 'off', true) = 'off'
      ON CONFLICT (user_id, kind, period) DO UPDATE SET count = usage_counters.count + 1 WHERE usage_counters.count < ?3
      RETURNING user_id, count)
    SELECT cred.*, counted.count AS cred_counted FROM cred LEFT JOIN counted ON counted.user_id = cred.id`;
}

export function createCredentialRepo(store: Store) {
  const session = store.query<Joined, [string]>(SESSION);
  const key = store.query<Joined, [string]>(KEY);
  // A Bearer token may be either: both looked up at once, the session first as the spec's order says.
  const either = store.query<Joined, [string]>(`${SESSION} UNION ALL ${KEY}`);
  // Made on first use, on PostgreSQL only (SQLite counts in memory: rate-limiter.ts).
  let keyCounted: Stmt<Joined, [string, string, number]> | null = null;
  let eitherCounted: Stmt<Joined, [string, string, number]> | null = null;
  const sorted = (rows: Joined[]) => rows.map(split).sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "session" ? -1 : 1));
  return {
    /** The session of this token hash with its account (a session whose account is gone is none). */
    session: async (hash: string) => {
      const row = await session.get(hash);
      return row ? split(row) : null;
    },
    /** The API key of this hash with its account. */
    key: async (hash: string) => {
      const row = await key.get(hash);
      return row ? split(row) : null;
    },
    /** A Bearer token's rows: its session and/or its key, the session first. */
    bearer: async (hash: string) => sorted(await either.all(hash)),
    /** `key`, with the request counted in the same statement (PostgreSQL). */
    keyCounting: async (hash: string, c: Counting) => {
      keyCounted ??= store.query(counting(KEY));
      const row = await keyCounted.get(hash, c.day, c.cap);
      return row ? split(row) : null;
    },
    /** `bearer`, with the request counted in the same statement (PostgreSQL): once per account, whichever rows match. */
    bearerCounting: async (hash: string, c: Counting) => {
      eitherCounted ??= store.query(counting(`${SESSION} UNION ALL ${KEY}`));
      return sorted(await eitherCounted.all(hash, c.day, c.cap));
    },
  };
}
