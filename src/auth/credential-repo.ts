// A credential and its account in one statement: authenticating a request is one round trip on PostgreSQL, not two.
import type { SqlValue, Stmt, Store } from "../db/store";
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
  /** What a Ride read in the same statement for this credential's account, when one was asked. */
  ride?: unknown;
};

/** What a counting read counts: the day's period and the highest quota of any plan (the caller compares its own). */
export interface Counting { day: string; cap: number }

/**
 * A route's first read, sent in the credential's counting statement (PostgreSQL) so the request costs one round trip:
 * read for each credential row's account whatever the credential turns out to allow, and used by the route only when
 * the credential was accepted (a refused request discards it, and nothing it read was written or counted). The route
 * declares it (auth/plugin.ts, the `ride` option) and finds it in AuthContext.ride.
 */
export interface Ride {
  /** The statement's name: one statement is made per name and credential statement, on first use. */
  name: string;
  /**
   * One SELECT answering exactly one row (an aggregate) of one column named `ride`, in SQLite's dialect, for the
   * account whose id is the SQL expression `user`; its parameters are `$name`s (not `$cred_…`), bound from `params`.
   */
  sql(user: string): string;
  params: Record<string, SqlValue>;
  /** What the read was made of (the route compares it with its own reading of the request before using the answer). */
  key: string;
}

// The credential's own fields carry a `cred_` prefix so they cannot collide with a users column.
// `hash`: the token hash's parameter (?1 alone, $cred_hash beside a ride's named ones).
const SESSION = (hash: string) => `SELECT 'session' AS cred_kind, s.expires_at AS cred_expires_at, NULL AS cred_id, NULL AS cred_scopes, u.*
  FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ${hash}`;
const KEY = (hash: string) => `SELECT 'key' AS cred_kind, NULL AS cred_expires_at, k.id AS cred_id, k.scopes AS cred_scopes, u.*
  FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ${hash}`;
const EITHER = (hash: string) => `${SESSION(hash)} UNION ALL ${KEY(hash)}`;

type Joined = UserRow & {
  cred_kind: "session" | "key"; cred_expires_at: string | null; cred_id: string | null; cred_scopes: string | null; cred_counted?: number | null; cred_ride?: unknown;
};

function split(row: Joined): CredentialRow {
  const { cred_kind, cred_expires_at, cred_id, cred_scopes, cred_counted, cred_ride, ...user } = row;
  const counted = cred_counted === undefined ? {} : { counted: cred_counted };
  const ride = cred_ride === undefined ? {} : { ride: cred_ride };
  return cred_kind === "session"
    ? { kind: "session", expires_at: cred_expires_at!, user, ...counted, ...ride }
    : { kind: "key", id: cred_id!, scopes: cred_scopes, user, ...counted, ...ride };
}

/**
 * PostgreSQL: the credential's rows and, in the same statement, the request counted against its account's daily
 * quota (auth/rate-limiter.ts): one round trip authenticates and counts, on any number of nodes. The upsert takes the
 * counter row's lock, so counts from every node are exact; it stops at `cap` (?3), the highest quota, and the caller
 * refunds a count its plan refuses or a credential it does not accept. set_config(…, true) makes this statement's own
 * transaction commit without waiting for the WAL's flush, as the limiter's counts always have (a crash forgets the
 * last moment's counts); nothing else is written by it.
 */
function counting(credential: (hash: string) => string, ride?: Ride): string {
  const [hash, day, cap] = ride ? ["$cred_hash", "$cred_day", "$cred_cap"] : ["?1", "?2", "?3"];
  return `WITH cred AS (${credential(hash)}),
    counted AS (
      INSERT INTO usage_counters (user_id, kind, period, count)
      SELECT DISTINCT id, 'requests', ${day}, 1 FROM cred WHERE disabled_at IS NULL AND set_config('synchronous_commit', 'off', true) = 'off'
      ON CONFLICT (user_id, kind, period) DO UPDATE SET count = usage_counters.count + 1 WHERE usage_counters.count < ${cap}
      RETURNING user_id, count)
    SELECT cred.*, counted.count AS cred_counted${ride ? ", r.ride AS cred_ride" : ""} FROM cred LEFT JOIN counted ON counted.user_id = cred.id${
      ride ? ` CROSS JOIN LATERAL (${ride.sql("cred.id")}) r` : ""}`;
}

type Counted = Stmt<Joined, [string, string, number]>;
type Riding = Stmt<Joined, [Record<string, SqlValue>]>;

export function createCredentialRepo(store: Store) {
  const session = store.query<Joined, [string]>(SESSION("?1"));
  const key = store.query<Joined, [string]>(KEY("?1"));
  // A Bearer token may be either: both looked up at once, the session first as the spec's order says.
  const either = store.query<Joined, [string]>(EITHER("?1"));
  // Made on first use, on PostgreSQL only (SQLite counts in memory: rate-limiter.ts), one per ride too.
  const made = new Map<string, Counted | Riding>();
  const statement = (credential: typeof KEY, ride?: Ride) => {
    const name = `${credential === KEY ? "key" : "either"} ${ride?.name ?? ""}`;
    let stmt = made.get(name);
    if (!stmt) made.set(name, (stmt = store.query(counting(credential, ride))));
    return stmt;
  };
  const countingRows = (credential: typeof KEY, hash: string, c: Counting, ride?: Ride): Promise<Joined[]> =>
    ride
      ? (statement(credential, ride) as Riding).all({ ...ride.params, cred_hash: hash, cred_day: c.day, cred_cap: c.cap })
      : (statement(credential) as Counted).all(hash, c.day, c.cap);
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
    /** `key`, with the request counted in the same statement (PostgreSQL), and `ride` read there too when given. */
    keyCounting: async (hash: string, c: Counting, ride?: Ride) => {
      const [row] = await countingRows(KEY, hash, c, ride);
      return row ? split(row) : null;
    },
    /**
     * `bearer`, with the request counted in the same statement (PostgreSQL): once per account, whichever rows match;
     * `ride` read there too, for each row's account, when given.
     */
    bearerCounting: async (hash: string, c: Counting, ride?: Ride) => sorted(await countingRows(EITHER, hash, c, ride)),
  };
}
