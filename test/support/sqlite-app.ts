// An app on the SQLite store whatever IDEAREPO_TEST_STORE says: the other side of the tests that compare the two
// stores (makePgApp is PostgreSQL's).
import { makeApp, type MakeAppOptions, type TestApp } from "../helpers";

export const makeSqliteApp = (opts: Omit<MakeAppOptions, "dbFile" | "store" | "pgUrl"> = {}): TestApp => makeApp({ ...opts, store: "sqlite" });
