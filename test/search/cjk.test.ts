// GET /ideas/search?mode=keyword in Chinese, Japanese, Korean, Thai and mixed text: any word of 2+ characters inside
// a run without spaces is found in or/and/exact, BM25 order, edits and archive respected, and migration 0008's backfill.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations";
import { call, makeApp, makeUser, type TestApp, type TestUser } from "../helpers";
import { testStore } from "../support/postgres";
import { capture, search } from "../pipeline-helpers";

let t: TestApp;
let me: TestUser;
let other: TestUser;
const ids: Record<string, number> = {};

const kw = (q: string, fts_mode = "or", user = me, app = t) => search(app, user, { mode: "keyword", q, fts_mode });
const found = async (q: string, fts_mode = "or") => {
  const r = await kw(q, fts_mode);
  expect(r.status).toBe(200);
  return (r.body.results as Array<{ id: number }>).map((x) => x.id);
};
const keysOf = (got: number[]) => got.map((id) => Object.keys(ids).find((k) => ids[k] === id) ?? `#${id}`);

const SEED: Record<string, { title: string; body?: string }> = {
  ja: { title: "日本語のアイデア：自転車のライト" },
  zh: { title: "自行车灯的创意", body: "晚上骑自行车需要明亮的车灯。白天用太阳能充电。" },
  zhCafe: { title: "咖啡馆的计划", body: "在城市中心开一家咖啡馆，卖手冲咖啡。" },
  zhMorning: { title: "城市早晨", body: "早上喝一杯咖啡再上班。" },
  ko: { title: "자전거를 위한 태양광 조명", body: "밤에 자전거를 타는 사람들을 위한 아이디어" },
  th: { title: "ไฟจักรยานพลังงานแสงอาทิตย์", body: "ที่ชาร์จแบตเตอรี่ในเวลากลางวัน" },
  mixed: { title: "LED电灯 for bike lights", body: "用LED做的自行车灯" },
  en: { title: "Solar bike lights", body: "Charge during the day, shine at night." },
};

beforeAll(async () => {
  t = makeApp();
  me = await makeUser(t, { plan: "pro" });
  other = await makeUser(t, { plan: "pro" });
  for (const [k, v] of Object.entries(SEED)) ids[k] = await capture(t, me, v);
  ids.archived = await capture(t, me, { title: "旧的自行车架" });
  expect((await call(t, "DELETE", `/ideas/${ids.archived}`, { key: me.key })).status).toBe(200);
  ids.theirs = await capture(t, other, { title: "别人的自行车棚" });
});
afterAll(() => t.close());

describe("keyword search in scripts without spaces", () => {
  test("the issue's example: 自転車 finds 日本語のアイデア：自転車のライト", async () => {
    const r = await kw("自転車");
    expect(r.body).toMatchObject({ query: "自転車", search_type: "fts", fts_mode: "or" });
    expect(keysOf(r.body.results.map((x: { id: number }) => x.id))).toEqual(["ja"]);
    expect(r.body.results[0]).toMatchObject({ title: SEED.ja.title, score: null });
  });

  test("Japanese: kanji, katakana and two-character words inside the run", async () => {
    expect(keysOf(await found("ライト"))).toEqual(["ja"]);
    expect(keysOf(await found("日本"))).toEqual(["ja"]);
    expect(keysOf(await found("アイデア"))).toEqual(["ja"]);
  });

  test("Chinese: two- and three-character words, title and body", async () => {
    expect(keysOf(await found("车灯")).sort()).toEqual(["mixed", "zh"]);
    expect(keysOf(await found("充电"))).toEqual(["zh"]);
    expect(keysOf(await found("计划")).sort()).toEqual(["zhCafe"]);
  });

  test("Korean: a word with a particle attached (자전거를) is found by the word", async () => {
    expect(keysOf(await found("자전거"))).toEqual(["ko"]);
    expect(keysOf(await found("조명"))).toEqual(["ko"]);
    expect(keysOf(await found("아이디어"))).toEqual(["ko"]);
  });

  test("Thai: words inside a run, including vowel and tone marks", async () => {
    expect(keysOf(await found("จักรยาน"))).toEqual(["th"]);
    expect(keysOf(await found("พลังงาน"))).toEqual(["th"]);
    expect(keysOf(await found("กลางวัน"))).toEqual(["th"]);
    expect(keysOf(await found("ที่ชาร์จ"))).toEqual(["th"]);
  });

  test("only substrings match: characters of a word in another order find nothing", async () => {
    expect(await found("车自")).toEqual([]);
    expect(await found("ライトの日本")).toEqual([]);
    expect(await found("전자")).toEqual([]);
  });

  test("one-character tokens are dropped as in every language", async () => {
    expect(await found("车")).toEqual([]);
    expect(await found("车 的")).toEqual([]);
  });

  test("ranking is BM25: the idea that says the word most, and in its title, comes first", async () => {
    expect(keysOf(await found("咖啡"))).toEqual(["zhCafe", "zhMorning"]);
  });

  test("only the caller's unarchived ideas", async () => {
    const mine = keysOf(await found("自行车"));
    expect(mine.sort()).toEqual(["mixed", "zh"]);
    const r = await kw("自行车", "or", other);
    expect(r.body.results.map((x: { id: number }) => x.id)).toEqual([ids.theirs]);
  });
});

describe("fts_mode with CJK queries", () => {
  test("or: any word, across languages and across scripts", async () => {
    expect(keysOf(await found("自転車 咖啡馆")).sort()).toEqual(["ja", "zhCafe"]);
    // "bike" is found in the English idea through the main index and in the mixed one through the bigram index.
    expect(keysOf(await found("bike 자전거")).sort()).toEqual(["en", "ko", "mixed"]);
  });

  test("and: every word must match", async () => {
    expect(keysOf(await found("自行车 LED", "and"))).toEqual(["mixed"]);
    expect(keysOf(await found("自行车 bike", "and"))).toEqual(["mixed"]);
    expect(await found("自行车 咖啡馆", "and")).toEqual([]);
    expect(keysOf(await found("咖啡馆 城市", "and"))).toEqual(["zhCafe"]);
  });

  test("exact: the phrase as written, even across scripts", async () => {
    expect(keysOf(await found("自転車のライト", "exact"))).toEqual(["ja"]);
    expect(await found("ライトの自転車", "exact")).toEqual([]);
    expect(keysOf(await found("自行车灯", "exact")).sort()).toEqual(["mixed", "zh"]);
    expect(keysOf(await found("LED电灯", "exact"))).toEqual(["mixed"]);
    expect(keysOf(await found("led 电灯 for bike", "exact"))).toEqual(["mixed"]);
    expect(await found("电灯 led", "exact")).toEqual([]);
    expect(keysOf(await found("태양광 조명", "exact"))).toEqual(["ko"]);
    expect(await found("조명 태양광", "exact")).toEqual([]);
  });

  test("full-width Latin in the query matches half-width in the text", async () => {
    expect(keysOf(await found("ＬＥＤ电灯", "exact"))).toEqual(["mixed"]);
  });

  test("queries that would be FTS5 syntax stay plain words", async () => {
    for (const q of ['"自転車', "自転車 AND", "NEAR(自転車 ライト)", "title:自転車", "自転車*", "-自転車", "自転車\"ライト"]) {
      for (const mode of ["or", "and", "exact"]) {
        const r = await kw(q, mode);
        expect({ q, mode, status: r.status }).toEqual({ q, mode, status: 200 });
      }
    }
    expect(keysOf(await found("title:自転車"))).toEqual(["ja"]);
  });
});

describe("the bigram index follows the ideas", () => {
  test("an edited title is found by its new words and no longer by the old ones", async () => {
    const id = await capture(t, me, { title: "图书馆的想法" });
    expect(await found("图书馆")).toEqual([id]);
    expect((await call(t, "PATCH", `/ideas/${id}`, { key: me.key, body: { title: "博物馆的想法" } })).status).toBe(200);
    expect(await found("图书馆")).toEqual([]);
    expect(await found("博物馆")).toEqual([id]);
    // An edit to plain English drops it from the bigram index; English finds it through the main index.
    expect((await call(t, "PATCH", `/ideas/${id}`, { key: me.key, body: { title: "Museum idea" } })).status).toBe(200);
    expect(await found("博物馆")).toEqual([]);
    expect(await found("museum")).toEqual([id]);
    expect((await call(t, "DELETE", `/ideas/${id}`, { key: me.key })).status).toBe(200);
    expect(await found("museum")).toEqual([]);
  });

  test("space-separated text is searched as before and never enters the bigram index", async () => {
    expect(keysOf(await found("solar lights", "and"))).toEqual(["en"]);
    expect(keysOf(await found("the night"))).toEqual(["en"]);
    const rows = t.deps.db.query("SELECT count(*) AS n FROM ideas_fts_cjk WHERE ideas_fts_cjk MATCH 'solar'").get() as { n: number };
    expect(rows.n).toBe(0);
  });
});

describe.skipIf(testStore() === "postgres")("migration 0008", () => {
  test("backfills ideas written before it, so they are found after the upgrade", async () => {
    const dir = mkdtempSync(join(tmpdir(), "idearepo-cjk-"));
    try {
      const file = join(dir, "idearepo.db");
      // A database as version 7 left it, with a Japanese and an English idea.
      const old = new Database(file, { create: true, strict: true });
      for (const m of MIGRATIONS.filter((x) => x.version <= 7)) old.exec(m.sql);
      old.exec("PRAGMA user_version = 7");
      const now = "2026-01-01 00:00:00";
      old.query("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES ('u-old', 'old@example.com', 'Old', ?1, ?1)").run(now);
      const add = old.query("INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES ('u-old', ?1, ?2, ?3, ?4, ?4)");
      add.run(1, "日本語のアイデア：自転車のライト", "", now);
      add.run(2, "Plain bicycle light", "ภาษาไทยในเนื้อหา", now);
      add.run(3, "English only", "nothing else", now);
      old.close();

      const app = makeApp({ dbFile: file });
      const db = app.deps.db;
      expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBeGreaterThanOrEqual(8);
      const u = await makeUser(app, { plan: "pro" });
      db.query("UPDATE ideas SET user_id = ?1 WHERE user_id = 'u-old'").run(u.id);
      const titlesFor = async (q: string) => (await kw(q, "or", u, app)).body.results.map((x: { title: string }) => x.title);
      expect(await titlesFor("自転車")).toEqual(["日本語のアイデア：自転車のライト"]);
      expect(await titlesFor("ภาษาไทย")).toEqual(["Plain bicycle light"]);
      expect(await titlesFor("english")).toEqual(["English only"]);
      app.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
