// The app built on a PostgreSQL store (test/support/pg-app.ts): a capture is read back through the API from there.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { call, makeUser, type TestApp } from "../helpers";
import { makePgApp } from "../support/pg-app";
import { migratedDatabase, requirePostgres } from "../support/postgres";

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

describe.skipIf(!run)("a statement PostgreSQL refuses", () => {
  test("is a 500 in the spec's shape, logged with its cause and SQLSTATE, never the connection URL", async () => {
    const { url } = await migratedDatabase();
    const admin = new SQL({ url, max: 1 });
    // A lock the app's statement cannot get in time: PostgreSQL cancels it (55P03), a fault the app has no words for.
    await admin.unsafe(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET lock_timeout = '200ms'`);
    const logs: string[] = [];
    const t = await makePgApp({ url, logs });
    const holder = await admin.reserve();
    try {
      const u = await makeUser(t, { plan: "pro" });
      await holder.unsafe("BEGIN");
      await holder.unsafe("LOCK TABLE tags IN ACCESS EXCLUSIVE MODE");
      const r = await call(t, "POST", "/tags", { key: u.key, body: { name: "locked out" } });
      expect({ status: r.status, body: r.body }).toEqual({ status: 500, body: { error: "Internal server error" } });
      const line = logs.map((l) => JSON.parse(l)).find((l) => l.msg === "unhandled error");
      expect(line).toMatchObject({ level: "error", method: "POST", path: "/api/v1/tags", sql_state: "55P03", error: expect.stringMatching(/lock timeout/) });
      const password = decodeURIComponent(new URL(url).password);
      expect(logs.some((l) => l.includes(url) || l.includes(password))).toBe(false);
    } finally {
      await holder.unsafe("ROLLBACK").catch(() => {});
      holder.release();
      await admin.close();
      await t.close();
    }
  }, 30_000);
});
