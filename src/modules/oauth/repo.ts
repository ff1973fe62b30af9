// SQL for OAuth clients and authorization codes (codes are stored only as SHA-256).
import type { Db } from "../../db/open";

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

export function createOAuthRepo(db: Db) {
  const client = db.query<ClientRow, [string]>("SELECT * FROM oauth_clients WHERE id = ?");
  const code = db.query<CodeRow, [string]>("SELECT * FROM oauth_codes WHERE code_hash = ?");
  return {
    insertClient: (row: Omit<ClientRow, "authorized_at">) =>
      db.query("INSERT INTO oauth_clients (id, client_name, redirect_uris, created_at) VALUES ($id, $client_name, $redirect_uris, $created_at)")
        .run({ ...row }),
    findClient: (id: string) => client.get(id),
    markAuthorized: (id: string, at: string) => db.query("UPDATE oauth_clients SET authorized_at = ? WHERE id = ?").run(at, id),
    /** Clients registered before `before` that no user ever approved. */
    pruneUnusedClients: (before: string) =>
      db.query("DELETE FROM oauth_clients WHERE authorized_at IS NULL AND created_at < ?").run(before).changes,

    insertCode: (row: Omit<CodeRow, "used_at" | "token_id">) =>
      db.query(
        `INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, scopes, expires_at, created_at)
         VALUES ($code_hash, $client_id, $user_id, $redirect_uri, $code_challenge, $scopes, $expires_at, $created_at)`,
      ).run({ ...row }),
    findCode: (hash: string) => code.get(hash),
    /** Marks the code used; false when another exchange got there first. */
    consumeCode: (hash: string, at: string) =>
      db.query("UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL").run(at, hash).changes > 0,
    setToken: (hash: string, tokenId: string) => db.query("UPDATE oauth_codes SET token_id = ? WHERE code_hash = ?").run(tokenId, hash),
    pruneCodes: (expiredBefore: string) => db.query("DELETE FROM oauth_codes WHERE expires_at < ?").run(expiredBefore).changes,
  };
}
export type OAuthRepo = ReturnType<typeof createOAuthRepo>;
