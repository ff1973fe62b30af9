// Reads remembered only while the database is unchanged: any committed write, by this process or another, forgets them.
import type { Db } from "./open";
import { createCommitWatch } from "./commit-watch";

/**
 * A memo that can never serve stale rows. Before each lookup it asks whether anything was written since the last
 * one: the commit watch (commit-watch.ts) notices a commit by any connection, this one, the CLI or a second process,
 * and clears every entry. Inside a transaction still open on `db` nothing is remembered or served from memory, since
 * its changes are not committed yet. The question costs a look at 48 bytes of shared memory, far less than the reads
 * it saves: the credential lookups of every API request (docs/performance.md, the list hot path).
 *
 * Only for values read from the database alone: anything that depends on the clock must be decided by the caller
 * from the remembered rows on every call. Entries are shared between callers and must not be mutated.
 */
export function createUnchangedMemo<V>(db: Db, maxEntries = 10_000) {
  const commits = createCommitWatch(db);
  const entries = new Map<string, V>();
  return {
    /** The remembered value for `key`, or `read()` (remembered) when the database changed or the key is new. */
    get(key: string, read: () => V): V {
      if (db.inTransaction) return read();
      if (commits.changed()) entries.clear();
      else if (entries.has(key)) {
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
