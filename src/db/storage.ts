// Whether the database can take writes: a write refused for lack of space marks storage full until a write succeeds.
import { statfsSync } from "node:fs";
import type { Logger } from "../lib/log";

/** What a client sees when its change could not be saved: nothing was written, and it is not their fault. */
export const STORAGE_FULL_MESSAGE = "Server storage is full; nothing was saved. Try again once space has been freed.";

/** SQLite reports a full disk as SQLITE_FULL; a raw ENOSPC can surface from file writes outside SQLite. */
export function isStorageFull(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  return e.code === "SQLITE_FULL" || e.code === "ENOSPC" || (typeof e.message === "string" && /database or disk is full/.test(e.message));
}

export interface StorageHealth {
  writable: boolean;
  /** Why writes fail, for the operator; null while they work. */
  error: string | null;
  /** Space left for the data dir's file system, in bytes; null when it cannot be read. */
  free_bytes: number | null;
}

export function createStorageMonitor(dataDir: string, log: Logger) {
  let fullSince: Date | null = null;
  return {
    /** Records a failed write; true when it was a full disk (the caller answers with STORAGE_FULL_MESSAGE). */
    failed(error: unknown): boolean {
      if (!isStorageFull(error)) return false;
      // Logged once per episode: every write fails while the disk is full, and the log may share that disk.
      if (!fullSince) log.error("storage full: writes are refused until space is freed", { data_dir: dataDir });
      fullSince ??= new Date();
      return true;
    },
    /** A write went through: space is back (or never ran out). */
    succeeded(): void {
      if (!fullSince) return;
      fullSince = null;
      log.info("storage writable again");
    },
    health(): StorageHealth {
      let free: number | null = null;
      try {
        const s = statfsSync(dataDir);
        free = Number(s.bavail) * Number(s.bsize);
      } catch {
        // data dir not there (in-memory tests) or not readable: unknown rather than an error
      }
      return {
        writable: fullSince === null,
        error: fullSince ? `disk full since ${fullSince.toISOString()}: changes are refused until space is freed` : null,
        free_bytes: free,
      };
    },
  };
}
export type StorageMonitor = ReturnType<typeof createStorageMonitor>;
