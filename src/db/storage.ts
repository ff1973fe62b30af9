// Whether the database can take writes: a write refused by the storage (full disk, I/O error) marks it failing until a write succeeds.
import { statfsSync } from "node:fs";
import type { Logger } from "../lib/log";

/** What a client sees when its change could not be saved: nothing was written, and it is not their fault. */
export const STORAGE_FULL_MESSAGE = "Server storage is full; nothing was saved. Try again once space has been freed.";
export const STORAGE_IO_MESSAGE = "Server storage failed to write; nothing was saved. Try again later.";

/** SQLite reports a full disk as SQLITE_FULL; a raw ENOSPC can surface from file writes outside SQLite. */
export function isStorageFull(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  return e.code === "SQLITE_FULL" || e.code === "ENOSPC" || (typeof e.message === "string" && /database or disk is full/.test(e.message));
}

/**
 * The storage refused a read or write: SQLite's SQLITE_IOERR_* family (write, fsync, lock, …), or a raw EIO; also
 * SQLITE_READONLY, which is how writes are refused while a failed WAL sync is repaired (src/db/durable.ts) and what a
 * database file or folder the server may not write gives.
 */
export function isStorageIoError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  return (typeof e.code === "string" && (e.code.startsWith("SQLITE_IOERR") || e.code.startsWith("SQLITE_READONLY") || e.code === "EIO" || e.code === "SQLITE_CANTOPEN")) ||
    (typeof e.message === "string" && /disk I\/O error/.test(e.message));
}

/** Either way the storage, not the request or the job, is at fault: nothing was written, and trying later may work. */
export const isStorageFault = (error: unknown) => isStorageFull(error) || isStorageIoError(error);

export interface StorageHealth {
  writable: boolean;
  /** Why writes fail, for the operator; null while they work. */
  error: string | null;
  /** Space left for the data dir's file system, in bytes; null when it cannot be read. */
  free_bytes: number | null;
}

/** A storage that fails now and then must not fill the log (which may share its disk): one line per kind and minute. */
const LOG_EVERY_MS = 60_000;

export function createStorageMonitor(dataDir: string, log: Logger) {
  let failing: { since: Date; kind: "full" | "io"; code: string; logged: boolean } | null = null;
  const lastLogged = { full: 0, io: 0 };
  return {
    /** Records a failed write; the message to answer with when the storage was at fault, else null (a bug). */
    failed(error: unknown): string | null {
      const kind = isStorageFull(error) ? "full" : isStorageIoError(error) ? "io" : null;
      if (!kind) return null;
      const code = String((error as { code?: unknown }).code ?? "EIO");
      // Logged once per episode, and at most once a minute per kind: every write fails meanwhile, and a storage
      // that fails one write in three flips between failing and working many times a second.
      if (failing?.kind !== kind) {
        const now = Date.now();
        const logged = now - lastLogged[kind] >= LOG_EVERY_MS;
        if (logged) {
          lastLogged[kind] = now;
          if (kind === "full") log.error("storage full: writes are refused until space is freed", { data_dir: dataDir });
          else log.error("storage I/O error: writes are refused until the storage works again", { data_dir: dataDir, code });
        }
        failing = { since: new Date(), kind, code, logged };
      }
      return kind === "full" ? STORAGE_FULL_MESSAGE : STORAGE_IO_MESSAGE;
    },
    /** A write went through: the storage works (again, or all along). */
    succeeded(): void {
      if (!failing) return;
      if (failing.logged) log.info("storage writable again");
      failing = null;
    },
    health(): StorageHealth {
      let free: number | null = null;
      try {
        const s = statfsSync(dataDir);
        free = Number(s.bavail) * Number(s.bsize);
      } catch {
        // data dir not there (in-memory tests) or not readable: unknown rather than an error
      }
      const since = failing?.since.toISOString();
      return {
        writable: failing === null,
        error: !failing
          ? null
          : failing.kind === "full"
            ? `disk full since ${since}: changes are refused until space is freed`
            : `I/O error since ${since} (${failing.code}): the storage refused a write; changes fail until it works again`,
        free_bytes: free,
      };
    },
  };
}
export type StorageMonitor = ReturnType<typeof createStorageMonitor>;
