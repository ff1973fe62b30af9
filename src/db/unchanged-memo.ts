// Reads remembered only while the SQLite database is unchanged: any committed write, by this process or another, forgets them.
import type { Store } from "./store";

/**
 * A memo that can never serve stale rows. Before each lookup it asks SQLite whether anything was written since the
 * last one: `total_changes()` counts every row this connection inserted, updated or deleted (triggers included), and
 * `data_version` moves whenever another connection (the CLI, a second process) commits. Either moving clears every
 * entry. The question costs two statements that touch no table, far less than the reads it saves: the credential
 * lookups of every API request (docs/performance.md, the list hot path).
 *
 * SQLite only: on a store without `store.sqlite` (PostgreSQL) there is no cheap, certain "nothing changed" to ask —
 * other processes write through their own connections — so nothing is remembered and every call reads.
 *
 * Only for values read from the database alone: anything that depends on the clock must be decided by the caller
 * from the remembered rows on every call. Entries are shared between callers and must not be mutated.
 */
export function createUnchangedMemo<V>(store: Store, maxEntries = 10_000) {
  const db = store.sqlite;
  if (!db) return { get: (_key: string, read: () => Promise<V>): Promise<V> => read() };
  // Two statements, run on the handle itself: they read no table, so they need not wait for another caller's
  // transaction the way the store's statements do. `pragma_data_version` as a table costs twice the PRAGMA itself
  // (7 vs 3.7 µs measured). Not reading the wal-index header out of the -shm file instead (tried: nanoseconds a
  // check): mapping it opens and closes that file, and closing any descriptor of a file drops every POSIX lock the
  // process holds on it, SQLite's included, so the next process to open the database took the index for abandoned
  // and rebuilt it under the server.
  const totalChanges = db.prepare<{ c: number }, []>("SELECT total_changes() AS c");
  const dataVersion = db.prepare<{ data_version: number }, []>("PRAGMA data_version");
  const entries = new Map<string, V>();
  let changes = -1;
  let version = -1;
  return {
    /** The remembered value for `key`, or `read()` (remembered) when the database changed or the key is new. */
    async get(key: string, read: () => Promise<V>): Promise<V> {
      const c = totalChanges.get()!.c;
      const v = dataVersion.get()!.data_version;
      if (c !== changes || v !== version) {
        entries.clear();
        changes = c;
        version = v;
      } else {
        const hit = entries.get(key);
        if (hit !== undefined) return hit;
      }
      const value = await read();
      // The read awaited: if another lookup saw a write meanwhile, this value may predate it, so it is not kept.
      // (A write after this check and before the next is seen by that next check, which clears the entry.)
      if (changes !== c || version !== v) return value;
      // Bounded: credentials of a busy instance are few; a flood of distinct wrong keys must not grow memory.
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, value);
      return value;
    },
  };
}
