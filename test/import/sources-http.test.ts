// The six third-party sources through POST /user/import: detected from the file, written as ideas, safe to run twice.
import { afterAll, describe, expect, test } from "bun:test";
import { zipSync } from "fflate";
import { call, makeApp, makeUser, type TestApp, type TestUser } from "../helpers";
import { fixtureFiles, memosDatabase } from "./source-fixtures";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

async function post(u: TestUser, bytes: Uint8Array, query = "") {
  const res = await t.handle(new Request(`http://localhost/api/v1/user/import${query}`, {
    method: "POST", headers: { "x-api-key": u.key, "content-type": "application/zip" }, body: bytes,
  }));
  return { status: res.status, body: (await res.json()) as any };
}

async function ideas(app: TestApp, u: TestUser) {
  const list = (await call(app, "GET", "/ideas?limit=100", { key: u.key })).body.ideas as { id: number; title: string }[];
  return Promise.all(list.map(async (i) => (await call(app, "GET", `/ideas/${i.id}`, { key: u.key })).body.idea ?? (await call(app, "GET", `/ideas/${i.id}`, { key: u.key })).body));
}
const byTitle = (all: any[], title: string) => all.find((i) => i.title === title);

/** `titles`: the unarchived ideas GET /ideas lists afterwards; `archived`: how many notes arrive archived (not listed). */
const SOURCES: { source: string; zip: () => Uint8Array; titles: string[]; archived?: number }[] = [
  { source: "keep", zip: () => zipSync(fixtureFiles("keep")), titles: ["A note without a title: its first line names it", "Shopping list"], archived: 1 },
  { source: "karakeep", zip: () => zipSync(fixtureFiles("karakeep")), titles: ["From an old export", "Whiteboard photo", "blog.example.com/posts/local-first"], archived: 1 },
  { source: "evernote", zip: () => zipSync(fixtureFiles("evernote")), titles: ["Checklist, Evernote 10 style", "Garden & greenhouse plan", "Untitled"] },
  { source: "notion", zip: () => zipSync(fixtureFiles("notion")), titles: ["Ideas", "Notes about ideas", "Rain sensor", 'Row with "quotes", no page', "Solar kettle"] },
  { source: "apple-notes", zip: () => zipSync(fixtureFiles("apple-notes")), titles: ["Groceries app", "Invalid �� bytes", "Meeting timer", "Scanned receipt", "Sourdough starter"] },
  { source: "memos", zip: () => zipSync({ "memos_prod.db": memosDatabase("memos-0.24.sql") }), titles: ["A bike light that charges from the wheel.", "Builds on the bike light: a rear light too."], archived: 1 },
];

describe("POST /user/import from other apps", () => {
  for (const s of SOURCES) {
    test(`${s.source}: a dry run writes nothing; the import writes every note once; a second import adds nothing`, async () => {
      const u = await makeUser(t, { plan: "pro" });
      const total = s.titles.length + (s.archived ?? 0);
      const dry = await post(u, s.zip(), "?dry_run=true");
      expect(dry.status).toBe(200);
      expect(dry.body).toMatchObject({ source: s.source, dry_run: true, imported: { created: total, updated: 0 } });
      expect(await ideas(t, u)).toEqual([]);
      const first = await post(u, s.zip());
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ source: s.source, imported: { created: total } });
      const after = await ideas(t, u);
      expect(after.map((i) => i.title).sort()).toEqual([...s.titles].sort());
      const again = await post(u, s.zip());
      expect(again.body.imported).toMatchObject({ created: 0, updated: 0, unchanged: total });
      expect((await ideas(t, u)).length).toBe(after.length);
    });
  }

  test("the source is detected from the file, and can be named", async () => {
    const u = await makeUser(t, { plan: "pro" });
    expect((await post(u, zipSync(fixtureFiles("karakeep")), "?from=karakeep")).status).toBe(201);
    expect((await ideas(t, u)).length).toBe(3);
  });

  test("what the readers map arrives on the ideas: tags, status, links, checklists", async () => {
    const u = await makeUser(t, { plan: "pro" });
    await post(u, zipSync(fixtureFiles("notion")));
    await post(u, zipSync(fixtureFiles("keep")));
    const all = await ideas(t, u);
    const kettle = byTitle(all, "Solar kettle");
    expect(kettle.status).toBe("exploring");
    expect(kettle.tags.map((x: any) => (typeof x === "string" ? x : x.name)).sort()).toEqual(["energy", "hardware", "outdoor/camping"]);
    expect(kettle.links.map((l: any) => l.url)).toContain("https://kettle.example.com/spec");
    expect(byTitle(all, "Shopping list").body).toContain("- [x] Coffee beans");
    // Links between Notion pages became relations made by the user.
    const rel = (await call(t, "GET", `/ideas/${kettle.id}/relations`, { key: u.key })).body;
    const linked = [...rel.outgoing, ...rel.incoming].filter((r: any) => r.created_by === "user").map((r: any) => r.idea_title).sort();
    expect(linked).toEqual(["Ideas", "Notes about ideas", "Rain sensor"]);
  });

  test("one .enex or memos_prod.db sent as itself (not zipped), named by ?name=", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const raw = async (bytes: Uint8Array, name: string) => {
      const res = await t.handle(new Request(`http://localhost/api/v1/user/import?name=${encodeURIComponent(name)}`, {
        method: "POST", headers: { "x-api-key": u.key, "content-type": "application/octet-stream" }, body: bytes,
      }));
      return { status: res.status, body: (await res.json()) as any };
    };
    const enex = fixtureFiles("evernote")["My Notebook.enex"];
    expect(await raw(enex, "My Notebook.enex")).toMatchObject({ status: 201, body: { source: "evernote", imported: { created: 3 } } });
    expect(await raw(memosDatabase("memos-0.20.sql"), "memos_prod.db")).toMatchObject({ status: 201, body: { source: "memos", imported: { created: 1 } } });
    expect((await ideas(t, u)).map((i) => i.title)).toContain("Weekly review template");
  });

  test("a note that says only when it was last changed is created then too, not on the day of the import", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const enex = `<?xml version="1.0" encoding="UTF-8"?><en-export><note><title>Only an update date</title>` +
      `<content><![CDATA[<en-note><div>Written long ago</div></en-note>]]></content><updated>20240105T101500Z</updated></note></en-export>`;
    const res = await t.handle(new Request("http://localhost/api/v1/user/import?name=dates.enex", {
      method: "POST", headers: { "x-api-key": u.key, "content-type": "application/octet-stream" }, body: new TextEncoder().encode(enex),
    }));
    expect(res.status).toBe(201);
    const idea = byTitle(await ideas(t, u), "Only an update date");
    expect([idea.created_at, idea.updated_at]).toEqual(["2024-01-05 10:15:00", "2024-01-05 10:15:00"]);
  });

  test("named character references from the whole HTML table arrive as characters, in .enex and in Apple Notes HTML", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const body = "<div>Serve <b>cr&egrave;me</b> br&ucirc;l&eacute;e &ndash; &frac12; cup, &hearts; &Ouml;l &rarr; &#x20AC;3 &nosuchname;</div>";
    const enex = `<?xml version="1.0" encoding="UTF-8"?><en-export><note><title>Cr&#232;me dessert</title>` +
      `<content><![CDATA[<en-note>${body}<div><a href="https://example.org/?a=1&amp;b=2&eacute;">r&eacute;sum&eacute;</a></div></en-note>]]></content></note></en-export>`;
    const html = `<html><head><title>Cr&egrave;me notes</title></head><body>${body}</body></html>`;
    const zip = zipSync({ "Desserts.enex": new TextEncoder().encode(enex) });
    expect(await post(u, zip)).toMatchObject({ status: 201, body: { source: "evernote", imported: { created: 1 } } });
    expect(await post(u, zipSync({ "iCloud/Desserts/Crème.html": new TextEncoder().encode(html) }))).toMatchObject({ status: 201, body: { source: "apple-notes", imported: { created: 1 } } });
    const all = await ideas(t, u);
    const text = "Serve **crème** brûlée – ½ cup, ♥ Öl → €3 &nosuchname;";
    expect(byTitle(all, "Crème dessert").body).toBe(`${text}\n[résumé](https://example.org/?a=1&b=2é)`);
    expect(byTitle(all, "Crème notes").body).toBe(text);
  });
});

// A Memos database is anyone's upload, and SQLite runs what a view, a virtual table or a computed column holds when it is
// read, on the server's thread (an endless recursive view named memo stopped the whole server for every account).
describe("POST /user/import of a Memos database whose tables compute instead of store", () => {
  const MEMO = "id INTEGER PRIMARY KEY, uid TEXT, creator_id INTEGER, created_ts BIGINT, updated_ts BIGINT, row_status TEXT, pinned INTEGER, payload TEXT";
  const ROWS = "(1, 'a', 1, 1700000000, 1700000000, 'NORMAL', 0, '{}', 'Stored memo one'), (2, 'b', 2, 1700000000, 1700000000, 'NORMAL', 0, '{}', 'Stored memo two')";
  const database = (sql: string) => {
    const { Database } = require("bun:sqlite") as typeof import("bun:sqlite");
    const db = new Database(":memory:");
    db.exec(sql);
    const bytes = db.serialize();
    db.close();
    return bytes;
  };
  const CASES: Record<string, { sql: string; reason: string }> = {
    "memo is a view": {
      sql: `CREATE TABLE rows (${MEMO}, content TEXT); INSERT INTO rows VALUES ${ROWS}; CREATE VIEW memo AS SELECT * FROM rows`,
      reason: "memo is a view, not a table",
    },
    "user is a view": {
      sql: `CREATE TABLE memo (${MEMO}, content TEXT); INSERT INTO memo VALUES ${ROWS};
            CREATE VIEW user AS SELECT 2 AS id, 'HOST' AS role, 'someone' AS username`,
      reason: "user is a view, not a table",
    },
    "memo computes its content": {
      sql: `CREATE TABLE memo (${MEMO}, seed TEXT, content TEXT AS (printf('%.*c', 20, seed)) VIRTUAL);
            INSERT INTO memo (id, uid, creator_id, created_ts, updated_ts, row_status, pinned, payload, seed) VALUES (1, 'a', 1, 0, 0, 'NORMAL', 0, '{}', 'x')`,
      reason: "memo has computed columns",
    },
    "memo is a virtual table": {
      sql: `CREATE VIRTUAL TABLE memo USING fts5(id, uid, creator_id, created_ts, updated_ts, row_status, pinned, payload, content);
            INSERT INTO memo VALUES (1, 'a', 1, 0, 0, 'NORMAL', 0, '{}', 'Stored memo one')`,
      reason: "memo is a virtual table",
    },
  };
  for (const [name, c] of Object.entries(CASES)) {
    test(`${name}: the file is skipped with the reason, nothing is read from it`, async () => {
      const u = await makeUser(t, { plan: "pro" });
      const res = await post(u, zipSync({ "memos_prod.db": database(c.sql) }), "?from=memos");
      expect(res.status).toBe(201);
      expect(res.body.skipped.items, JSON.stringify(res.body)).toContainEqual({ skipped: "memos_prod.db", reason: `not read: ${c.reason} (a Memos database holds plain tables only)` });
      expect(res.body.imported.created).toBe(0);
      expect(await ideas(t, u)).toEqual([]);
    });
  }

  test("the same rows in plain tables are imported", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const res = await post(u, zipSync({ "memos_prod.db": database(`CREATE TABLE memo (${MEMO}, content TEXT); INSERT INTO memo VALUES ${ROWS}`) }), "?from=memos");
    expect(res).toMatchObject({ status: 201, body: { imported: { created: 1 } } });
    expect((await ideas(t, u)).map((i) => i.title)).toEqual(["Stored memo one"]);
  });
});

describe("POST /user/import of text made to be slow to read", () => {
  // Link, wiki-link and title patterns ran from every "[" to the end of the note before failing: these took over 40 s of
  // the server's only thread (every account waited). Now each start stops at the next "[".
  test("a note of 80,000 '[' or '[a](' is imported in moments", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const notes = { "brackets.md": `${"[".repeat(80_000)}\n`, "links.md": `${"[a](".repeat(20_000)}\n` };
    const started = performance.now();
    const res = await post(u, zipSync(Object.fromEntries(Object.entries(notes).map(([k, v]) => [k, new TextEncoder().encode(v)]))));
    const seconds = (performance.now() - started) / 1000;
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect(seconds, `the import took ${seconds.toFixed(1)} s`).toBeLessThan(10);
    expect(res.body.imported.created).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
