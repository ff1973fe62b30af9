// SQL for OAuth clients and authorization codes (codes are stored only as SHA-256).
import type { Store } from "../../db/store";

export interface ClientRow {
  id: string;
  client_name: string;
  redirect_uris: string;
  created_at: string;
  authorized_at: string | null;
}

export interface CodeRow {
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: string;
  expires_at: string;
  used_at: string | null;
  token_id: string | null;
  created_at: string;
}

export function createOAuthRepo(store: Store) {
  const client = store.query<ClientRow, [string]>("SELECT * FROM oauth_clients WHERE id = ?");
  const code = store.query<CodeRow, [string]>("SELECT * FROM oauth_codes WHERE code_hash = ?");
  const insertClient = store.query("INSERT INTO oauth_clients (id, client_name, redirect_uris, created_at) VALUES ($id, $client_name, $redirect_uris, $created_at)");
  const markAuthorized = store.query("UPDATE oauth_clients SET authorized_at = ? WHERE id = ?");
  const pruneUnused = store.query("DELETE FROM oauth_clients WHERE authorized_at IS NULL AND created_at < ?");
  const insertCode = store.query(
    `INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, scopes, expires_at, created_at)
     VALUES ($code_hash, $client_id, $user_id, $redirect_uri, $code_challenge, $scopes, $expires_at, $created_at)`,
  );
  const consume = store.query("UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL");
  const setToken = store.query("UPDATE oauth_codes SET token_id = ? WHERE code_hash = ?");
  const pruneCodes = store.query("DELETE FROM oauth_codes WHERE expires_at < ?");
  return {
    insertClient: (row: Omit<ClientRow, "authorized_at">) => insertClient.run({ ...row }),
    findClient: (id: string) => client.get(id),
    markAuthorized: (id: string, at: string) => markAuthorized.run(at, id),
    /** Clients registered before `before` that no user ever approved. */
    pruneUnusedClients: async (before: string) => (await pruneUnused.run(before)).changes,

    insertCode: (row: Omit<CodeRow, "used_at" | "token_id">) => insertCode.run({ ...row }),
    findCode: (hash: string) => code.get(hash),
    /** Marks the code used; false when another exchange got there first. */
    consumeCode: async (hash: string, at: string) => (await consume.run(at, hash)).changes > 0,
    setToken: (hash: string, tokenId: string) => setToken.run(tokenId, hash),
    pruneCodes: async (expiredBefore: string) => (await pruneCodes.run(expiredBefore)).changes,
  };
}
export type OAuthRepo = ReturnType<typeof createOAuthRepo>;
