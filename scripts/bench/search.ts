// Search latency at 10k and 100k ideas, each figure beside its raw baseline measured in the same run:
//   semantic GET /ideas/search end to end (query embedded by USE-lite); the vector index's exact and quantized
//   (binary codes + exact pass) KNN, p50/p95 and recall@20 against exact cosine KNN, beside the bare sqlite-vec
//   vec0 query over the same vectors (the index this product used before), runs alternating; memory and disk per
//   idea; keyword GET /ideas/search vs the bare FTS5 query.
//
//   bun scripts/bench/search.ts [--sizes 1000,2000,5000,10000,100000] [--queries 100] [--real 20000] [--rounds 3]
//
// Seeding: idea rows are inserted directly (the FTS triggers index them). Vectors are USE-lite embeddings of real
// sentences (real-vectors.ts: STS-B, then prose from node_modules and man pages; cached in the temp dir, since
// embedding costs ~20 ms a sentence here), each idea titled with its own sentence. Past the --real sentences the account
// is filled with normalised mixtures of two real vectors (the figures say how many). The first --queries sentences
// are the queries and are not indexed. Sizes below 10,000 measure only the KNN (where exact beats quantized). A
// second account holds 2% as many ideas, so the partitioned KNN is measured with a neighbour present.
import { readFileSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startModels } from "../../src/ml/client";
import { toStamp } from "../../src/lib/time";
import { STOP_WORDS } from "../../src/contract";
import { ftsQuery } from "../../src/modules/search/tokenize";
import { fts5Match } from "../../src/modules/search/fulltext-sqlite-repo";
import { candidateCount } from "../../src/modules/search/semantic";
import { createSearchService } from "../../src/modules/search/service";
import type { UserRow } from "../../src/modules/users/repo";
import { planGenerations, vectorId } from "../../src/vectors/generations";
import { ideaTable } from "../../src/vectors/tables";
import { PREFILTER_MIN } from "../../src/vectors/codes";
import { EXACT_POOL_SHARE, exactPoolSize, vectorStore } from "../../src/vectors/store";
import { embedCached, realSentences } from "./real-vectors";
import { parseSts } from "./stsb";
import { benchApp, benchUser, flag, ms, percentile, request, requestText, timeEach } from "./search-lib";
import { createRng } from "../fuzz/rng";
import { requireStsbDir } from "./stsb-data";

const ROOT = resolve(import.meta.dir, "../..");
const sizes = flag("--sizes", "1000,2000,5000,10000,100000").split(",").map(Number);
const QUERIES = Number(flag("--queries", "100"));
// End-to-end rounds at each size ≥ 10k, 20 s apart: on a shared machine one round says more about the neighbours.
const ROUNDS = Number(flag("--rounds", "3"));
const REAL = Number(flag("--real", "20000"));
const LIMIT = 20;

// Deterministic pseudo-random numbers (mulberry32), so every run seeds the same data. (An LCG in float arithmetic
// used before lost precision and cycled after ~10,000 draws: its 80,000 mixtures at 100k were 7,912 distinct vectors
// repeated ~10 times each, which made the recall figure measure ties among copies.)
const rng = createRng(42); // mulberry32 (scripts/fuzz/rng.ts): the same seed gives the same run
const rand = rng.next;
const pick = rng.pick;

/** A filler vector past the real ones: the normalised mean of two real vectors (stays where real vectors live). */
function mixture(a: Float32Array, b: Float32Array): Float32Array {
  const v = new Float32Array(a.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    v[i] = a[i] + b[i];
    n += v[i] * v[i];
  }
  n = Math.sqrt(n);
  for (let i = 0; i < a.length; i++) v[i] /= n;
  return v;
}

const sentences = [
  ...new Set(
    ["sts-dev.csv", "sts-test.csv"].flatMap((f) =>
      parseSts(readFileSync(join(requireStsbDir(), f), "utf8")).flatMap((p) => [p.a, p.b]),
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
const gen = (await planGenerations(app.deps.store, { model: "use-lite", model_id: model.embedModelId, dim: model.dim }, now)).active!;
const store = vectorStore(app.deps.store, gen);
const insertIdea = db.prepare<{ id: number }, [string, number, string, string, string]>(
  `INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5) RETURNING id`,
);
const setVid = db.prepare("UPDATE ideas SET vectorize_id = ? WHERE id = ?");
const counts = new Map<string, number>([[big.id, 0], [small.id, 0]]);

// The bare sqlite-vec baseline: the same vectors in a vec0 table laid out as the product's used to be.
const VEC0 = "bench_vec0";
db.exec(`CREATE VIRTUAL TABLE ${VEC0} USING vec0(user_id text partition key, embedding float[${gen.dim}] distance_metric=cosine, chunk_size=128)`);
const insVec0 = db.prepare(`INSERT INTO ${VEC0} (rowid, user_id, embedding) VALUES (?, ?, ?)`);

const real = realSentences(REAL);
console.error(`${real.length} real sentences; embedding (or reading the cache)…`);
const realVectors = await embedCached(model, real);
const semanticQueries = real.slice(0, QUERIES);
// Search-box queries: what people type into a search field is a few words, not a sentence (the embedding's cost
// grows with every token: ~9 ms + ~0.45 ms a word here). Each is the first four words of a held-out sentence that are
// not stop words, so they mean what the sentence means and are not indexed either.
const shortQueries = semanticQueries.map((s) => {
  const words = s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return (words.filter((w) => !STOP_WORDS.has(w)).slice(0, 4).join(" ") || words.slice(0, 4).join(" "));
});
let nextReal = QUERIES;
let mixtures = 0;
const nextVector = (): { title: string; v: Float32Array } => {
  if (nextReal < real.length) return { title: real[nextReal], v: realVectors[nextReal++] };
  mixtures++;
  const [a, b] = [Math.floor(rand() * (real.length - QUERIES)) + QUERIES, Math.floor(rand() * (real.length - QUERIES)) + QUERIES];
  return { title: `${real[a].slice(0, 100)} ${real[b].slice(0, 100)}`, v: mixture(realVectors[a], realVectors[b]) };
};

async function seedIdeas(userId: string, n: number): Promise<void> {
  await app.deps.store.tx(async () => {
    for (let i = 0; i < n; i++) {
      const number = counts.get(userId)! + 1;
      counts.set(userId, number);
      const body = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(sentences)).join(" ");
      const { title, v } = nextVector();
      const id = insertIdea.get(userId, number, title.slice(0, 200), body, now)!.id;
      await store.putIdea(id, userId, v, "bench");
      insVec0.run(id, userId, v);
      setVid.run(vectorId(gen.gen, id), id);
    }
    db.query("UPDATE users SET idea_seq = ? WHERE id = ?").run(counts.get(userId)!, userId);
  });
}

const keywordQueries = Array.from({ length: QUERIES }, (_, i) => Array.from({ length: 1 + (i % 3) }, () => pick(words)).join(" "));
const qs = (q: string, extra = "") => `/ideas/search?q=${encodeURIComponent(q)}&limit=${LIMIT}${extra}`;

const rawKnn = db.prepare<{ rowid: number; distance: number }, [Float32Array, number, string]>(
  `SELECT rowid, distance FROM ${VEC0} WHERE embedding MATCH ? AND k = ? AND user_id = ?`,
);
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

/** Two measurements interleaved query by query, so machine noise lands on both alike. */
async function alternate<T>(items: T[], a: (x: T) => unknown, b: (x: T) => unknown): Promise<[number[], number[]]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (const x of items) {
    (await timeEach([x], a)).forEach((t) => ta.push(t));
    (await timeEach([x], b)).forEach((t) => tb.push(t));
  }
  return [ta, tb];
}

/** Share of the exact top `k` that a list of ids holds, averaged over queries. */
const recall = (exact: number[][], got: number[][]) =>
  exact.reduce((sum, e, i) => sum + e.filter((id) => got[i].includes(id)).length / e.length, 0) / exact.length;

const dbBytes = (name: string) => db.query<{ n: number }, [string]>("SELECT coalesce(sum(pgsize), 0) AS n FROM dbstat WHERE name = ?").get(name)!.n;
const knnRows: string[] = [];
const roundRows: string[] = [];
const shortRows: string[] = [];
const p95 = (x: number[]) => percentile(x, 95);

let seeded = 0;
for (const size of sizes) {
  const t0 = performance.now();
  await seedIdeas(big.id, size - seeded - Math.round((size - seeded) * 0.02));
  await seedIdeas(small.id, Math.round((size - seeded) * 0.02));
  seeded = size;
  db.exec("ANALYZE");
  const bigCount = counts.get(big.id)!;
  console.error(`seeded ${size} ideas (${mixtures} of them mixtures) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // The vector index alone: exact vs quantized vs bare vec0, k = 20 for recall@20 and k as search asks for timing.
  const queryVectors = await model.embed(semanticQueries);
  const k = candidateCount(LIMIT);
  for (const v of queryVectors.slice(0, 3)) await store.nearestIdeas(big.id, v, k, "quantized"); // loads the account's codes
  const exact20: number[][] = [];
  const quant20: number[][] = [];
  for (const v of queryVectors) {
    exact20.push((await store.nearestIdeas(big.id, v, 20, "exact")).map((n) => n.id));
    quant20.push((await store.nearestIdeas(big.id, v, 20, "quantized")).map((n) => n.id));
  }
  const vec020 = queryVectors.map((v) => rawKnn.all(v, 20, big.id).map((r) => r.rowid));
  const [tQuant, tVec0] = await alternate(queryVectors, (v) => store.nearestIdeas(big.id, v, k, "quantized"), (v) => rawKnn.all(v, k, big.id));
  const [tExact, tVec0b] = await alternate(queryVectors, (v) => store.nearestIdeas(big.id, v, k, "exact"), (v) => rawKnn.all(v, k, big.id));
  const tBare = [...tVec0, ...tVec0b];
  const idx = ideaTable(gen.gen);
  const diskPerIdea = (dbBytes(idx) + dbBytes(`${idx}_codes`)) / size;
  const vec0PerIdea = ["", "_chunks", "_rowids", "_vector_chunks00"].reduce((n, sfx) => n + dbBytes(VEC0 + sfx), 0) / size;
  knnRows.push(
    `| ${size.toLocaleString("en")} (${bigCount.toLocaleString("en")} in the account${mixtures ? `, ${mixtures.toLocaleString("en")} mixtures` : ""}) ` +
      `| ${ms(percentile(tExact, 50))} / ${ms(p95(tExact))} | ${ms(percentile(tQuant, 50))} / ${ms(p95(tQuant))} ` +
      `| ${ms(percentile(tBare, 50))} / ${ms(p95(tBare))} | ${recall(exact20, quant20).toFixed(4)} | ${recall(exact20, vec020).toFixed(4)} ` +
      `| ${Math.round(diskPerIdea)} B (vec0 ${Math.round(vec0PerIdea)} B) | ~${(store.codeBytes() / size).toFixed(0)} B |`,
  );
  if (size < 10000) continue;

  // Warm up caches (pages, statements, the worker) before timing.
  for (const q of semanticQueries.slice(0, 3)) await request(app, big.key, "GET", qs(q));
  for (const q of keywordQueries.slice(0, 3)) await request(app, big.key, "GET", qs(q, "&mode=keyword"));

  if ((await request(app, big.key, "GET", qs(semanticQueries[0]))).body.search_type !== "semantic") throw new Error("not semantic");
  // End to end beside the query embedding alone, alternating query by query; the round with the lowest load counts
  // in the main table, every round is printed.
  let best: { load: number; e2e: number[]; embedOne: number[] } | null = null;
  for (let round = 1; round <= ROUNDS; round++) {
    if (round > 1) await Bun.sleep(20_000);
    const load = loadavg()[0];
    const [embedOne, e2e] = await alternate(semanticQueries, (q) => model.embed([q]), (q) => requestText(app, big.key, qs(q)));
    const [embedShort, e2eShort] = await alternate(shortQueries, (q) => model.embed([q]), (q) => requestText(app, big.key, qs(q)));
    const knn = await timeEach(queryVectors, (v) => store.nearestIdeas(big.id, v, k));
    shortRows.push(
      `| ${size.toLocaleString("en")} | ${round} | ${load.toFixed(1)} | ${ms(percentile(e2eShort, 50))} / ${ms(p95(e2eShort))} ` +
        `| ${ms(percentile(embedShort, 50))} | ${ms(percentile(e2eShort, 50) - percentile(embedShort, 50))} |`,
    );
    roundRows.push(
      `| ${size.toLocaleString("en")} | ${round} | ${load.toFixed(1)} | ${ms(percentile(e2e, 50))} / ${ms(p95(e2e))} | ${ms(percentile(embedOne, 50))} ` +
        `| ${ms(percentile(knn, 50))} | ${ms(percentile(e2e, 50) - percentile(embedOne, 50) - percentile(knn, 50))} |`,
    );
    if (!best || load < best.load) best = { load, e2e, embedOne };
  }
  const { e2e, embedOne } = best!;
  const [knnProduct, knnRaw] = await alternate(queryVectors, (v) => store.nearestIdeas(big.id, v, k), (v) => rawKnn.all(v, k, big.id));
  const kwProduct = await timeEach(keywordQueries, (q) => requestText(app, big.key, qs(q, "&mode=keyword")));
  const kwService = await timeEach(keywordQueries, (q) => searchService.search(bigAuth, { q, mode: "keyword", limit: String(LIMIT) }));
  const kwNothing = await timeEach(keywordQueries, (q) => requestText(app, big.key, qs(`${q.replace(/ /g, "")}qqzz`, "&mode=keyword")));
  const kwRaw = await timeEach(keywordQueries, (q) => rawFts.all(fts5Match(ftsQuery(q, "or")!), 2 * LIMIT));
  const kwRawRows = await timeEach(keywordQueries, (q) => rawFtsRows.all(fts5Match(ftsQuery(q, "or")!), big.id, 2 * LIMIT));
  const kwSmall = await timeEach(keywordQueries, (q) => requestText(app, small.key, qs(q, "&mode=keyword")));
  const kwRawRowsSmall = await timeEach(keywordQueries, (q) => rawFtsRows.all(fts5Match(ftsQuery(q, "or")!), small.id, 2 * LIMIT));
  const smallE2e = await timeEach(semanticQueries, (q) => requestText(app, small.key, qs(q)));

  const p50 = (x: number[]) => percentile(x, 50);
  rows.push(`| **${size.toLocaleString("en")} ideas** | | | | |`);
  row("semantic GET /ideas/search, end to end p50", p50(e2e), "query embedding alone (model) p50", p50(embedOne));
  row("semantic GET /ideas/search, end to end p95", percentile(e2e, 95), "", null);
  row(`KNN part (product, k=${k}, caller's account) p50`, p50(knnProduct), "bare sqlite-vec vec0 query, same vectors and partition", p50(knnRaw));
  row(`keyword GET /ideas/search p50 (up to ${2 * LIMIT} rows)`, p50(kwProduct), "bare FTS5 MATCH … ORDER BY bm25 LIMIT (rowids, no owner filter)", p50(kwRaw));
  row("", p50(kwProduct), "bare FTS5 joined to ideas, owner filter, whole rows", p50(kwRawRows));
  row("keyword search service call (no HTTP, auth, JSON) p50", p50(kwService), "bare FTS5 MATCH … ORDER BY bm25 LIMIT (rowids, no owner filter)", p50(kwRaw));
  row("keyword GET /ideas/search that matches nothing p50", p50(kwNothing), "(HTTP, auth and validation alone)", null);
  row("keyword GET /ideas/search p50, the 2% account", p50(kwSmall), "bare FTS5 joined to ideas, owner filter, whole rows", p50(kwRawRowsSmall));
  row("semantic, end to end, the 2% account (same database) p50", p50(smallE2e), "", null);
}

console.log(`\nVector index (model ${model.embedModelId}; ${QUERIES} real held-out queries; k=${candidateCount(LIMIT)} timed, k=20 for recall; ` +
  `quantized = Hamming prefilter of max(${PREFILTER_MIN}, 8r) codes, the float query against those codes keeps r = ` +
  `max(${exactPoolSize(candidateCount(LIMIT))}, ${EXACT_POOL_SHARE * 100}% of the account), exact cosine on those r)`);
console.log("| ideas in the database | exact p50 / p95 | quantized (product) p50 / p95 | bare vec0 p50 / p95 | recall@20 quantized | recall@20 vec0 | disk per idea | memory per idea (codes) |");
console.log("|---|---|---|---|---|---|---|---|");
for (const r of knnRows) console.log(r);
console.log(`database file: ${(statSync(dbFile).size / 2 ** 20).toFixed(0)} MB`);
console.log(`\nSearch latency (${QUERIES} queries each, limit ${LIMIT}, model ${model.embedModelId}, ${process.platform}/${process.arch})`);
console.log("| measurement | product | raw baseline | baseline | ratio |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log(`\nSemantic search end to end, every round (${QUERIES} queries; the main table shows the round with the lowest load)`);
console.log("| ideas | round | load average (1 min) | end to end p50 / p95 | query embedding alone p50 | KNN p50 | rest (p50 e2e − embedding − KNN) |");
console.log("|---|---|---|---|---|---|---|");
for (const r of roundRows) console.log(r);
console.log(`\nThe same with search-box queries (each held-out sentence's first four words that are not stop words, e.g. "${shortQueries[0]}")`);
console.log("| ideas | round | load average (1 min) | end to end p50 / p95 | query embedding alone p50 | rest (p50 e2e − embedding) |");
console.log("|---|---|---|---|---|---|");
for (const r of shortRows) console.log(r);
await app.close();
await model.close();
for (const suffix of ["", "-wal", "-shm"]) rmSync(dbFile + suffix, { force: true });
