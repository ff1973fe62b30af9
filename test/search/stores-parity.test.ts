// Keyword search means the same on both stores (issue 34): one corpus, the same queries in every mode, through the
// HTTP search API of an app on SQLite and one on PostgreSQL; the top 10 in the same order, the BM25 scores equal.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { call, makeApp, makeUser, type TestApp, type TestUser } from "../helpers";
import { seedIdeas } from "../fixtures/seed";
import { makePgApp } from "../support/pg-app";
import { requirePostgres } from "../support/postgres";
import { createFts5Index } from "../../src/modules/search/fulltext-sqlite-repo";
import { createPgIndex, rebuildKeywordIndex } from "../../src/modules/search/fulltext-pg-repo";
import { ftsQuery, segmentedQuery } from "../../src/modules/search/tokenize";

const run = requirePostgres();

/** Real sentences: English notes, accented European text, Chinese, Japanese, Korean and Thai. */
const SENTENCES = [
  "A solar kettle that boils water for tea using only sunlight and a parabolic mirror.",
  "Garden planner: track which vegetables grow well together and when to sow them.",
  "Rain sensor for the balcony that closes the window automatically when it starts to rain.",
  "Meeting timer that shows each speaker how long they have talked, to keep standups short.",
  "The sourdough starter needs feeding twice a day; keep it warm and use rye flour.",
  "Reading list: books about distributed systems, databases and the design of data-intensive applications.",
  "Crème brûlée recipe with vanilla from Madagascar, a café crème and naïve déjà vu.",
  "Die Straße vor dem Haus ist im Winter glatt; Übermut tut selten gut, sagt die Großmutter.",
  "Ça coûte cher à São Paulo, mais le Kraków de Dvořák et Łódź restent abordables.",
  "Ελληνικά σημειώσεις για το ταξίδι στην Αθήνα και την Κρήτη.",
  "日本語のアイデア：自転車のライトを太陽光で充電する。",
  "東京で自転車を借りて、京都まで走る旅の計画。",
  "机器学习与自然语言处理的读书笔记，包括中文分词。",
  "在北京学习中文，每天写日记。",
  "한국어 메모: 자전거를 타고 한강을 따라 달리기.",
  "ไทย: ที่นี่เป็นบันทึกภาษาไทยเกี่ยวกับการเดินทาง",
  "Version 2.0.1 shipped on 2024-03-01 with 1,000 users and 3.14 as the answer.",
  "Email the team: don't forget the e-mail about the solar panel budget.",
  "Launch 🚀 the rocket app for tracking hobby rockets and their altitude.",
  "Water the garden early in the morning so the sun does not burn the leaves.",
  "Database migration plan: copy the SQLite file into PostgreSQL without losing keys.",
  "Bicycle light that charges from the dynamo and keeps shining at a stop.",
  "Solar panels on the shed roof could power the garden pump and the kettle.",
  "Tea tasting notes: sencha, oolong and a smoky lapsang souchong.",
  "Build a keyboard with a split layout and hot-swappable switches.",
  "Search the notes by keyword, with BM25 ranking like SQLite's FTS5 does.",
];

/** The notes of the import fixtures (Obsidian, Markdown, Logseq, Notion, Apple Notes): real notes as people write them. */
function fixtureNotes(): Array<{ title: string; body: string }> {
  const out: Array<{ title: string; body: string }> = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".md")) out.push({ title: name.replace(/\.md$/, "").replace(/ [0-9a-f]{32}$/, ""), body: readFileSync(path, "utf8") });
    }
  };
  walk(join(import.meta.dir, "../fixtures/import"));
  return out;
}

/** The corpus: the fixtures' notes, then ideas made of the sentences (a title and a two-sentence body each). */
function corpus(): Array<{ title: string; body: string; archived?: boolean }> {
  const ideas: Array<{ title: string; body: string; archived?: boolean }> = fixtureNotes();
  const n = SENTENCES.length;
  for (let i = 0; i < 240; i++) {
    const s = (k: number) => SENTENCES[(k * 7 + i * 3) % n];
    ideas.push({ title: s(i).split(/[.:。：]/)[0].slice(0, 80), body: `${s(i + 1)} ${s(i + 5)}`, archived: i % 17 === 5 });
  }
  return ideas;
}

const QUERIES = [
  "solar kettle", "garden", "rain sensor window", "the", "tea", "water garden sun", "crème brûlée", "creme brulee", "café",
  "naïve", "Straße", "strasse", "Kraków Łódź", "Αθήνα", "自転車", "自転車のライト", "机器学习", "中文", "学习", "한국어", "자전거",
  "ภาษาไทย", "2024", "3.14", "2.0.1", "e-mail", "don't", "🚀 rocket", "solar panel budget", "bicycle light", "SQLite PostgreSQL",
  "BM25 ranking", "split layout", "lapsang souchong", "vegetables grow together", "distributed systems databases",
  "reading list", "sourdough rye", "nothing-matches-this", "solar 自転車", "garden 東京",
  // Two-token phrases (one pair posting on PostgreSQL) beside words, and longer ones (read from positions there).
  "e-mail budget", "solar panel", "the garden", "don't forget the", "water for tea", "solar panels on the shed roof",
];
const MODES = ["or", "and", "exact"] as const;

async function seed(t: TestApp): Promise<{ main: TestUser; other: TestUser }> {
  const main = await makeUser(t, { plan: "pro", email: "parity-main@example.com" });
  const other = await makeUser(t, { plan: "pro", email: "parity-other@example.com" });
  const ideas = corpus();
  // Another account's ideas share the instance's statistics (BM25's IDF) but never its results.
  await seedIdeas(t, other, 60, (i) => ({ title: ideas[(i * 5) % ideas.length].title, body: ideas[(i * 3) % ideas.length].body }));
  await seedIdeas(t, main, ideas.length, (i) => ideas[i]);
  return { main, other };
}

const top10 = async (t: TestApp, u: TestUser, q: string, mode: string) => {
  const r = await call(t, "GET", `/ideas/search?q=${encodeURIComponent(q)}&mode=keyword&fts_mode=${mode}&limit=10`, { key: u.key });
  expect(r.status).toBe(200);
  return (r.body.results as Array<{ number: number; title: string }>).slice(0, 10).map((x) => `${x.number} ${x.title}`);
};

describe.skipIf(!run)("keyword search on SQLite and PostgreSQL", () => {
  let lite: TestApp;
  let pg: TestApp & { url: string };
  let users: { lite: { main: TestUser; other: TestUser }; pg: { main: TestUser; other: TestUser } };

  beforeAll(async () => {
    lite = makeApp({ store: "sqlite" });
    pg = await makePgApp();
    users = { lite: await seed(lite), pg: await seed(pg) };
  });
  afterAll(async () => {
    await lite?.close();
    await pg?.close();
  });

  const compareAll = async () => {
    let nonEmpty = 0;
    for (const q of QUERIES) {
      for (const mode of MODES) {
        const a = await top10(lite, users.lite.main, q, mode);
        const b = await top10(pg, users.pg.main, q, mode);
        expect({ q, mode, top: b }).toEqual({ q, mode, top: a });
        if (a.length > 0) nonEmpty++;
      }
    }
    return nonEmpty;
  };

  test("the same top 10 in the same order for every query in every mode", async () => {
    const nonEmpty = await compareAll();
    // The corpus answers most of them (a comparison of empty lists would prove nothing).
    expect(nonEmpty).toBeGreaterThan(QUERIES.length * 2);
  });

  test("the same BM25 scores, on the main and the bigram index, and among given ids (semantic's second stage)", async () => {
    // The two stores' keyword indexes themselves (what differs between the stores), asked the same questions.
    const repos = { lite: createFts5Index(lite.deps.store), pg: createPgIndex(pg.deps.store) };
    await repos.pg.indexPending("main");
    await repos.lite.indexPending("cjk");
    let compared = 0;
    for (const q of QUERIES) {
      for (const mode of MODES) {
        const seg = segmentedQuery(q, mode);
        const cases: Array<["main" | "cjk", ReturnType<typeof ftsQuery>]> = seg ? [["cjk", seg.cjk], ["main", seg.main]] : [["main", ftsQuery(q, mode)]];
        for (const [index, query] of cases) {
          if (!query) continue;
          const a = await repos.lite.keywordScored(index, query, users.lite.main.id, 20);
          const b = await repos.pg.keywordScored(index, query, users.pg.main.id, 20);
          expect(b.map((r) => r.id)).toEqual(a.map((r) => r.id));
          b.forEach((r, i) => expect({ q, mode, id: r.id, bm25: r.bm25 }).toEqual({ q, mode, id: r.id, bm25: a[i].bm25 }));
          compared += a.length;
          const ids = a.map((r) => r.id).concat([1, 2, 3, 50, 100]);
          const sa = index === "main" ? await repos.lite.keywordScoresAmong(query, ids) : await repos.lite.cjkScoresAmong(query, ids);
          const sb = index === "main" ? await repos.pg.keywordScoresAmong(query, ids) : await repos.pg.cjkScoresAmong(query, ids);
          expect([...sb.keys()].sort((x, y) => x - y)).toEqual([...sa.keys()].sort((x, y) => x - y));
          for (const [id, s] of sa) expect({ q, id, s: sb.get(id) }).toEqual({ q, id, s });
        }
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  test("edits, archiving and a moved text are searched as they are now on both stores", async () => {
    for (const [t, u] of [[lite, users.lite.main], [pg, users.pg.main]] as const) {
      const list = await call(t, "GET", "/ideas/search?q=solar&mode=keyword&limit=50", { key: u.key });
      const [first, second, third] = list.body.results as Array<{ id: number }>;
      expect((await call(t, "PATCH", `/ideas/${first.id}`, { key: u.key, body: { title: "Kettle no more: a windmill 自転車" } })).status).toBe(200);
      expect((await call(t, "PATCH", `/ideas/${second.id}`, { key: u.key, body: { body: "" } })).status).toBe(200);
      expect((await call(t, "DELETE", `/ideas/${third.id}`, { key: u.key })).status).toBeLessThan(300);
    }
    expect(await compareAll()).toBeGreaterThan(QUERIES.length * 2);
    const lone = await top10(pg, users.pg.main, "windmill", "or");
    expect(lone).toHaveLength(1);
  });

  test("the PostgreSQL index rebuilt from the ideas table answers the same", async () => {
    await rebuildKeywordIndex(pg.deps.store);
    expect(await compareAll()).toBeGreaterThan(QUERIES.length * 2);
  });
});
