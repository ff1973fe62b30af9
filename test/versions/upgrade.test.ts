// Migration 0020 on a database made by the previous schema: existing ideas start their history at their current text.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations";
import { call, makeApp, makeUser } from "../helpers";
import { testStore } from "../support/postgres";

// SQLite's own upgrade path (a file of schema 19 migrated forward): PostgreSQL's schema started with versions.
test.skipIf(testStore() === "postgres")("an upgraded database gives each existing idea version 1 (its text, dated by updated_at); the next edit is 2", async () => {
  const dir = mkdtempSync(join(tmpdir(), "idearepo-versions-"));
  try {
    const file = join(dir, "idearepo.db");
    const old = new Database(file, { create: true, strict: true });
    for (const m of MIGRATIONS.filter((x) => x.version <= 19)) old.exec(m.sql);
    old.exec("PRAGMA user_version = 19");
    old.query("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES ('u-old', 'old@example.com', 'o', ?1, ?1)").run("2026-01-01 00:00:00");
    old.query("INSERT INTO ideas (user_id, number, title, body, source, created_at, updated_at) VALUES ('u-old', 1, 'Old idea', 'old text', 'email', ?1, ?2)")
      .run("2026-01-01 00:00:00", "2026-01-03 00:00:00");
    old.close();

    const app = makeApp({ dbFile: file, now: "2026-02-01T00:00:00Z" });
    try {
      const u = await makeUser(app);
      app.deps.db.query("UPDATE ideas SET user_id = ? WHERE user_id = 'u-old'").run(u.id);
      const id = (app.deps.db.query("SELECT id FROM ideas WHERE title = 'Old idea'").get() as { id: number }).id;
      await call(app, "PATCH", `/ideas/${id}`, { key: u.key, body: { body: "new text" } });
      const r = await call(app, "GET", `/ideas/${id}/versions`, { key: u.key });
      expect(r.body.versions).toEqual([
        { version: 2, title: "Old idea", body: "new text", writer: "api", created_at: "2026-02-01 00:00:00" },
        { version: 1, title: "Old idea", body: "old text", writer: "email", created_at: "2026-01-03 00:00:00" },
      ]);
    } finally {
      app.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
