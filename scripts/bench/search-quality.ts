// Search quality on STS Benchmark through the product: every unique sentence of a split becomes an idea (POST /ideas,
// embedded by the pipeline), each sentence1 of a pair scored ≥ 4 is a query, and hit@1 asks whether the product's
// first result (other than the query's own idea) is its sentence2. Printed beside the brute-force cosine baseline.
//
//   bun scripts/bench/search-quality.ts [--split test|dev|both|none] [--git] [--data DIR] [--sweep] [--explore]
//
// Each split and --git (Git's manual: a page's summary line finds its page) also print raw against calibrated cosine
// in the same run (raw_vs_calibrated).
//
// Each split also prints hit@1 with the rule for queries the model cannot read switched off (before issue 38) beside
// the product's, alternating per query in the same run, and how many queries the rule treated as unread.
//
// --sweep also tries other keyword weights; --explore scores other fusion and normalisation choices on the same
// candidates (use both on dev: the test split is for the final figure only).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { startModels } from "../../src/ml/client";
import { createSearchRepo } from "../../src/modules/search/repo";
import type { TextQuery } from "../../src/modules/search/tokenize";
import { candidateCount, KEYWORD_WEIGHT, semanticSearch, UNREAD_RULE, type Scoring } from "../../src/modules/search/semantic";
import { readsText, modelScripts } from "../../src/ml/languages";
import { STOP_WORDS, tokenize } from "../../src/contract";
import { parseSts } from "./stsb";
import { loadGitManual } from "./man-corpus";
import { cachedEmbeddings } from "./vector-cache";
import { benchApp, benchUser, flag, request } from "./search-lib";
import { requireStsbDir } from "./stsb-data";

const ROOT = resolve(import.meta.dir, "../..");

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

type Fusion = (cos: number[], bm: number[], extra: { phrase: number[]; withStop: number[] }) => number[];

const minMax = (xs: number[]) => {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 0));
};
const zScore = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
  return xs.map((x) => (sd > 0 ? (x - m) / sd : 0));
};
const byMax = (xs: number[]) => {
  const hi = Math.max(0, ...xs);
  return xs.map((x) => (hi > 0 ? x / hi : 0));
};
const ranksOf = (xs: number[]) => {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => b[0] - a[0]);
  const r = new Array<number>(xs.length);
  order.forEach(([, i], k) => (r[i] = k + 1));
  return r;
};

/** Fusion choices from the hybrid-retrieval literature, each scoring the same candidates (cosine order given). */
function fusions(): Map<string, Fusion> {
  const f = new Map<string, Fusion>();
  f.set("cosine only", (c) => c);
  for (const w of [0.1, 0.2, 0.3]) f.set(`cos + ${w}·bm25/max (current form)`, (c, b) => byMax(b).map((x, i) => c[i] + w * x));
  for (const a of [0.6, 0.7, 0.8, 0.9]) {
    f.set(`convex min-max α=${a}`, (c, b) => {
      const mc = minMax(c);
      const mb = minMax(b);
      return mc.map((x, i) => a * x + (1 - a) * mb[i]);
    });
    f.set(`convex z-score α=${a}`, (c, b) => {
      const zc = zScore(c);
      const zb = zScore(b);
      return zc.map((x, i) => a * x + (1 - a) * zb[i]);
    });
  }
  for (const k of [10, 60]) {
    f.set(`RRF k=${k}`, (c, b) => {
      const rc = ranksOf(c);
      const rb = ranksOf(b);
      return rc.map((r, i) => 1 / (k + r) + (b[i] > 0 ? 1 / (k + rb[i]) : 0));
    });
  }
  for (const w of [0.1, 0.2, 0.3]) {
    f.set(`cos + ${w}·(bm25 + 0.5·phrase bm25)/max (sequential dependence)`, (c, b, e) =>
      byMax(b.map((x, i) => x + 0.5 * e.phrase[i])).map((x, i) => c[i] + w * x));
    f.set(`cos + ${w}·bm25 with stop words/max`, (c, _b, e) => byMax(e.withStop).map((x, i) => c[i] + w * x));
    f.set(`cos + ${w}·bm25/max, cosine min-max first`, (c, b) => {
      const mc = minMax(c);
      return byMax(b).map((x, i) => mc[i] + w * x);
    });
  }
  return f;
}

async function explore(app: Awaited<ReturnType<typeof benchApp>>, userId: string, queries: Array<{ a: string; self: number; want: number }>) {
  const repo = createSearchRepo(app.deps.store);
  const fs = fusions();
  const hits = new Map([...fs.keys()].map((k) => [k, 0]));
  const quote = (ws: string[]): TextQuery => ({ op: "or", phrases: ws });
  for (const q of queries) {
    const found = await semanticSearch(app.deps, repo, userId, q.a, { floor: 0.2, limit: candidateCount(2), secondStage: false });
    const cands = found!.hits.slice(0, candidateCount(2));
    const ids = cands.map((h) => h.id);
    const words = tokenize(q.a);
    const all = q.a.toLowerCase().replace(/[^\p{L}\p{N}\p{M}\s]+/gu, " ").split(/\s+/).filter((w) => w !== "");
    const pairs = words.slice(1).map((w, i) => `${words[i]} ${w}`);
    const get = async (match: TextQuery) => {
      const m = match.phrases.length > 0 ? await repo.keywordScoresAmong(match, ids) : new Map<number, number>();
      return ids.map((id) => m.get(id) ?? 0);
    };
    const bm = await get(quote([...new Set(words)]));
    const phrase = await get(quote([...new Set(pairs)]));
    const withStop = await get(quote([...new Set(all.filter((w) => [...w].length > 1 || STOP_WORDS.has(w)))]));
    const cos = cands.map((h) => h.score);
    for (const [name, fuse] of fs) {
      const s = fuse(cos, bm, { phrase, withStop });
      const order = ids.map((id, i) => ({ id, s: s[i], i })).sort((x, y) => y.s - x.s || x.i - y.i);
      if (order.find((o) => o.id !== q.self)?.id === q.want) hits.set(name, hits.get(name)! + 1);
    }
  }
  console.log(`\n| fusion (explore, same candidates, ${queries.length} queries in both directions) | hit@1 |`);
  console.log("|---|---|");
  for (const [name, n] of hits) console.log(`| ${name} | ${(n / queries.length).toFixed(3)} |`);
}

async function runSplit(split: string, dataDir: string, sweep: boolean): Promise<void> {
  const pairs = parseSts(readFileSync(join(dataDir, `sts-${split}.csv`), "utf8"));
  const sentences = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
  const queries = pairs.filter((p) => p.score >= 4 && p.a !== p.b);
  const real = await startModels({ modelsDir: join(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
  const model = cachedEmbeddings(real, join(tmpdir(), `idearepo-bench-vectors-quality-${real.embedModelId.replace(/[^\w.-]/g, "_")}.bin`));
  const app = await benchApp(":memory:", model);
  try {
    const user = await benchUser(app.deps, "pro");
    const idOf = new Map<string, number>();
    // Titles are limited to 200 characters; longer sentences go whole into the body (the embedded text is the same).
    for (const s of sentences) {
      const body = s.length > 200 ? { title: s.slice(0, 200), body: s.slice(200) } : { title: s };
      const r = await request(app, user.key, "POST", "/ideas", body);
      if (r.status !== 201) throw new Error(`capture failed: ${r.status} ${JSON.stringify(r.body)}`);
      idOf.set(s, r.body.id);
    }
    const t0 = performance.now();
    await app.pipeline!.runner()!.drain();
    const drainS = (performance.now() - t0) / 1000;
    model.save();

    // Baseline: brute-force cosine over the same sentences, embedded directly by the model.
    const vectors = await model.embed(sentences);
    const vectorOf = new Map(sentences.map((s, i) => [s, vectors[i]]));
    let baseHits = 0;
    for (const p of queries) {
      const q = vectorOf.get(p.a)!;
      let best = "";
      let bestScore = -Infinity;
      for (const s of sentences) {
        if (s === p.a) continue;
        const c = dot(q, vectorOf.get(s)!);
        if (c > bestScore) [best, bestScore] = [s, c];
      }
      if (best === p.b) baseHits++;
    }

    // The product: GET /ideas/search (with the second stage), and the same search with the second stage off.
    const repo = createSearchRepo(app.deps.store);
    const firstOther = (ids: number[], self: number) => ids.find((id) => id !== self);
    let httpHits = 0;
    let plainHits = 0;
    let changed = 0;
    let gained = 0;
    let lost = 0;
    const sweepKs = sweep ? [0.02, 0.05, 0.1, 0.2, 0.3, 0.5] : [];
    const sweepHits = new Map(sweepKs.map((k) => [k, 0]));
    const unreadHits = { off: 0, product: 0, unread: 0 };
    for (const p of queries) {
      const self = idOf.get(p.a)!;
      const want = idOf.get(p.b)!;
      const r = await request(app, user.key, "GET", `/ideas/search?q=${encodeURIComponent(p.a.slice(0, 500))}&limit=2`);
      if (r.body.search_type !== "semantic") throw new Error(`expected semantic results, got ${r.body.search_type}`);
      const fusedTop = firstOther(r.body.results.map((x: { id: number }) => x.id), self);
      if (fusedTop === want) httpHits++;
      // The rule for unread queries off (before issue 38) and as the product has it, alternating which runs first.
      const pair = queries.indexOf(p) % 2 === 0 ? (["off", UNREAD_RULE] as const) : ([UNREAD_RULE, "off"] as const);
      for (const rule of pair) {
        const found = await semanticSearch(app.deps, repo, user.id, p.a.slice(0, 500), { floor: 0.2, limit: 2, unread: rule });
        if (firstOther(found!.hits.map((h) => h.id), self) === want) unreadHits[rule === "off" ? "off" : "product"]++;
      }
      if (!readsText(p.a, modelScripts("use-lite", join(ROOT, "models")))) unreadHits.unread++;
      const plain = await semanticSearch(app.deps, repo, user.id, p.a, { floor: 0.2, limit: 2, secondStage: false });
      const plainTop = firstOther(plain!.hits.map((h) => h.id), self);
      if (plainTop === want) plainHits++;
      if (plainTop !== fusedTop) {
        changed++;
        if (fusedTop === want) gained++;
        if (plainTop === want) lost++;
      }
      for (const k of sweepKs) {
        const fused = await semanticSearch(app.deps, repo, user.id, p.a, { floor: 0.2, limit: 2, keywordWeight: k });
        if (firstOther(fused!.hits.map((h) => h.id), self) === want) sweepHits.set(k, sweepHits.get(k)! + 1);
      }
    }
    const scored = await raw_vs_calibrated(app, user.id, queries.map((p) => ({ q: p.a, self: idOf.get(p.a)!, want: idOf.get(p.b)! })));
    if (process.argv.includes("--explore")) {
      // Both directions (sentence2 → sentence1 too): twice the queries, so one query moves hit@1 half as much.
      const forward = queries.map((p) => ({ a: p.a, self: idOf.get(p.a)!, want: idOf.get(p.b)! }));
      const backward = queries.map((p) => ({ a: p.b, self: idOf.get(p.b)!, want: idOf.get(p.a)! }));
      await explore(app, user.id, [...forward, ...backward]);
    }
    const rate = (n: number) => (n / queries.length).toFixed(3);
    console.log(`\nSTS-B ${split}: ${sentences.length} ideas (pipeline drained in ${drainS.toFixed(1)} s), ${queries.length} queries (pairs with gold ≥ 4), model ${model.embedModelId}`);
    console.log("| paraphrase retrieval hit@1 | value |");
    console.log("|---|---|");
    console.log(`| brute-force cosine (raw baseline) | ${rate(baseHits)} |`);
    console.log(`| product semantic search, without second stage | ${rate(plainHits)} |`);
    console.log(`| product semantic search, with second stage (cosine + ${KEYWORD_WEIGHT} × normalised BM25, GET /ideas/search) | ${rate(httpHits)} |`);
    console.log(`| semanticSearch, rule for queries the model cannot read off (before issue 38) | ${rate(unreadHits.off)} |`);
    console.log(`| semanticSearch, rule "${UNREAD_RULE}" (the product; ${unreadHits.unread} of ${queries.length} queries unread by the model) | ${rate(unreadHits.product)} |`);
    for (const [k, hits] of sweepHits) console.log(`| sweep: keyword weight ${k} | ${rate(hits)} |`);
    console.log(`\nThe second stage changed the first result for ${changed} queries: ${gained} became hits, ${lost} stopped being hits.`);
    printScoring(`STS-B ${split}, paraphrase retrieval`, scored);
  } finally {
    await app.close();
    await model.close();
  }
}

interface Scored { label: string; hit1: number; mrr: number; recall: number; n: number }

/**
 * Raw against calibrated cosine (the account's shared component removed, as pairs are scored) in the same run, with
 * and without the second stage, at the default floor (0.2; and at 0, the ranking alone) and limit 10: hit@1, MRR@10 and recall@10 of the wanted
 * idea (a wanted idea scoring at or below the floor is not found: the floor's cost is part of the figure).
 */
async function raw_vs_calibrated(app: Awaited<ReturnType<typeof benchApp>>, userId: string, queries: Array<{ q: string; self: number | null; want: number }>): Promise<Scored[]> {
  const repo = createSearchRepo(app.deps.store);
  const configs: Array<{ label: string; scoring: Scoring; secondStage: boolean; floor: number }> = [
    { label: "raw cosine, without second stage", scoring: "raw", secondStage: false, floor: 0.2 },
    { label: "calibrated cosine, without second stage", scoring: "calibrated", secondStage: false, floor: 0.2 },
    { label: "raw cosine, with second stage", scoring: "raw", secondStage: true, floor: 0.2 },
    { label: "calibrated cosine, with second stage", scoring: "calibrated", secondStage: true, floor: 0.2 },
    { label: "ranking alone (floor 0): raw cosine, with second stage", scoring: "raw", secondStage: true, floor: 0 },
    { label: "ranking alone (floor 0): calibrated cosine, with second stage", scoring: "calibrated", secondStage: true, floor: 0 },
  ];
  const out = configs.map((c) => ({ label: c.label, hit1: 0, mrr: 0, recall: 0, n: queries.length }));
  for (const q of queries) {
    // Alternating the four configurations per query (a loaded machine moves every one alike).
    for (const [i, c] of configs.entries()) {
      const found = await semanticSearch(app.deps, repo, userId, q.q.slice(0, 500), { floor: c.floor, limit: 11, secondStage: c.secondStage, scoring: c.scoring });
      const ids = found!.hits.map((h) => h.id).filter((id) => id !== q.self).slice(0, 10);
      const rank = ids.indexOf(q.want);
      if (rank === 0) out[i].hit1++;
      if (rank >= 0) (out[i].mrr += 1 / (rank + 1)), out[i].recall++;
    }
  }
  return out;
}

function printScoring(title: string, scored: Scored[]): void {
  console.log(`\n${title}: raw vs calibrated cosine, floor 0.2 unless said, limit 10 (${scored[0].n} queries)`);
  console.log("| scoring | hit@1 | MRR@10 | recall@10 |");
  console.log("|---|---:|---:|---:|");
  for (const s of scored) console.log(`| ${s.label} | ${(s.hit1 / s.n).toFixed(3)} | ${(s.mrr / s.n).toFixed(3)} | ${(s.recall / s.n).toFixed(3)} |`);
}

/**
 * A single-subject vault (Git's manual, man-corpus.ts): each page is an idea (title the page name, body its
 * Description without the one-line summary), each summary a query whose wanted idea is its page. Where every idea
 * is on one subject, what they share is largest: the case calibration is for.
 */
async function runManual(): Promise<void> {
  const notes = loadGitManual();
  if (notes.length < 50) throw new Error(`only ${notes.length} Git manual pages found (install git-man)`);
  const real = await startModels({ modelsDir: join(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
  const model = cachedEmbeddings(real, join(tmpdir(), `idearepo-bench-vectors-quality-${real.embedModelId.replace(/[^\w.-]/g, "_")}.bin`));
  const app = await benchApp(":memory:", model);
  try {
    const user = await benchUser(app.deps, "pro");
    const queries: Array<{ q: string; self: null; want: number }> = [];
    for (const n of notes) {
      const [summary, ...rest] = n.body.split("\n\n");
      if (!summary || rest.length === 0) continue;
      const r = await request(app, user.key, "POST", "/ideas", { title: n.name, body: rest.join("\n\n") });
      if (r.status !== 201) throw new Error(`capture failed: ${r.status}`);
      queries.push({ q: summary, self: null, want: r.body.id });
    }
    await app.pipeline!.runner()!.drain();
    model.save();
    printScoring(`Git manual (${queries.length} pages), summary line → its page`, await raw_vs_calibrated(app, user.id, queries));
  } finally {
    await app.close();
    await model.close();
  }
}

const dataDir = requireStsbDir();
if (process.argv.includes("--git")) await runManual();
const split = flag("--split", "test");
for (const s of split === "none" ? [] : split === "both" ? ["dev", "test"] : [split]) await runSplit(s, dataDir, process.argv.includes("--sweep"));
