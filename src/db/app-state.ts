// The app_state table: small named JSON records (the embedding generations, the last backup, scheduled backup runs).
import type { Database } from "bun:sqlite";

export function readAppState<T>(db: Database, key: string): T | null {
  const row = db.query<{ value: string }, [string]>("SELECT value FROM app_state WHERE key = ?").get(key);
  return row ? (JSON.parse(row.value) as T) : null;
}

export function writeAppState(db: Database, key: string, value: unknown, updatedAt: string): void {
  db.query(
    `INSERT INTO app_state (key, value, updated_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(key, JSON.stringify(value), updatedAt);
}
