// The one way idearepo copies its database (CLI `backup`, the operator's download) and where it notes the last copy.
import type { Database } from "bun:sqlite";
import { renameSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { fsyncPath, syncDir } from "../lib/durable-file";

const LAST_BACKUP_KEY = "last_backup";

export interface BackupRecord {
  /** Where the copy was written; null for a download (it went to the operator's browser, not a known path). */
  path: string | null;
  created_at: string;
}

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
export function recordBackup(db: Database, record: BackupRecord): void {
  db.query(
    `INSERT INTO app_state (key, value, updated_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(LAST_BACKUP_KEY, JSON.stringify(record), record.created_at);
}

export function lastBackup(db: Database): BackupRecord | null {
  const row = db.query<{ value: string }, [string]>("SELECT value FROM app_state WHERE key = ?").get(LAST_BACKUP_KEY);
  return row ? (JSON.parse(row.value) as BackupRecord) : null;
}
