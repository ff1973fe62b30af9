// A credential and its account in one statement: authenticating a request is one round trip on PostgreSQL, not two.
import type { Store } from "../db/store";
import type { UserRow } from "../modules/users/repo";

/** What a request needs of the credential itself, beside the account's row. */
export type CredentialRow =
  | { kind: "session"; expires_at: string; user: UserRow }
  | { kind: "key"; id: string; scopes: string | null; user: UserRow };

// The credential's own fields carry a `cred_` prefix so they cannot collide with a users column.
const SESSION = `SELECT 'session' AS cred_kind, s.expires_at AS cred_expires_at, NULL AS cred_id, NULL AS cred_scopes, u.*
  FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?1`;
const KEY = `SELECT 'key' AS cred_kind, NULL AS cred_expires_at, k.id AS cred_id, k.scopes AS cred_scopes, u.*
  FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?1`;

type Joined = UserRow & { cred_kind: "session" | "key"; cred_expires_at: string | null; cred_id: string | null; cred_scopes: string | null };

function split(row: Joined): CredentialRow {
  const { cred_kind, cred_expires_at, cred_id, cred_scopes, ...user } = row;
  return cred_kind === "session"
    ? { kind: "session", expires_at: cred_expires_at!, user }
    : { kind: "key", id: cred_id!, scopes: cred_scopes, user };
}

export function createCredentialRepo(store: Store) {
  const session = store.query<Joined, [string]>(SESSION);
  const key = store.query<Joined, [string]>(KEY);
  // A Bearer token may be either: both looked up at once, the session first as the spec's order says.
  const either = store.query<Joined, [string]>(`${SESSION} UNION ALL ${KEY}`);
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
    bearer: async (hash: string) => (await either.all(hash)).map(split).sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "session" ? -1 : 1)),
  };
}
