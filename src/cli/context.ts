// Builds the Deps a CLI command needs: config, the same database file the server uses, the system clock.
import { loadConfig, type Config } from "../config";
import { openDb } from "../db/open";
import { openStore } from "../db/open-store";
import { noEngines, type Deps } from "../deps";
import { createLogger } from "../lib/log";
import { systemClock } from "../lib/time";
import { join } from "node:path";

export function dbPath(cfg: Readonly<Config>): string {
  return join(cfg.data_dir, "idearepo.db");
}

/**
 * The store the server uses: the data directory's SQLite file, or PostgreSQL when database.url is set (migrated on
 * open, as the server does; the file is then neither opened nor made). The caller closes `deps.store`.
 */
export async function cliDeps(): Promise<Deps> {
  const config = loadConfig();
  const onPg = config.database.url !== null;
  const db = openDb(onPg ? ":memory:" : dbPath(config), config.durability);
  const store = await openStore(config, db);
  return { config, db, store, clock: systemClock, log: createLogger("warn"), engines: noEngines() };
}

export const printJson = (v: unknown) => process.stdout.write(JSON.stringify(v) + "\n");
