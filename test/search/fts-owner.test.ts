// The keyword index restricted to the account inside FTS5 (migrations/0018): each account finds only its own ideas,
// an owner token is never a searchable word, edits and moves follow, rankings equal bm25() over the whole index, and
// a database made by the previous schema upgrades in place with its ideas found by their owners.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations";
import { call, makeApp, makeUser, type TestApp, type TestUser } from "../helpers";
import { testStore } from "../support/postgres";
import { capture, search } from "../pipeline-helpers";

const ids = (r: { body: any }) => (r.body.results as Array<{ id: number }>).map((x) => x.id);
const titles = (r: { body: any }) => (r.body.results as Array<{ title: string }>).map((x) => x.title);
const hexOf = (s: string) => Buffer.from(s, "utf8").toString("hex");

describe("keyword search restricted to the account inside the index", () => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;
  beforeAll(async () => {
    t = makeApp();
    a = await makeUser(t, { plan: "pro" });
    b = await makeUser(t, { plan: "pro" });
  });
  afterAll(() => t.close());

  test("a word common to many accounts finds only the caller's ideas, best bm25() first", async () => {
    const others = await Promise.all([0, 1, 2].map(() => makeUser(t, { plan: "pro" })));
    for (const [i, u] of others.entries()) for (let k = 0; k < 15; k++) await capture(t, u, { title: `lantern lantern note ${i} ${k}` });
    const mine = [
      await capture(t, a, { title: "Lantern festival", body: "paper lantern with a candle" }),
      await capture(t, a, { title: "Camping list", body: "tent, stove, lantern" }),
      await capture(t, a, { title: "Lantern", body: "" }),
    ];
    const r = await search(t, a, { mode: "keyword", q: "lantern", limit: 10 });
    expect(r.status).toBe(200);
    expect(ids(r).sort()).toEqual([...mine].sort());
    // The order is compared with FTS5's own bm25() on SQLite; on PostgreSQL test/search/stores-parity.test.ts holds
    // the index's order to it, and the restriction to the account is checked here on both.
    if (testStore() === "sqlite") {
      const want = t.deps.db
        .query<{ id: number }, [string]>(
          `SELECT f.rowid AS id FROM ideas_fts f JOIN ideas i ON i.id = f.rowid
           WHERE ideas_fts MATCH '"lantern"' AND i.user_id = ?1 ORDER BY bm25(ideas_fts, 2.0, 1.0), f.rowid`,
        )
        .all(a.id)
        .map((x) => x.id);
      expect(ids(r)).toEqual(want);
    }
    // Every word stays inside the restriction: others' ideas hold both words, none comes back.
    expect(ids(await search(t, a, { mode: "keyword", q: "note lantern", limit: 50 })).sort()).toEqual([...mine].sort());
    for (const mode of ["and", "exact"]) {
      const m = await search(t, a, { mode: "keyword", q: "paper lantern", fts_mode: mode });
      expect(ids(m)).toEqual([mine[0]]);
    }
  });

  test("an account's owner token is not a word anyone can find", async () => {
    await capture(t, b, { title: "Quiet owner check" });
    for (const [who, token] of [[a, `o${hexOf(b.id)}`], [b, `o${hexOf(b.id)}`], [b, `o${hexOf(a.id)}`]] as const) {
      for (const fts_mode of ["or", "and", "exact"]) {
        const r = await search(t, who, { mode: "keyword", q: token, fts_mode });
        expect(r.status).toBe(200);
        expect(r.body.results).toEqual([]);
      }
      const semantic = await search(t, who, { mode: "semantic", q: `${token} quiet` });
      expect(semantic.status).toBe(200);
    }
    // The word itself, in the text, is found like any other word, and only by its owner.
    const token = `o${hexOf(a.id)}`;
    const id = await capture(t, b, { title: `A note naming ${token}` });
    expect(ids(await search(t, b, { mode: "keyword", q: token }))).toEqual([id]);
    expect(ids(await search(t, a, { mode: "keyword", q: token }))).toEqual([]);
  });

  test("an edit, an archive and a move to another account are followed", async () => {
    const id = await capture(t, a, { title: "Harpsichord repair", body: "" });
    expect(ids(await search(t, a, { mode: "keyword", q: "harpsichord" }))).toEqual([id]);
    expect((await call(t, "PATCH", `/ideas/${id}`, { key: a.key, body: { title: "Clavichord repair" } })).status).toBe(200);
    expect(ids(await search(t, a, { mode: "keyword", q: "harpsichord" }))).toEqual([]);
    expect(ids(await search(t, a, { mode: "keyword", q: "clavichord" }))).toEqual([id]);
    // Moving an idea between accounts is not an API operation; the trigger re-indexes it under its new owner.
    await t.deps.store.query("UPDATE ideas SET user_id = ?1, number = 9999 WHERE id = ?2").run(b.id, id);
    expect(ids(await search(t, a, { mode: "keyword", q: "clavichord" }))).toEqual([]);
    expect(ids(await search(t, b, { mode: "keyword", q: "clavichord" }))).toEqual([id]);
    expect((await call(t, "DELETE", `/ideas/${id}`, { key: b.key })).status).toBe(200);
    expect(ids(await search(t, b, { mode: "keyword", q: "clavichord" }))).toEqual([]);
    if (t.deps.store.sqlite) {
      const integrity = () => t.deps.store.sqlite!.run("INSERT INTO ideas_fts(ideas_fts, rank) VALUES ('integrity-check', 1)");
      expect(integrity).not.toThrow();
    }
  });
});

describe.skipIf(testStore() === "postgres")("migration 0018", () => {
  test("a database made by the previous schema upgrades in place: each account finds its own ideas", async () => {
    const dir = mkdtempSync(join(tmpdir(), "idearepo-fts-owner-"));
    try {
      const file = join(dir, "idearepo.db");
      const old = new Database(file, { create: true, strict: true });
      for (const m of MIGRATIONS.filter((x) => x.version <= 17)) old.exec(m.sql);
      old.exec("PRAGMA user_version = 17");
      const now = "2026-01-01 00:00:00";
      const user = old.query("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES (?1, ?2, ?1, ?3, ?3)");
      user.run("u-one", "one@example.com", now);
      user.run("u-two", "two@example.com", now);
      const add = old.query("INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)");
      add.run("u-one", 1, "Telescope mirror grinding", "a telescope for the garden", now);
      add.run("u-one", 2, "Garden shed", "", now);
      add.run("u-two", 1, "Telescope club", "", now);
      add.run("u-two", 2, "日本語のアイデア：望遠鏡", "", now);
      old.close();

      const app = makeApp({ dbFile: file });
      const db = app.deps.db;
      expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBeGreaterThanOrEqual(18);
      const one = await makeUser(app, { plan: "pro" });
      const two = await makeUser(app, { plan: "pro" });
      db.query("UPDATE ideas SET user_id = ?1 WHERE user_id = 'u-one'").run(one.id);
      db.query("UPDATE ideas SET user_id = ?1 WHERE user_id = 'u-two'").run(two.id);
      const found = async (u: TestUser, q: string) => titles(await search(app, u, { mode: "keyword", q }));
      expect(await found(one, "telescope")).toEqual(["Telescope mirror grinding"]);
      expect(await found(two, "telescope")).toEqual(["Telescope club"]);
      expect(await found(one, "garden")).toEqual(["Garden shed", "Telescope mirror grinding"]);
      expect(await found(two, "望遠鏡")).toEqual(["日本語のアイデア：望遠鏡"]);
      // An edit after the upgrade goes through the new triggers (old rows are deleted from the index by their values).
      const shed = db.query<{ id: number }, [string]>("SELECT id FROM ideas WHERE title = ?1").get("Garden shed")!.id;
      expect((await call(app, "PATCH", `/ideas/${shed}`, { key: one.key, body: { title: "Telescope eyepiece" } })).status).toBe(200);
      expect(ids(await search(app, one, { mode: "keyword", q: "eyepiece" }))).toEqual([shed]);
      expect(await found(one, "shed")).toEqual([]);
      expect(() => db.run("INSERT INTO ideas_fts(ideas_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
      app.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
