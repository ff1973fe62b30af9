// The app_state table: small named JSON records (the embedding generations, the last backup, scheduled backup runs).
import type { Database } from "bun:sqlite";
import type { Store } from "./store";

const READ = "SELECT value FROM app_state WHERE key = ?";
const WRITE = `INSERT INTO app_state (key, value, updated_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;

const isStore = (h: Store | Database): h is Store => "dialect" in h;

/**
 * Through the store (awaited), or on the raw SQLite handle (at once) for the vector code that still holds it
 * (vectors/generations.ts): one table, one pair of statements, either way.
 */
export function readAppState<T>(store: Store, key: string): Promise<T | null>;
export function readAppState<T>(db: Database, key: string): T | null;
export function readAppState<T>(h: Store | Database, key: string): Promise<T | null> | T | null {
  const parse = (row: { value: string } | null) => (row ? (JSON.parse(row.value) as T) : null);
  if (isStore(h)) return h.query<{ value: string }, [string]>(READ).get(key).then(parse);
  return parse(h.query<{ value: string }, [string]>(READ).get(key));
}

export function writeAppState(store: Store, key: string, value: unknown, updatedAt: string): Promise<void>;
export function writeAppState(db: Database, key: string, value: unknown, updatedAt: string): void;
export function writeAppState(h: Store | Database, key: string, value: unknown, updatedAt: string): Promise<void> | void {
  if (isStore(h)) return h.query(WRITE).run(key, JSON.stringify(value), updatedAt).then(() => undefined);
  h.query(WRITE).run(key, JSON.stringify(value), updatedAt);
}
