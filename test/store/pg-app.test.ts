// The app built on a PostgreSQL store (test/support/pg-app.ts): a capture is read back through the API from there.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { call, makeUser, type TestApp } from "../helpers";
import { makePgApp } from "../support/pg-app";
import { requirePostgres } from "../support/postgres";

const run = requirePostgres();

describe.skipIf(!run)("an app on PostgreSQL", () => {
  let t: TestApp & { url: string };
  beforeAll(async () => {
    t = await makePgApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  test("an idea captured over HTTP is stored in PostgreSQL and read back", async () => {
    const u = await makeUser(t);
    const made = await call(t, "POST", "/ideas", { key: u.key, body: { title: "Stored in PostgreSQL" } });
    expect(made.status).toBe(201);
    const read = await call(t, "GET", `/ideas/${made.body.id}`, { key: u.key });
    expect(read.body.title).toBe("Stored in PostgreSQL");
    const sql = new SQL({ url: t.url, max: 1 });
    try {
      const rows = await sql.unsafe("SELECT title FROM ideas WHERE id = $1", [made.body.id]);
      expect(rows[0].title).toBe("Stored in PostgreSQL");
    } finally {
      await sql.close();
    }
  });
});
