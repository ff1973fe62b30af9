// Opens the one SQLite file with the PRAGMAs we rely on and sqlite-vec loaded, then migrates it.
import { Database } from "bun:sqlite";
import * as sqliteVec from "sqlite-vec";
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { migrate } from "./migrate";
import { syncDir } from "../lib/durable-file";

export type Db = Database;

/** The `durability` setting (src/config.ts, docs/reliability.md): what an acknowledged write survives. */
export type Durability = "power-safe" | "crash-safe";

/**
 * WAL + FULL fsyncs the WAL at every commit, so a commit that returned is on stable storage (survives a power cut).
 * WAL + NORMAL syncs only at checkpoints: a commit survives a killed process but the last ones before a power cut
 * may be rolled back (never corrupt). Both sync the WAL before a checkpoint copies it into the database.
 * The server's power-safe mode runs NORMAL plus group commit instead (src/db/durable.ts): each answer waits for one
 * shared fdatasync of the WAL, which is FULL's per-commit sync done once for every commit before it.
 */
export const SYNCHRONOUS: Record<Durability, "FULL" | "NORMAL"> = { "power-safe": "FULL", "crash-safe": "NORMAL" };

/**
 * Whether the server runs power-safe as group commit (NORMAL + src/db/durable.ts) rather than FULL. Not a setting:
 * scripts/bench/durability.ts turns it off to measure FULL beside it in the same run.
 */
export const GROUP_COMMIT = { enabled: true };

let vecPathOverride: string | null = null;
/** The compiled binary writes vec0.so out of its bundle and points us at it (bunfs paths cannot be dlopen'ed). */
export function setVecExtensionPath(path: string): void {
  vecPathOverride = path;
}

/**
 * `groupCommit`: the caller makes every acknowledgement wait for a durability barrier (the server, power-safe), so
 * commits after opening may run NORMAL. Migrations still run FULL: they commit before any barrier exists.
 */
export function openDb(file: string, durability: Durability = "power-safe", opts: { groupCommit?: boolean } = {}): Db {
  const onDisk = file !== ":memory:";
  const madeDir = onDisk ? mkdirSync(dirname(file), { recursive: true }) : undefined;
  const isNew = onDisk && !existsSync(file);
  const db = new Database(file, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(`PRAGMA synchronous = ${SYNCHRONOUS[durability]}`);
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000"); // the CLI may write while the server runs
  db.exec("PRAGMA temp_store = MEMORY");
  db.loadExtension(vecPathOverride ?? sqliteVec.getLoadablePath());
  migrate(db);
  if (opts.groupCommit && durability === "power-safe" && onDisk) db.exec("PRAGMA synchronous = NORMAL");
  if (isNew && durability === "power-safe") {
    // SQLite syncs the directory when it creates the WAL, not when it creates the database file itself: without
    // this, a power cut soon after the first start could lose the file's name and with it every commit inside.
    if (madeDir) syncDir(dirname(madeDir));
    syncDir(dirname(file));
  }
  return db;
}
