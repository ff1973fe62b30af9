// The app_state table: small named JSON records (the last backup, scheduled backup runs), through the store.
import type { Store } from "./store";

export async function readAppState<T>(store: Store, key: string): Promise<T | null> {
  const row = await store.query<{ value: string }, [string]>("SELECT value FROM app_state WHERE key = ?").get(key);
  return row ? (JSON.parse(row.value) as T) : null;
}

export async function writeAppState(store: Store, key: string, value: unknown, updatedAt: string): Promise<void> {
  await store.query(
    `INSERT INTO app_state (key, value, updated_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(key, JSON.stringify(value), updatedAt);
}
