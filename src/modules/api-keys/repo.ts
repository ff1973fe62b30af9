// SQL for API keys and MCP tokens (one store, told apart by source).
import type { Store } from "../../db/store";

export interface ApiKeyRow {
  id: string;
  user_id: string;
  key_hash: string;
  label: string;
  scopes: string | null;
  source: "manual" | "mcp";
  last_used_at: string | null;
  created_at: string;
}

const LIST_COLS = "id, label, scopes, source, last_used_at, created_at";

export function createApiKeysRepo(store: Store) {
  const byHash = store.query<ApiKeyRow, [string]>("SELECT * FROM api_keys WHERE key_hash = ?");
  const touch = store.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?");
  const insert = store.query(
    `INSERT INTO api_keys (id, user_id, key_hash, label, scopes, source, last_used_at, created_at)
     VALUES ($id, $user_id, $key_hash, $label, $scopes, $source, $last_used_at, $created_at)`,
  );
  const list = store.query<Omit<ApiKeyRow, "user_id" | "key_hash">, [string, string | null]>(
    `SELECT ${LIST_COLS} FROM api_keys WHERE user_id = ?1 AND (?2 IS NULL OR source = ?2) ORDER BY created_at DESC, rowid DESC`,
  );
  const delForUser = store.query("DELETE FROM api_keys WHERE user_id = ? AND id = ?");
  const delById = store.query("DELETE FROM api_keys WHERE id = ?");
  return {
    findByHash: (hash: string) => byHash.get(hash),
    insert: (row: ApiKeyRow) => insert.run({ ...row }),
    listForUser: (userId: string, source?: "manual" | "mcp") => list.all(userId, source ?? null),
    deleteForUser: async (userId: string, id: string) => (await delForUser.run(userId, id)).changes > 0,
    deleteById: async (id: string) => (await delById.run(id)).changes > 0,
    touch: (id: string, at: string) => touch.run(at, id),
  };
}
export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
