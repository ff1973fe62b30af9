// Memos: the SQLite database (two schema generations) and the API's JSON: archived, pinned, #tags, comments, references.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { memosReader } from "../../src/modules/import/sources/memos";
import { FIXTURES, inputOf, memosDatabase, readAll } from "./source-fixtures";

const db = () => ({ "memos_prod.db": memosDatabase("memos-0.24.sql") });
const api = () => ({ "memos.json": new Uint8Array(readFileSync(join(FIXTURES, "memos/memos-api.json"))) });

describe("Memos reader", () => {
  test("detects the database by name or SQLite header, and the API JSON", async () => {
    expect(await memosReader.detect(inputOf("memos_prod.db", db()))).toBe(true);
    expect(await memosReader.detect(inputOf("x.sqlite", { "backup.sqlite": memosDatabase("memos-0.20.sql") }))).toBe(true);
    expect(await memosReader.detect(inputOf("memos.json", api()))).toBe(true);
    expect(await memosReader.detect(inputOf("k.json", { "k.json": new TextEncoder().encode('{"bookmarks":[]}') }))).toBe(false);
  });

  test("database: the owner's memos only; comments skipped; archived, pinned, tags, dates, links, references", async () => {
    const { notes, skipped, byTitle } = await readAll(memosReader, inputOf("memos_prod.db", db()));
    expect(notes.map((n) => n.title)).toEqual(["A bike light that charges from the wheel.", "Old thought about a recipe app", "Builds on the bike light: a rear light too."]);
    const bike = byTitle("A bike light that charges from the wheel.");
    expect(bike).toMatchObject({ origin: "memo:Mq7SdhGLbNE8o8eQnLXzUa", pinned: true, archived: false, tags: ["idea/hardware"] });
    expect(bike.body).toStartWith("#idea/hardware A bike light");
    expect(bike.links).toEqual([{ url: "https://dynamo.example.com", title: null }]);
    expect(bike.created_at!.toISOString()).toBe("2024-01-02T00:00:00.000Z");
    expect(bike.updated_at!.toISOString()).toBe("2024-01-03T00:00:00.000Z");
    expect(byTitle("Old thought about a recipe app")).toMatchObject({ archived: true, tags: ["food"] });
    expect(byTitle("Builds on the bike light: a rear light too.").related).toEqual(["memo:Mq7SdhGLbNE8o8eQnLXzUa"]);
    expect(skipped).toEqual([
      { skipped: "memo:Mq7SdhGLbNE8o8eQnLXzUa: wiring.png", reason: "attachment not imported" },
      { skipped: "memo:Pt0VgkJOeQH1r1hTqOAcXd", reason: "a comment on another memo" },
      { skipped: "memo:Qu1WhlKPfRI2s2iUrPBdYe", reason: "written by another Memos user (guest)" },
    ]);
  });

  test("an older schema (resource_name, no pinned, no payload) reads too; #tags come from the text", async () => {
    const { notes } = await readAll(memosReader, inputOf("old.db", { "memos_prod.db": memosDatabase("memos-0.20.sql") }));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ origin: "memo:aBcDeFgHiJkLmNoP", title: "Weekly review template", tags: ["process"], pinned: false });
  });

  test("API JSON: state, pinned, tags, references, attachments and comments", async () => {
    const { notes, skipped } = await readAll(memosReader, inputOf("memos.json", api()));
    expect(notes.map((n) => [n.origin, n.archived, n.pinned])).toEqual([["memo:8PxbkeKfoUr8KZSm7ZFaVT", false, true], ["memo:9QycmfLgpVs9LaTn8AGbWU", true, false]]);
    expect(notes[0].tags).toEqual(["community", "idea"]);
    expect(notes[0].related).toEqual(["memo:9QycmfLgpVs9LaTn8AGbWU"]);
    expect(skipped.map((s) => s.reason)).toEqual(["attachment not imported", "a comment on another memo"]);
  });

  test("a WAL beside the database is named as a risk; a foreign SQLite file is skipped", async () => {
    const { skipped } = await readAll(memosReader, inputOf("m.zip", { ...db(), "memos_prod.db-wal": new Uint8Array(32), "other.db": (() => { const { Database } = require("bun:sqlite"); const d = new Database(":memory:"); d.run("create table t(x)"); return d.serialize(); })() }));
    expect(skipped.find((s) => s.skipped === "memos_prod.db-wal")?.reason).toContain("stop Memos");
    expect(skipped.find((s) => s.skipped === "other.db")?.reason).toBe("a SQLite file without a Memos memo table");
  });
});
