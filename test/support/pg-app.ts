// An app on a real PostgreSQL store (a fresh migrated database of the test cluster), shaped like test/helpers' makeApp.
import { loadConfig } from "../../src/config";
import { openDb } from "../../src/db/open";
import { pgStore } from "../../src/db/pg/store";
import { noEngines, type Deps } from "../../src/deps";
import { createApp } from "../../src/app";
import { createLogger } from "../../src/lib/log";
import { makeClock, type MakeAppOptions, type TestApp } from "../helpers";
import { migratedDatabase } from "./postgres";

/**
 * `makeApp`'s app with `deps.store` on PostgreSQL: a database of its own, cloned from the migrated template. The raw
 * SQLite handle (`deps.db`) is an empty in-memory one, as for a server with database.url set, so anything still
 * reading it instead of the store sees nothing. Call requirePostgres() first. `url` is the database's, for tests that
 * read it directly. `url`: an existing database instead (one `idearepo store copy` filled).
 */
export async function makePgApp(opts: Omit<MakeAppOptions, "dbFile"> & { url?: string } = {}): Promise<TestApp & { url: string }> {
  const url = opts.url ?? (await migratedDatabase()).url;
  const config = loadConfig({ IDEAREPO_DATA_DIR: "/tmp/idearepo-test-unused", IDEAREPO_ENV: "test" }, { log_level: "silent", ...opts.config });
  const clock = opts.clock ?? makeClock(opts.now);
  const db = openDb(":memory:", config.durability);
  const log = opts.logs ? createLogger("debug", (l) => opts.logs!.push(l)) : createLogger("silent");
  const store = pgStore(url);
  const deps: Deps = { config, db, store, clock: () => clock.now, log, engines: noEngines() };
  const created = createApp(deps);
  return {
    deps,
    app: created.app,
    handle: (req) => created.app.handle(req),
    close: async () => {
      await created.close();
      await store.close();
      db.close();
    },
    clock,
    url,
  };
}
