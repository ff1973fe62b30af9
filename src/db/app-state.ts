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

/**
 * The record under `key`, written first as `value` when there is none: every process that asks gets the same one,
 * whichever wrote it (nodes on one PostgreSQL database agreeing on a shared secret).
 */
export async function claimAppState<T>(store: Store, key: string, value: T, updatedAt: string): Promise<T> {
  await store.query("INSERT INTO app_state (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT (key) DO NOTHING")
    .run(key, JSON.stringify(value), updatedAt);
  return (await readAppState<T>(store, key))!;
}
