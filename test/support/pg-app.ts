// An app on a real PostgreSQL store (a fresh migrated database of the test cluster), whatever IDEAREPO_TEST_STORE says.
import { makeApp, type MakeAppOptions, type TestApp } from "../helpers";
import { migratedDatabase } from "./postgres";

/**
 * `makeApp`'s app with `deps.store` on PostgreSQL: a database of its own, cloned from the migrated template. The raw
 * SQLite handle (`deps.db`) is an empty in-memory one, as for a server with database.url set, so anything still
 * reading it instead of the store sees nothing. Call requirePostgres() first. `url` is the database's, for tests that
 * read it directly. `url`: an existing database instead (one `idearepo store copy` filled).
 */
export async function makePgApp(opts: Omit<MakeAppOptions, "dbFile" | "store" | "pgUrl"> & { url?: string } = {}): Promise<TestApp & { url: string }> {
  const url = opts.url ?? (await migratedDatabase()).url;
  return { ...makeApp({ ...opts, store: "postgres", pgUrl: url }), url };
}
