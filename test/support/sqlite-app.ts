// An app on the SQLite store whatever IDEAREPO_TEST_STORE says, shaped like test/helpers' makeApp: the other side of
// the tests that compare the two stores (makePgApp is PostgreSQL's).
import { loadConfig } from "../../src/config";
import { openDb } from "../../src/db/open";
import { sqliteStore } from "../../src/db/sqlite-store";
import { noEngines, type Deps } from "../../src/deps";
import { createApp } from "../../src/app";
import { createLogger } from "../../src/lib/log";
import { makeClock, type MakeAppOptions, type TestApp } from "../helpers";

export function makeSqliteApp(opts: Omit<MakeAppOptions, "dbFile"> = {}): TestApp {
  const config = loadConfig({ IDEAREPO_DATA_DIR: "/tmp/idearepo-test-unused", IDEAREPO_ENV: "test" }, { log_level: "silent", ...opts.config });
  const clock = opts.clock ?? makeClock(opts.now);
  const db = openDb(":memory:", config.durability);
  const log = opts.logs ? createLogger("debug", (l) => opts.logs!.push(l)) : createLogger("silent");
  const deps: Deps = { config, db, store: sqliteStore(db), clock: () => clock.now, log, engines: noEngines() };
  const created = createApp(deps);
  return {
    deps,
    app: created.app,
    handle: (req) => created.app.handle(req),
    close: async () => {
      await created.close();
      db.close();
    },
    clock,
  };
}
