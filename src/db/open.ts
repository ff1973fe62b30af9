// Opens the one SQLite file with the PRAGMAs we rely on and sqlite-vec loaded, then migrates it.
import { Database } from "bun:sqlite";
import * as sqliteVec from "sqlite-vec";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { migrate } from "./migrate";

export type Db = Database;

let vecPathOverride: string | null = null;
/** The compiled binary writes vec0.so out of its bundle and points us at it (bunfs paths cannot be dlopen'ed). */
export function setVecExtensionPath(path: string): void {
  vecPathOverride = path;
}

export function openDb(file: string): Db {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL"); // WAL + NORMAL: durable across process crashes, fast commits
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000"); // the CLI may write while the server runs
  db.exec("PRAGMA temp_store = MEMORY");
  db.loadExtension(vecPathOverride ?? sqliteVec.getLoadablePath());
  migrate(db);
  return db;
}
