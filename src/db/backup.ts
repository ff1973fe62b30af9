// The one way idearepo copies its database (CLI `backup`, the operator's download) and where it notes the last copy.
import { Database } from "bun:sqlite";
import { renameSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { fsyncPath, syncDir } from "../lib/durable-file";
import { readAppState, writeAppState } from "./app-state";
import type { Store } from "./store";

const LAST_BACKUP_KEY = "last_backup";

export interface BackupRecord {
  /** Where the copy was written; null for a download (it went to the operator's browser, not a known path). */
  path: string | null;
  created_at: string;
}

/** What the download, `idearepo backup` and `restore` answer on PostgreSQL: its copies are made with its own tools. */
export const POSTGRES_BACKUP_MESSAGE =
  "This instance keeps its data in PostgreSQL: back it up with pg_dump and restore with pg_restore (docs/operations.md, PostgreSQL)";

export { fsyncPath as fsyncFile } from "../lib/durable-file";

/**
 * VACUUM INTO reads the live database inside one read transaction, so the copy is a consistent snapshot even while
 * the server commits (WAL readers never block writers, and the copy includes everything committed to the WAL).
 * It also needs no extension: vec0 tables are copied as their shadow tables. The copy is written beside `target`,
 * synced, optionally checked by `verify`, then renamed (and the rename synced in its folder), so a reader of `target`
 * never sees a half-written file and a power cut leaves the whole copy or none.
 */
export function snapshotDatabase<T>(db: Database, target: string, verify: (file: string) => T): T {
  const partial = `${target}.partial-${process.pid}`;
  try {
    db.query("VACUUM INTO ?").run(partial);
    fsyncPath(partial);
    const checked = verify(partial);
    renameSync(partial, target);
    syncDir(dirname(target));
    return checked;
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
}

/** Notes a finished backup in app_state so the operator's page can say when the last one was taken. */
export async function recordBackup(store: Store, record: BackupRecord): Promise<void> {
  await writeAppState(store, LAST_BACKUP_KEY, record, record.created_at);
}

/** The last copy noted; always null on PostgreSQL, whose copies are pg_dump's and never noted here. */
export function lastBackup(store: Store): Promise<BackupRecord | null> {
  return readAppState<BackupRecord>(store, LAST_BACKUP_KEY);
}

/** quick_check on a copy, on its own read-only connection: a copy that does not pass never gets its name. */
export function verifyCopy(file: string): void {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.query<{ quick_check: string }, []>("PRAGMA quick_check").all().map((r) => r.quick_check);
    if (rows.join("; ") !== "ok") throw new Error(`the copy failed its check: ${rows.slice(0, 3).join("; ")}`);
  } finally {
    db.close();
  }
}
