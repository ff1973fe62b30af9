// Search latency at 10k and 100k ideas, each figure beside its raw baseline measured in the same run:
//   semantic GET /ideas/search end to end (query embedded by USE-lite), its KNN part vs the bare sqlite-vec query,
//   keyword GET /ideas/search vs the bare FTS5 query.
//
//   bun scripts/bench/search.ts [--sizes 10000,100000] [--queries 40]
//
// Seeding: idea rows are inserted directly (the FTS triggers index them) with random unit vectors; the model is far
// too slow to embed 100k ideas here, and a brute-force KNN costs the same whatever the vectors hold. Texts are built
// from STS-B sentences so the keyword index sees real English word frequencies. A second account holds 2% as many
// ideas, so the partitioned KNN is measured with a neighbour present.
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startModels } from "../../src/ml/client";
import { toStamp } from "../../src/lib/time";
import { ftsQuery, STOP_WORDS } from "../../src/modules/search/tokenize";
import { candidateCount } from "../../src/modules/search/semantic";
import { createSearchService } from "../../src/modules/search/service";
import type { UserRow } from "../../src/modules/users/repo";
import { planGenerations, vectorId } from "../../src/vectors/generations";
import { ideaTable } from "../../src/vectors/tables";
import { vectorStore } from "../../src/vectors/store";
import { parseSts } from "./stsb";
import { benchApp, benchUser, flag, ms, percentile, request, requestText, timeEach } from "./search-lib";

const ROOT = resolve(import.meta.dir, "../..");
const sizes = flag("--sizes", "10000,100000").split(",").map(Number);
const QUERIES = Number(flag("--queries", "40"));
const LIMIT = 20;

// Deterministic pseudo-random numbers, so every run seeds the same data.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];

function unitVector(dim: number): Float32Array {
  const v = new Float32Array(dim);
  let n = 0;
  for (let i = 0; i < dim; i++) {
    v[i] = rand() - 0.5;
    n += v[i] * v[i];
  }
  n = Math.sqrt(n);
  for (let i = 0; i < dim; i++) v[i] /= n;
  return v;
}

const sentences = [
  ...new Set(
    ["sts-dev.csv", "sts-test.csv"].flatMap((f) =>
      parseSts(readFileSync(join(ROOT, "../shared/data/stsb", f), "utf8")).flatMap((p) => [p.a, p.b]),
    ),
  ),
];
// Every occurrence, not the distinct set: query words are then drawn by how often people write them.
const words = sentences.flatMap((s) => s.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter((w) => !STOP_WORDS.has(w));

const dbFile = join(tmpdir(), `idearepo-bench-search-${process.pid}.db`);
const model = await startModels({ modelsDir: join(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
const app = await benchApp(dbFile, model);
const { db } = app.deps;
const big = await benchUser(app.deps, "pro");
const small = await benchUser(app.deps, "pro");
const now = toStamp(new Date());
const gen = planGenerations(db, { model: "use-lite", model_id: model.embedModelId, dim: model.dim }, now).active!;
const store = vectorStore(db, gen);
const insertIdea = db.prepare<{ id: number }, [string, number, string, string, string]>(
  `INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5) RETURNING id`,
);
const setVid = db.prepare("UPDATE ideas SET vectorize_id = ? WHERE id = ?");
const counts = new Map<string, number>([[big.id, 0], [small.id, 0]]);

function seedIdeas(userId: string, n: number): void {
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const number = counts.get(userId)! + 1;
      counts.set(userId, number);
      const body = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(sentences)).join(" ");
      const id = insertIdea.get(userId, number, pick(sentences).slice(0, 200), body, now)!.id;
      store.putIdea(id, userId, unitVector(gen.dim), "bench");
      setVid.run(vectorId(gen.gen, id), id);
    }
    db.query("UPDATE users SET idea_seq = ? WHERE id = ?").run(counts.get(userId)!, userId);
  })();
}

const semanticQueries = Array.from({ length: QUERIES }, () => pick(sentences).slice(0, 120));
const keywordQueries = Array.from({ length: QUERIES }, (_, i) => Array.from({ length: 1 + (i % 3) }, () => pick(words)).join(" "));
const qs = (q: string, extra = "") => `/ideas/search?q=${encodeURIComponent(q)}&limit=${LIMIT}${extra}`;

const rawKnn = db.prepare(`SELECT rowid, distance FROM ${ideaTable(gen.gen)} WHERE embedding MATCH ? AND k = ? AND user_id = ?`);
const rawKnnAll = db.prepare(`SELECT rowid, distance FROM ${ideaTable(gen.gen)} WHERE embedding MATCH ? AND k = ?`);
const rawFts = db.prepare(`SELECT rowid FROM ideas_fts WHERE ideas_fts MATCH ?1 ORDER BY bm25(ideas_fts, 2.0, 1.0) LIMIT ?2`);
// The bare SQL that answers the request itself: the caller's live ideas, whole rows, best BM25 first.
const rawFtsRows = db.prepare(
  `SELECT i.* FROM ideas_fts f JOIN ideas i ON i.id = f.rowid WHERE ideas_fts MATCH ?1 AND i.user_id = ?2 AND i.is_archived = 0
   ORDER BY bm25(ideas_fts, 2.0, 1.0) LIMIT ?3`,
);

const searchService = createSearchService(app.deps);
const bigAuth = { user: db.query<UserRow, [string]>("SELECT * FROM users WHERE id = ?").get(big.id)!, plan: "pro" as const };
const rows: string[] = [];
const row = (what: string, product: number, baseline: string, base: number | null) =>
  rows.push(`| ${what} | ${ms(product)} | ${baseline} | ${base === null ? "—" : ms(base)} | ${base === null ? "—" : (product / base).toFixed(2) + "×"} |`);

let seeded = 0;
for (const size of sizes) {
  const t0 = performance.now();
  seedIdeas(big.id, size - seeded - Math.round((size - seeded) * 0.02));
  seedIdeas(small.id, Math.round((size - seeded) * 0.02));
  seeded = size;
  db.exec("ANALYZE");
  console.error(`seeded ${size} ideas in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Warm up caches (pages, statements, the worker) before timing.
  for (const q of semanticQueries.slice(0, 3)) await request(app, big.key, "GET", qs(q));
  for (const q of keywordQueries.slice(0, 3)) await request(app, big.key, "GET", qs(q, "&mode=keyword"));

  const queryVectors = await model.embed(semanticQueries);
  const embedOne = await timeEach(semanticQueries, (q) => model.embed([q]));
  if ((await request(app, big.key, "GET", qs(semanticQueries[0]))).body.search_type !== "semantic") throw new Error("not semantic");
  const e2e = await timeEach(semanticQueries, (q) => requestText(app, big.key, qs(q)));
  const k = candidateCount(LIMIT);
  const knnProduct = await timeEach(queryVectors, (v) => store.nearestIdeas(big.id, v, k));
  const knnRaw = await timeEach(queryVectors, (v) => rawKnn.all(v, k, big.id));
  const knnRawAll = await timeEach(queryVectors, (v) => rawKnnAll.all(v, k));
  const kwProduct = await timeEach(keywordQueries, (q) => requestText(app, big.key, qs(q, "&mode=keyword")));
  const kwService = await timeEach(keywordQueries, (q) => searchService.search(bigAuth, { q, mode: "keyword", limit: String(LIMIT) }));
  const kwNothing = await timeEach(keywordQueries, (q) => requestText(app, big.key, qs(`${q.replace(/ /g, "")}qqzz`, "&mode=keyword")));
  const kwRaw = await timeEach(keywordQueries, (q) => rawFts.all(ftsQuery(q, "or")!, 2 * LIMIT));
  const kwRawRows = await timeEach(keywordQueries, (q) => rawFtsRows.all(ftsQuery(q, "or")!, big.id, 2 * LIMIT));
  const kwSmall = await timeEach(keywordQueries, (q) => requestText(app, small.key, qs(q, "&mode=keyword")));
  const kwRawRowsSmall = await timeEach(keywordQueries, (q) => rawFtsRows.all(ftsQuery(q, "or")!, small.id, 2 * LIMIT));
  const smallE2e = await timeEach(semanticQueries, (q) => requestText(app, small.key, qs(q)));

  const p50 = (x: number[]) => percentile(x, 50);
  rows.push(`| **${size.toLocaleString("en")} ideas** | | | | |`);
  row("semantic GET /ideas/search, end to end p50", p50(e2e), "query embedding alone (model) p50", p50(embedOne));
  row("semantic GET /ideas/search, end to end p95", percentile(e2e, 95), "", null);
  row(`KNN part (product, k=${k}, caller's partition) p50`, p50(knnProduct), "bare sqlite-vec query, same table and partition", p50(knnRaw));
  row("", p50(knnProduct), "bare sqlite-vec query, whole table (no partition)", p50(knnRawAll));
  row(`keyword GET /ideas/search p50 (up to ${2 * LIMIT} rows)`, p50(kwProduct), "bare FTS5 MATCH … ORDER BY bm25 LIMIT (rowids, no owner filter)", p50(kwRaw));
  row("", p50(kwProduct), "bare FTS5 joined to ideas, owner filter, whole rows", p50(kwRawRows));
  row("keyword search service call (no HTTP, auth, JSON) p50", p50(kwService), "bare FTS5 MATCH … ORDER BY bm25 LIMIT (rowids, no owner filter)", p50(kwRaw));
  row("keyword GET /ideas/search that matches nothing p50", p50(kwNothing), "(HTTP, auth and validation alone)", null);
  row("keyword GET /ideas/search p50, the 2% account", p50(kwSmall), "bare FTS5 joined to ideas, owner filter, whole rows", p50(kwRawRowsSmall));
  row("semantic, end to end, the 2% account (same database) p50", p50(smallE2e), "", null);
}

console.log(`\nSearch latency (${QUERIES} queries each, limit ${LIMIT}, model ${model.embedModelId}, ${process.platform}/${process.arch})`);
console.log("| measurement | product | raw baseline | baseline | ratio |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(r);
await app.close();
await model.close();
for (const suffix of ["", "-wal", "-shm"]) rmSync(dbFile + suffix, { force: true });
