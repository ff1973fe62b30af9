// Builds the Deps a CLI command needs: config, the same database file the server uses, the system clock.
import { loadConfig, type Config } from "../config";
import { openDb } from "../db/open";
import { sqliteStore } from "../db/sqlite-store";
import { refuseDatabaseUrlForNow } from "../db/open-store";
import { noEngines, type Deps } from "../deps";
import { createLogger } from "../lib/log";
import { systemClock } from "../lib/time";
import { join } from "node:path";

export function dbPath(cfg: Readonly<Config>): string {
  return join(cfg.data_dir, "idearepo.db");
}

export function cliDeps(): Deps {
  const config = loadConfig();
  refuseDatabaseUrlForNow(config);
  const db = openDb(dbPath(config), config.durability);
  return { config, db, store: sqliteStore(db), clock: systemClock, log: createLogger("warn"), engines: noEngines() };
}

export const printJson = (v: unknown) => process.stdout.write(JSON.stringify(v) + "\n");
