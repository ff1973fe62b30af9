// SQL for API keys and MCP tokens (one store, told apart by source).
import type { Db } from "../../db/open";

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

export function createApiKeysRepo(db: Db) {
  const byHash = db.query<ApiKeyRow, [string]>("SELECT * FROM api_keys WHERE key_hash = ?");
  const touch = db.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?");
  return {
    findByHash: (hash: string) => byHash.get(hash),
    insert: (row: ApiKeyRow) =>
      db.query(
        `INSERT INTO api_keys (id, user_id, key_hash, label, scopes, source, last_used_at, created_at)
         VALUES ($id, $user_id, $key_hash, $label, $scopes, $source, $last_used_at, $created_at)`,
      ).run({ ...row }),
    listForUser: (userId: string, source?: "manual" | "mcp") =>
      db.query<Omit<ApiKeyRow, "user_id" | "key_hash">, [string, string | null]>(
        `SELECT ${LIST_COLS} FROM api_keys WHERE user_id = ? AND (?2 IS NULL OR source = ?2) ORDER BY created_at DESC, rowid DESC`,
      ).all(userId, source ?? null),
    deleteForUser: (userId: string, id: string) =>
      db.query("DELETE FROM api_keys WHERE user_id = ? AND id = ?").run(userId, id).changes > 0,
    deleteById: (id: string) => db.query("DELETE FROM api_keys WHERE id = ?").run(id).changes > 0,
    touch: (id: string, at: string) => touch.run(at, id),
  };
}
export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
