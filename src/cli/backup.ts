// `backup FILE` (consistent online copy, safe while the server runs and writes) and `restore FILE` (server stopped).
import { Database } from "bun:sqlite";
import { existsSync, renameSync, statSync, copyFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { loadConfig, type Config } from "../config";
import { MIGRATIONS } from "../db/migrations";
import { fsyncFile, POSTGRES_BACKUP_MESSAGE, recordBackup, snapshotDatabase } from "../db/backup";
import { sqliteStore } from "../db/sqlite-store";
import { OperatorError } from "../lib/operator-error";
import { syncDir } from "../lib/durable-file";
import { liveServerPid } from "../lib/pid-file";
import { systemClock, toStamp } from "../lib/time";
import { parseArgs, rejectUnknown, UsageError } from "./args";
import { dbPath, printJson } from "./context";
import type { CliCommand } from "./command";

const LATEST = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

interface Summary { schema_version: number; users: number; ideas: number }

/** Opens a file read-only and checks it is an intact idearepo database; returns what it holds. */
function inspect(file: string): Summary {
  let db: Database;
  try {
    db = new Database(file, { readonly: true });
  } catch (e) {
    throw new UsageError(`${file} cannot be opened as a database: ${(e as Error).message}`);
  }
  try {
    const check = db.query<{ quick_check: string }, []>("PRAGMA quick_check").get();
    if (check?.quick_check !== "ok") throw new UsageError(`${file} is damaged: ${check?.quick_check}`);
    const version = db.query<{ user_version: number }, []>("PRAGMA user_version").get()!.user_version;
    const count = (table: string) => db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
    return { schema_version: version, users: count("users"), ideas: count("ideas") };
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${file} is not an idearepo database: ${(e as Error).message}`);
  } finally {
    db.close();
  }
}

/** The CLI's copy: its own read-only connection, the shared snapshot, an integrity check, then a note in app_state. */
export async function backupTo(dataFile: string, target: string): Promise<Summary & { file: string; bytes: number; ms: number }> {
  const t0 = performance.now();
  if (!existsSync(dataFile)) throw new UsageError(`No database at ${dataFile} (check IDEAREPO_DATA_DIR)`);
  if (existsSync(target)) throw new UsageError(`${target} already exists; choose a new file name`);
  if (!existsSync(dirname(target))) throw new UsageError(`Folder ${dirname(target)} does not exist`);
  const db = new Database(dataFile, { readonly: true });
  let summary: Summary;
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    summary = snapshotDatabase(db, target, inspect);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`Backup failed: ${(e as Error).message}`);
  } finally {
    db.close();
  }
  await noteBackup(dataFile, target);
  return { file: target, bytes: statSync(target).size, ...summary, ms: Math.round(performance.now() - t0) };
}

// Best effort: the copy is already safe on disk, and a read-only data dir must not turn a good backup into an error.
async function noteBackup(dataFile: string, target: string): Promise<void> {
  try {
    const db = new Database(dataFile);
    try {
      db.exec("PRAGMA busy_timeout = 5000");
      await recordBackup(sqliteStore(db), { path: target, created_at: toStamp(systemClock()) });
    } finally {
      db.close();
    }
  } catch {
    // the operator's page will show an older backup (or none); nothing else depends on the note
  }
}

/**
 * Replaces the data dir's database with a backup. The current database (with its WAL, which may hold committed
 * transactions) is kept beside it as idearepo.db.pre-restore-<stamp>, so a mistaken restore can be undone by hand.
 */
export function restoreFrom(cfg: Readonly<Config>, source: string, force: boolean) {
  const dataDir = cfg.data_dir;
  const live = liveServerPid(dataDir);
  if (live !== null && !force) {
    throw new UsageError(`An idearepo server (pid ${live}) is using ${dataDir}; stop it before restoring (or pass --force if that process is not idearepo)`);
  }
  if (!existsSync(source)) throw new UsageError(`${source} does not exist`);
  const summary = inspect(source);
  if (summary.schema_version > LATEST) {
    throw new UsageError(`${source} comes from a newer idearepo (schema ${summary.schema_version}, this build knows ${LATEST}); upgrade idearepo first`);
  }
  const target = dbPath(cfg);
  const incoming = `${target}.restoring-${process.pid}`;
  copyFileSync(source, incoming);
  fsyncFile(incoming);
  let previous: string | null = null;
  if (existsSync(target)) {
    previous = `${target}.pre-restore-${toStamp(systemClock()).replace(/[- :]/g, "")}`;
    for (const suffix of ["", "-wal", "-shm"]) {
      if (existsSync(target + suffix)) renameSync(target + suffix, previous + suffix);
    }
  }
  // No -wal/-shm of the old database may remain next to the restored file: SQLite would replay them into it.
  renameSync(incoming, target);
  syncDir(dirname(target)); // the renames above are durable before we say the restore happened
  return { restored: source, database: target, previous, ...summary };
}

/**
 * Both commands copy the SQLite file, which on a PostgreSQL instance holds none of its data: copying it would hand the
 * operator an empty backup that looks like a good one, and restoring it would change nothing. One line, exit 2.
 */
function refuseOnPostgres(cfg: Readonly<Config>): void {
  if (cfg.database.url !== null) throw new OperatorError(POSTGRES_BACKUP_MESSAGE);
}

export const backupCommand: CliCommand = {
  async run(argv) {
    const p = parseArgs(argv);
    rejectUnknown(p, []);
    if (p.positionals.length !== 1) throw new UsageError("Usage: idearepo backup FILE");
    const cfg = loadConfig();
    refuseOnPostgres(cfg);
    printJson(await backupTo(dbPath(cfg), resolve(p.positionals[0])));
  },
};

export const restoreCommand: CliCommand = {
  async run(argv) {
    const p = parseArgs(argv, ["force"]);
    rejectUnknown(p, ["force"]);
    if (p.positionals.length !== 1) throw new UsageError("Usage: idearepo restore FILE [--force]");
    const cfg = loadConfig();
    refuseOnPostgres(cfg);
    printJson(restoreFrom(cfg, resolve(p.positionals[0]), p.flags.force === true));
  },
};
