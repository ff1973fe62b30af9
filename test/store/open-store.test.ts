// database.url picks the store: PostgreSQL's, migrated on open, or SQLite's when unset; the URL is a secret throughout.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { loadConfig } from "../../src/config";
import { openStore } from "../../src/db/open-store";
import { PG_MIGRATIONS } from "../../src/db/pg/migrations";
import { OperatorError } from "../../src/lib/operator-error";
import { runCli, tempDir } from "../cli";
import { freshDatabase, requirePostgres, testCluster } from "../support/postgres";

const run = requirePostgres();
const dir = tempDir("idearepo-open-store-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("database.url", () => {
  test("unset, the store is SQLite's over the data directory's file, as before", async () => {
    const config = loadConfig({ IDEAREPO_DATA_DIR: dir });
    expect(config.database.url).toBeNull();
    const store = await openStore(config, new Database(":memory:"));
    expect(store.dialect).toBe("sqlite");
    await store.close();
  });

  test("a value that is not a postgres:// URL is refused without being repeated", async () => {
    const config = loadConfig({ IDEAREPO_DATA_DIR: dir, IDEAREPO_DATABASE_URL: "mysql://app:hunter2-secret@db/ideas" });
    const e = await openStore(config, new Database(":memory:")).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(OperatorError);
    expect((e as Error).message).toContain("IDEAREPO_DATABASE_URL");
    expect((e as Error).message).not.toContain("hunter2-secret");
  });

  test.skipIf(!run)("set, the store is PostgreSQL's, migrated to this build's version once however often it opens", async () => {
    const { url } = await freshDatabase();
    const config = loadConfig({ IDEAREPO_DATA_DIR: dir, IDEAREPO_DATABASE_URL: url });
    expect(config.database.url).toBe(url);
    for (let i = 0; i < 2; i++) {
      const store = await openStore(config, new Database(":memory:"));
      expect(store.dialect).toBe("postgres");
      const rows = await store.query<{ version: number }>("SELECT version FROM idearepo_schema").all();
      expect(rows).toEqual([{ version: PG_MIGRATIONS.at(-1)!.version }]);
      await store.close();
    }
  });

  test.skipIf(!run)("a server that refuses the login is an operator's one line, without the password", async () => {
    const c = testCluster();
    const { url } = await freshDatabase();
    const wrong = url.replace(c.password, "wrong-password-1234");
    const e = await openStore({ database: { url: wrong } }, new Database(":memory:")).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(OperatorError);
    expect((e as Error).message).toContain("database.url");
    expect((e as Error).message).not.toContain("wrong-password-1234");
  });

  test("a PostgreSQL the CLI cannot reach is one line naming the setting, exit 2, without the password", () => {
    const r = runCli(["users", "list"], { dataDir: dir, env: { IDEAREPO_DATABASE_URL: "postgres://app:hunter2-secret@127.0.0.1:1/ideas" } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("IDEAREPO_DATABASE_URL");
    expect(r.stderr).not.toContain("hunter2-secret");
  });
});
