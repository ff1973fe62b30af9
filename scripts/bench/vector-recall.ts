// How many candidates the vector index's coarse pass must keep: recall of the candidate set (does it hold the exact
// cosine top 20?) for the product's coarse pass (Hamming prefilter, then the float query against the codes;
// src/vectors/codes.ts) beside Hamming distance alone, at several pool sizes r, on the same vectors as search.ts.
// No database: the codes are put into the product's in-memory table, the exact top 20 is a plain dot product.
// Also times the product's coarse pass beside a bare Hamming scan of the same codes, alternating.
//
//   bun scripts/bench/vector-recall.ts [--sizes 20000,50000,100000] [--queries 200] [--real 20000]
//
// Vectors: USE-lite embeddings of real sentences (real-vectors.ts, cached), the first --queries held out as queries;
// past the real ones, distinct normalised mixtures of two real vectors (as search.ts seeds them).
import { join, resolve } from "node:path";
import { startModels } from "../../src/ml/client";
import { AccountCodes, binaryCode } from "../../src/vectors/codes";
import { embedCached, realSentences } from "./real-vectors";
import { flag, ms, percentile } from "./search-lib";
import { createRng } from "../fuzz/rng";

const ROOT = resolve(import.meta.dir, "../..");
const sizes = flag("--sizes", "20000,50000,100000").split(",").map(Number);
const QUERIES = Number(flag("--queries", "200"));
const REAL = Number(flag("--real", "20000"));
const POOLS = [200, 300, 400, 500, 600, 800, 1000, 1500];

const rng = createRng(42); // mulberry32 (scripts/fuzz/rng.ts): the same seed gives the same run
const rand = rng.next;

const model = await startModels({ modelsDir: join(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
const real = await embedCached(model, realSentences(REAL));
await model.close();
const dim = real[0].length;
const queries = real.slice(0, QUERIES);
const N = Math.max(...sizes);
const base: Float32Array[] = real.slice(QUERIES, QUERIES + N);
let mixtures = 0;
while (base.length < N) {
  const [a, b] = [real[QUERIES + Math.floor(rand() * (real.length - QUERIES))], real[QUERIES + Math.floor(rand() * (real.length - QUERIES))]];
  const v = new Float32Array(dim);
  let n = 0;
  for (let d = 0; d < dim; d++) n += (v[d] = a[d] + b[d]) ** 2;
  for (let d = 0; d < dim; d++) v[d] /= Math.sqrt(n);
  base.push(v);
  mixtures++;
}
const codes = base.map((v) => binaryCode(v, Math.ceil(dim / 32) * 32));
const W = Math.ceil(dim / 32);
const words = new Uint32Array(N * W);
codes.forEach((c, i) => words.set(new Uint32Array(c.buffer), i * W));

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
/** The raw baseline: Hamming distance of every code to the query's code (what the index did before). */
function hamming(q: Float32Array, n: number): Uint16Array {
  const qc = new Uint32Array(binaryCode(q, W * 32).buffer);
  const dist = new Uint16Array(n);
  for (let i = 0, o = 0; i < n; i++, o += W) {
    let d = 0;
    for (let w = 0; w < W; w++) d += popcount(words[o + w] ^ qc[w]);
    dist[i] = d;
  }
  return dist;
}
/** Ids of the r smallest distances, ties at the cut included (as the index keeps them); the cut by counting. */
function hammingPool(dist: Uint16Array, r: number): Set<number> {
  const hist = new Uint32Array(W * 32 + 1);
  for (const d of dist) hist[d]++;
  let cut = 0;
  for (let seen = 0; cut < hist.length && seen + hist[cut] < r; cut++) seen += hist[cut];
  const out = new Set<number>();
  for (let i = 0; i < dist.length; i++) if (dist[i] <= cut) out.add(i);
  return out;
}
function exactTop20(q: Float32Array, n: number): number[] {
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = base[i];
    let dot = 0;
    for (let d = 0; d < dim; d++) dot += q[d] * v[d];
    s[i] = dot;
  }
  return Array.from(s.keys()).sort((a, b) => s[b] - s[a] || a - b).slice(0, 20);
}

console.log(`\nCoarse-pass recall: share of the exact cosine top 20 inside the pool of r candidates (model ${model.embedModelId}, ` +
  `${QUERIES} held-out real queries, ${Math.min(N, real.length - QUERIES).toLocaleString("en")} real vectors + ${mixtures.toLocaleString("en")} mixtures)`);
console.log(`| ideas | ${POOLS.map((r) => `r = ${r}: Hamming / product`).join(" | ")} |`);
console.log(`|---|${POOLS.map(() => "---").join("|")}|`);
const timing: string[] = [];
for (const n of sizes) {
  const account = new AccountCodes(W);
  for (let i = 0; i < n; i++) account.put(i, codes[i]);
  const hit = { ham: POOLS.map(() => 0), product: POOLS.map(() => 0) };
  for (const q of queries) {
    const top = exactTop20(q, n);
    const dist = hamming(q, n);
    POOLS.forEach((r, j) => {
      const ham = hammingPool(dist, r);
      const product = new Set(account.nearest(q, r));
      hit.ham[j] += top.filter((i) => ham.has(i)).length / 20 / queries.length;
      hit.product[j] += top.filter((i) => product.has(i)).length / 20 / queries.length;
    });
  }
  console.log(`| ${n.toLocaleString("en")} | ${POOLS.map((_, j) => `${hit.ham[j].toFixed(4)} / ${hit.product[j].toFixed(4)}`).join(" | ")} |`);
  const r = Math.max(400, Math.ceil(n * 0.005));
  const [tp, th]: number[][] = [[], []];
  for (const q of queries) {
    let t0 = performance.now();
    account.nearest(q, r);
    tp.push(performance.now() - t0);
    t0 = performance.now();
    hammingPool(hamming(q, n), r);
    th.push(performance.now() - t0);
  }
  timing.push(`| ${n.toLocaleString("en")} | ${r} | ${ms(percentile(tp, 50))} / ${ms(percentile(tp, 95))} | ${ms(percentile(th, 50))} / ${ms(percentile(th, 95))} |`);
}
console.log("\nCoarse pass time (alternating query by query)");
console.log("| ideas | r | product coarse pass p50 / p95 | bare Hamming scan + cut p50 / p95 |");
console.log("|---|---|---|---|");
for (const t of timing) console.log(t);
