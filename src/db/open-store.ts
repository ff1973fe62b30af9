// Which store an instance keeps its data in: the SQLite file (the default) or PostgreSQL (database.url).
import type { Database } from "bun:sqlite";
import type { Config } from "../config";
import { OperatorError } from "../lib/operator-error";
import { migratePg } from "./pg/migrate";
import { pgStore, scrubber } from "./pg/store";
import { sqliteStore } from "./sqlite-store";
import type { Store } from "./store";

/**
 * The store for `config`: SQLite's over `db` when database.url is null; otherwise PostgreSQL's, its migrations applied
 * first (forward-only; a database newer than this build is refused).
 */
export async function openStore(config: Pick<Readonly<Config>, "database">, db: Database): Promise<Store> {
  const url = config.database.url;
  if (url === null) return sqliteStore(db);
  // Checked here rather than by the config schema's pattern, whose message would not say what is expected.
  if (!/^postgres(ql)?:\/\//.test(url)) throw new OperatorError("database.url (IDEAREPO_DATABASE_URL) must be a postgres:// or postgresql:// URL");
  await migratePg(url).catch((e: unknown) => {
    if (e instanceof OperatorError) throw e;
    // The server's own words help the operator; the URL's parts are struck out of them.
    throw new OperatorError(`PostgreSQL (database.url, IDEAREPO_DATABASE_URL) could not be reached or migrated: ${scrubber(url)(String((e as Error)?.message ?? e))}`);
  });
  return pgStore(url);
}
