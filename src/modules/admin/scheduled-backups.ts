// Scheduled verified backups (backup_cron, backup_keep, backup_dir): a snapshot, checked before it counts, then pruning.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../../deps";
import type { ScheduledJob } from "../../jobs/scheduled-job";
import { readAppState, writeAppState } from "../../db/app-state";
import { lastBackup, recordBackup, snapshotDatabase, verifyCopy } from "../../db/backup";
import { syncDir } from "../../lib/durable-file";
import { toStamp } from "../../lib/time";

const NAME = /^idearepo-(\d{8}T\d{6}Z)\.db$/;
const STATUS_KEY = "scheduled_backup";

export interface BackupRun {
  ok: boolean;
  at: string;
  /** The verified copy (ok) … */
  file: string | null;
  /** … or why there is none this time (the older copies were left alone). */
  error: string | null;
}

export interface ScheduledBackups {
  schedule: string | null;
  keep: number;
  dir: string;
  last: BackupRun | null;
  /** Verified copies on disk, newest first. */
  copies: Array<{ file: string; bytes: number; created_at: string }>;
}

export const backupDir = (deps: Deps) => deps.config.backup_dir ?? join(deps.config.data_dir, "backups");

// The last run as this process saw it: kept in memory too, since a run that failed for a failing disk cannot note it.
const lastRuns = new WeakMap<Deps["store"], BackupRun>();

/** Why scheduled copies are not taken on this store, or null: they are copies of the SQLite file. */
const POSTGRES_BACKUPS = "scheduled backups copy the SQLite file; this instance keeps its data in PostgreSQL: back it up with pg_dump";

function copies(dir: string): ScheduledBackups["copies"] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => NAME.test(n))
    .sort()
    .reverse()
    .flatMap((file) => {
      try {
        const s = NAME.exec(file)![1];
        const created = `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)} ${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}`;
        return [{ file: join(dir, file), bytes: statSync(join(dir, file)).size, created_at: created }];
      } catch {
        return []; // removed while we looked
      }
    });
}

/** One scheduled run: snapshot → fsync → quick_check → name; only then are copies beyond backup_keep removed. */
export async function runScheduledBackup(deps: Deps): Promise<BackupRun> {
  const sqlite = deps.store.sqlite;
  if (!sqlite) throw new Error(POSTGRES_BACKUPS); // never scheduled there (enabled below); a direct call is a mistake
  const dir = backupDir(deps);
  const now = deps.clock();
  const at = toStamp(now);
  const file = join(dir, `idearepo-${now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}.db`);
  try {
    mkdirSync(dir, { recursive: true });
    // Leftovers of a run cut short (a crash, a power cut) are never copies: they were not verified.
    for (const n of readdirSync(dir)) if (/^idearepo-.*\.db\.partial-\d+$/.test(n)) rmSync(join(dir, n), { force: true });
    snapshotDatabase(sqlite, file, verifyCopy);
    lastRuns.set(deps.store, { ok: true, at, file, error: null });
    const stale = copies(dir).slice(deps.config.backup_keep);
    for (const c of stale) rmSync(c.file, { force: true });
    if (stale.length) syncDir(dir);
    try {
      await recordBackup(deps.store, { path: file, created_at: at });
    } catch {
      // the copy is safe on disk; only the note is missing
    }
    deps.log.info("scheduled backup verified", { file, removed: stale.length });
  } catch (e) {
    lastRuns.set(deps.store, { ok: false, at, file: null, error: (e as Error).message });
    deps.log.error("scheduled backup failed; earlier copies are kept", { dir, error: (e as Error).message });
  }
  try {
    await writeAppState(deps.store, STATUS_KEY, lastRuns.get(deps.store), at);
  } catch {
    // a failing disk: the in-memory status still reaches the operator's page
  }
  return lastRuns.get(deps.store)!;
}

export async function scheduledBackups(deps: Deps): Promise<ScheduledBackups> {
  // On PostgreSQL no schedule runs (scheduledBackupJob), so none is reported as the schedule.
  if (!deps.store.sqlite) return { schedule: null, keep: deps.config.backup_keep, dir: backupDir(deps), last: null, copies: [] };
  const last = lastRuns.get(deps.store) ?? await readAppState<BackupRun>(deps.store, STATUS_KEY);
  const dir = backupDir(deps);
  return { schedule: deps.config.backup_cron, keep: deps.config.backup_keep, dir, last, copies: copies(dir) };
}

/**
 * The backup files this instance knows of that are on disk now: its scheduled copies, and the path of the last
 * `idearepo backup` (older manual ones, downloads and copies moved elsewhere it cannot know). Said after an account's
 * deletion, since each of them still holds the account.
 */
export async function knownBackupFiles(deps: Deps): Promise<string[]> {
  const files = copies(backupDir(deps)).map((c) => c.file);
  const manual = (await lastBackup(deps.store))?.path;
  if (manual && !files.includes(manual) && existsSync(manual)) files.push(manual);
  return files;
}

export const scheduledBackupJob: ScheduledJob = {
  name: "scheduled-backup",
  enabled: (deps) => {
    if (deps.config.backup_cron === null) return false;
    if (deps.store.sqlite) return true;
    // Said once, when the scheduler starts: a schedule that silently never ran would look like safety.
    deps.log.warn("backup_cron is set but not used", { reason: POSTGRES_BACKUPS });
    return false;
  },
  pattern: (deps) => deps.config.backup_cron ?? "",
  run: async (deps) => void (await runScheduledBackup(deps)),
};
