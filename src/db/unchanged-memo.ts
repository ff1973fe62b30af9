// Reads remembered only while the database is unchanged: any committed write, by this process or another, forgets them.
import type { Db } from "./open";
import { createCommitWatch } from "./commit-watch";

/**
 * A memo that can never serve stale rows. Before each lookup it asks SQLite whether anything was written since the
 * last one: `total_changes()` counts every row this connection inserted, updated or deleted (triggers included, and
 * before they commit), and the commit watch (commit-watch.ts) notices a commit by any connection, the CLI or a second
 * process included. Either moving clears every entry. The question costs a statement that touches no table and a
 * look at 48 bytes of shared memory, far less than the reads it saves: the credential lookups of every API request
 * (docs/performance.md, the list hot path).
 *
 * Only for values read from the database alone: anything that depends on the clock must be decided by the caller
 * from the remembered rows on every call. Entries are shared between callers and must not be mutated.
 */
export function createUnchangedMemo<V>(db: Db, maxEntries = 10_000) {
  const totalChanges = db.prepare<{ c: number }, []>("SELECT total_changes() AS c");
  const commits = createCommitWatch(db);
  const entries = new Map<string, V>();
  let changes = -1;
  return {
    /** The remembered value for `key`, or `read()` (remembered) when the database changed or the key is new. */
    get(key: string, read: () => V): V {
      const c = totalChanges.get()!.c;
      // Both asked every time: `||` would skip the watch and leave its copy of the header behind.
      const committed = commits.changed();
      if (c !== changes || committed) {
        entries.clear();
        changes = c;
      } else if (entries.has(key)) {
        return entries.get(key)!;
      }
      const value = read();
      // Bounded: credentials of a busy instance are few; a flood of distinct wrong keys must not grow memory.
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, value);
      return value;
    },
  };
}
