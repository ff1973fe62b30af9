// Notices commits to the database by any connection or process, the way SQLite's own readers do: the wal-index header.
import type { Db } from "./open";

/** `iVersion` of the wal-index header SQLite has written since 3.7.0 (https://www.sqlite.org/walformat.html). */
const WALINDEX_VERSION = 3_007_000;
/** The header's first copy: 48 bytes, native byte order (the wal-index is never shared between machines). */
const HEADER_WORDS = 12;

export interface CommitWatch {
  /**
   * True when anything may have been written since the previous call (always on the first): a commit by any
   * connection, this one included. Changes of a transaction still open on `db` are not seen: check `db.inTransaction`.
   */
  changed(): boolean;
  /** "wal-index" or "pragma": how commits are noticed (for tests and docs). */
  readonly via: "wal-index" | "pragma";
}

/**
 * Every commit in WAL mode rewrites the wal-index header in the `-shm` file: its change counter (`iChange`, "incremented
 * with each transaction"), the last valid frame and, when the log restarts, the salts. SQLite's readers compare this
 * header with the copy they kept to learn whether another connection committed; this does the same from a shared
 * mapping of the file's first page. Reading 48 bytes costs nanoseconds, where `PRAGMA data_version` opens a read
 * transaction to answer the same question (~3 µs, two lock calls; docs/performance.md, the list hot path).
 *
 * The mapping stays valid while `db` is open: SQLite truncates the file (to 3 bytes, never below the first page) only
 * when the first connection of the whole system opens it, and deletes it only when the last one closes, and `db` is
 * one of them. When the header cannot be used (an in-memory database, another journal or locking mode, a `-shm` that
 * cannot be mapped or that does not look like a wal-index), `PRAGMA data_version` answers for other connections
 * and `total_changes()` for this one (the version moves only for the others' commits).
 */
export function createCommitWatch(db: Db): CommitWatch {
  const header = mapHeader(db);
  if (header === null) {
    const dataVersion = db.prepare<{ data_version: number }, []>("PRAGMA data_version");
    const totalChanges = db.prepare<{ c: number }, []>("SELECT total_changes() AS c");
    let version = -1;
    let changes = -1;
    return {
      via: "pragma",
      changed() {
        const v = dataVersion.get()!.data_version;
        const c = totalChanges.get()!.c;
        if (v === version && c === changes) return false;
        version = v;
        changes = c;
        return true;
      },
    };
  }
  const seen = new Uint32Array(HEADER_WORDS);
  let first = true;
  return {
    via: "wal-index",
    changed() {
      let moved = first;
      first = false;
      for (let i = 0; i < HEADER_WORDS; i++) {
        if (header[i] !== seen[i]) {
          seen[i] = header[i];
          moved = true;
        }
      }
      return moved;
    },
  };
}

function mapHeader(db: Db): Uint32Array | null {
  const file = db.filename;
  if (!file || file === ":memory:") return null;
  const journal = db.prepare<{ journal_mode: string }, []>("PRAGMA journal_mode").get()?.journal_mode;
  const locking = db.prepare<{ locking_mode: string }, []>("PRAGMA locking_mode").get()?.locking_mode;
  // Exclusive locking keeps the wal-index in heap memory: the file would never move.
  if (journal !== "wal" || locking !== "normal") return null;
  db.prepare("SELECT count(*) FROM sqlite_master").get(); // a read makes sure the wal-index exists and is initialised
  let bytes: Uint8Array;
  try {
    bytes = Bun.mmap(`${file}-shm`, { shared: true, size: HEADER_WORDS * 4 });
  } catch {
    return null;
  }
  if (bytes.byteLength < HEADER_WORDS * 4) return null;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS);
  // isInit (byte 12) is 1 once a connection has built the index.
  return words[0] === WALINDEX_VERSION && bytes[12] === 1 ? words : null;
}
