// Candidate pair scores for a small subject inside a large mixed account (issue 25), measured offline on the same
// vectors as scripts/bench/suggestions-scale.ts, without the pipeline: the product's rules (20 nearest, a detection
// above 0.75 by max(score, word cosine), relations mutual best 3 above 0.5) applied to each candidate score.
//
//   bun scripts/bench/local-centre.ts [--sizes 2000,5000,10000] [--no-sts] [--cached-only] [--git-names a,b | --git-every N]
//     [--short-filler] [--pairs] [--sample N] [--rounds R] [--product-only] [--variants] [--specific [--spec-t 3,5,10]
//     [--spec-mode mean,min]] [--idf]
//
// --specific: each idea's subject removed in proportion to t / (t + T), t its words, for each T (the product: T 5);
// "min" scales both by the pair's lesser one. --idf: the word side weighted by rarity in the account, alone and with
// --spec-t's T. The STS-B part prints precision with the false positives' count, beside raw cosine.
//
// Relations: "rank" keeps the threshold on the account's calibration and ranks an idea's candidates by the
// duplicate score's embedding cosine (the product), "account" by the calibration (before).
// Candidates: the account's shrunk mean (the product before), and local centres: each idea's centre is the account's
// plus β times the mean residual of its k nearest ideas (the pair's centre is the mean of the two ideas' centres, so
// the score stays a symmetric cosine). Vectors come from the bench cache (vector-cache.ts); missing ones are embedded.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startModels } from "../../src/ml/client";
import { ideaText } from "../../src/pipeline/embed";
import { SPECIFIC_WORDS, specificity as specificityOf, wordCosine, wordCounts } from "../../src/pipeline/text-overlap";
import { loadGitManual, loadOtherManPages, nearCopy, rng, type CopyKind } from "./man-corpus";
import { flag } from "./search-lib";
import { parseSts } from "./stsb";
import { cachedEmbeddings, readVectorCache } from "./vector-cache";
import { makeRandom } from "../../test/fixtures/random";
import { evenSample, fitSubjects, localCosine, subjectOf, SUBJECT_ROUNDS, SUBJECT_SAMPLE, type Subjects } from "../../src/vectors/subjects";
import { requireStsbDir } from "./stsb-data";

const ROOT = resolve(import.meta.dir, "../..");
const sizes = flag("--sizes", "2000,5000,10000").split(",").map(Number);
const dataDir = requireStsbDir();
const max = Math.max(...sizes);

type Item = { title: string; body: string };
const gitEvery = Number(flag("--git-every", "1"));
const only = flag("--git-names", "");
const notes = loadGitManual().filter((n, i) => (only ? only.split(",").includes(n.name) : i % gitEvery === 0));
const random = rng(25);
const kinds: CopyKind[] = ["trimmed", "reordered", "retitled"];
const copies = notes.filter((_, i) => i % 5 === 0).map((n, i) => ({ of: notes.indexOf(n), kind: kinds[i % 3], ...nearCopy(n, kinds[i % 3], random) }));
const shortFiller = process.argv.includes("--short-filler"); // each filler page's summary line only (cheap to embed)
const filler: Item[] = loadOtherManPages(max).map((p) => ({ title: p.name, body: shortFiller ? p.body.split("\n")[0] : p.body }));
const stsPairs = parseSts(readFileSync(join(dataDir, "sts-test.csv"), "utf8"));
if (filler.length < max) {
  const names = new Set(filler.map((f) => f.title));
  for (const split of ["test", "dev"]) {
    for (const p of parseSts(readFileSync(join(dataDir, `sts-${split}.csv`), "utf8"))) {
      for (const s of [p.a, p.b]) {
        const title = s.slice(0, 150).replace(/[:#]/g, " ").trim();
        if (title && !names.has(title)) (names.add(title), filler.push({ title, body: s.length > 150 ? s : "" }));
      }
    }
  }
}

const real = await startModels({ modelsDir: resolve(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
const model = cachedEmbeddings(real, join(tmpdir(), `idearepo-bench-vectors-${real.embedModelId.replace(/[^\w.-]/g, "_")}.bin`));
// STS-B sentences: search-quality.ts's cache holds them (the same texts).
const stsModel = cachedEmbeddings(real, join(tmpdir(), `idearepo-bench-vectors-quality-${real.embedModelId.replace(/[^\w.-]/g, "_")}.bin`));
async function embedAll(items: Item[], m = model): Promise<Float32Array[]> {
  const texts = items.map((i) => ideaText(i.title, i.body));
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 512) {
    const chunk = texts.slice(i, i + 512);
    out.push(...(await m.embed(chunk.length === 1 ? [...chunk, chunk[0]] : chunk)).slice(0, chunk.length));
    m.save();
  }
  return out;
}

const noteItems: Item[] = notes.map((n) => ({ title: n.name, body: n.body }));
const base = [...noteItems, ...copies];
const baseVecs = await embedAll(base);
// --cached-only: filler pages whose vectors an earlier run cached, then (past them) distinct mixtures of two of them
// with no text, as calibrated-recall.ts seeds its sizes: a 10,000-idea account without embedding 10,000 pages here.
const cachedOnly = process.argv.includes("--cached-only");
let fillVecs: Float32Array[];
if (cachedOnly) {
  const cache = readVectorCache(join(tmpdir(), `idearepo-bench-vectors-${real.embedModelId.replace(/[^\w.-]/g, "_")}.bin`), real.dim);
  const kept = filler.filter((f) => cache.has(ideaText(f.title, f.body)));
  filler.splice(0, filler.length, ...kept);
  fillVecs = kept.map((f) => cache.get(ideaText(f.title, f.body))!);
  const realCount = fillVecs.length;
  const random2 = makeRandom(42);
  while (fillVecs.length < max - base.length) {
    const a = fillVecs[Math.floor(random2() * realCount)];
    const b = fillVecs[Math.floor(random2() * realCount)];
    const w = 0.3 + 0.4 * random2();
    const m = a.map((x, i) => w * x + (1 - w) * b[i]);
    const norm = Math.sqrt(dot(m, m));
    fillVecs.push(m.map((x) => x / norm));
    filler.push({ title: "", body: "" });
  }
  console.log(`filler: ${realCount} cached pages, ${fillVecs.length - realCount} mixtures past them`);
} else fillVecs = await embedAll(filler.slice(0, Math.max(0, max - base.length)));

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

interface Candidate {
  label: string;
  /** k nearest for the local centre (0: global only), β its weight. */
  k: number;
  beta: number;
  /** Relations by: the local score ("local"), the account's ("account"), or above 0.5 by the account's, ranked by the local one ("rank"). */
  rel: "local" | "account" | "rank";
  /** Relations: each idea's best this many (default 3), mutual. */
  relTop?: number;
  /** Leave the other idea of the pair out of each centre. */
  exclude?: boolean;
  /** Shrink the local mean by how much of it is more than the noise of k unrelated residuals (James–Stein). */
  js?: boolean;
  /** Instead of k nearest: the idea's cluster (k-means over the account's residuals, clusters of about this many ideas). */
  cluster?: number;
  /** Weight the cluster's mean by its coherence ρ = |mean residual|² / mean |residual|² raised to this power. */
  coherence?: number;
  /** The product's own subjects (src/vectors/subjects.ts), fitted on at most this many ideas in this many rounds. */
  product?: { sample: number; rounds: number; variant?: Variant; power?: number; beta?: number; mnn?: number; spec?: number; specMode?: "mean" | "min" };
  /** The word side weighted by rarity in the account: tf × log((N + 1) / (df + 1)) + 1 (the account's ideas). */
  idf?: boolean;
}
/**
 * Tried against STS-B's hardest paraphrases (issue 25), all on the product's subjects: how the pair's two subjects
 * make its centre: their mean (mid, the product), only when both ideas are in one subject (same), their mean times
 * cos(mean_a, mean_b)^power (cos); or, instead of a centre, each vector's component along the subjects' direction
 * scaled down by power × the subjects' weight (proj). `beta` scales every subject's weight; `mnn`: a pair among each
 * other's mnn best by the account's calibration keeps its calibrated cosine when that is higher.
 */
type Variant = "mid" | "same" | "cos" | "proj";
// --sample N[,M…] / --rounds: the product's fit with other bounds (one candidate each) or number of rounds; --product-only: skip this bench's own k-means.
const productSamples = flag("--sample", String(SUBJECT_SAMPLE)).split(",").map(Number);
const productRounds = Number(flag("--rounds", String(SUBJECT_ROUNDS)));
const candidates: Candidate[] = ([
  { label: "account mean (before)", k: 0, beta: 0, rel: "account" },
  { label: "subjects: clusters of ~25, shrunk m/(m+20) × ρ, fitted on all, 8 rounds", k: 1, beta: 1, rel: "account" as const, cluster: 25, coherence: 1 },
  ...productSamples.map((sample) => ({ label: `the product's subjects.ts (sample ${sample}, ${productRounds} rounds), relations ranked by the account's calibration (before)`, k: 1, beta: 1, rel: "account" as const, product: { sample, rounds: productRounds } })),
  // The product since the relation work of issue 25: relations' candidates ranked by the duplicate score's subjects.
  ...productSamples.map((sample) => ({ label: `same, relations ranked by the subjects' score (before specificity)`, k: 1, beta: 1, rel: "rank" as const, product: { sample, rounds: productRounds } })),
  // The product since specificity: each idea's subject removed in proportion to t / (t + SPECIFIC_WORDS), t its words.
  ...productSamples.map((sample) => ({ label: `same, each subject × its text's specificity (the product)`, k: 1, beta: 1, rel: "rank" as const, product: { sample, rounds: productRounds, spec: SPECIFIC_WORDS, specMode: "mean" as const } })),
  { label: "account mean, relations mutual best 2", k: 0, beta: 0, rel: "account", relTop: 2 },
  ...(process.argv.includes("--variants") ? [
    { label: "subjects removed only when both ideas are in one", variant: "same" },
    { label: "subjects × cos(the two subjects' means)", variant: "cos", power: 1 },
    { label: "subjects × 0.5", beta: 0.5 },
    { label: "subject direction projected out (× 1.5 w) instead of subtracting its mean", variant: "proj", power: 1.5 },
    { label: "subjects; a mutual best-2 pair keeps its calibrated cosine", mnn: 2 },
  ].map(({ label, ...v }) => ({ label, k: 1, beta: 1, rel: "account" as const, product: { sample: productSamples[0], rounds: productRounds, ...v } })) : []),
  ...(process.argv.includes("--specific") ? flag("--spec-t", "10,20,40").split(",").map(Number).flatMap((t) => (flag("--spec-mode", "mean,min").split(",") as ("mean" | "min")[]).map((specMode) =>
    ({ label: `subjects × t/(t+${t}) (t: the idea's words), pair by ${specMode}`, k: 1, beta: 1, rel: "rank" as const, product: { sample: productSamples[0], rounds: productRounds, spec: t, specMode } }))) : []),
  ...(process.argv.includes("--idf") ? [
    { label: "the product, word side weighted by IDF over the account", k: 1, beta: 1, rel: "rank" as const, idf: true, product: { sample: productSamples[0], rounds: productRounds } },
    ...flag("--spec-t", "5").split(",").map(Number).map((t) => ({ label: `subjects × t/(t+${t}) and the word side by IDF`, k: 1, beta: 1, rel: "rank" as const, idf: true, product: { sample: productSamples[0], rounds: productRounds, spec: t, specMode: "mean" as const } })),
  ] : []),
  ...productSamples.map((sample) => ({ label: `subjects, relations ranked by the subjects' score, mutual best 2`, k: 1, beta: 1, rel: "rank" as const, relTop: 2, product: { sample, rounds: productRounds } })),
] as Candidate[]).filter((c) => !process.argv.includes("--product-only") || c.product || c.k === 0);

/** localCosine with the pair's subject part chosen by `variant` (see Variant). */
function variantCosine(a: Float32Array, b: Float32Array, g: Float32Array, s: Subjects | null, ja: number, jb: number, variant: Variant, power: number): number {
  if (!s || variant === "mid") return localCosine(a, b, g, s, ja, jb);
  const ra = s.removed[ja], rb = s.removed[jb];
  if (variant === "proj") {
    const u = new Float32Array(g.length);
    const m = new Float32Array(g.length);
    for (let i = 0; i < u.length; i++) (u[i] = 0.5 * (ra[i] + rb[i])), (m[i] = 0.5 * (s.means[ja][i] + s.means[jb][i]));
    const uu = Math.sqrt(dot(u, u)), mm = Math.sqrt(dot(m, m));
    if (uu === 0 || mm === 0) return localCosine(a, b, g, null, 0, 0);
    const wt = Math.min(1, (power * uu) / mm);
    for (let i = 0; i < u.length; i++) u[i] /= uu;
    const x = a.map((v, i) => v - g[i]), y = b.map((v, i) => v - g[i]);
    const px = dot(x, u) * wt, py = dot(y, u) * wt;
    for (let i = 0; i < x.length; i++) (x[i] -= px * u[i]), (y[i] -= py * u[i]);
    return Math.max(0, Math.min(1, dot(x, y) / Math.sqrt(dot(x, x) * dot(y, y))));
  }
  let w = 1;
  if (ja !== jb) w = variant === "same" ? 0 : Math.max(0, dot(s.means[ja], s.means[jb]) / Math.sqrt(s.meanNorms[ja] * s.meanNorms[jb])) ** power;
  const c = new Float32Array(g.length);
  for (let i = 0; i < c.length; i++) c[i] = g[i] + w * 0.5 * (ra[i] + rb[i]);
  return localCosine(a, b, c, null, 0, 0);
}

/** The figures of the product's rules under one candidate, for the ideas `measured` of an account of vectors `vs`. */
function evaluate(vs: Float32Array[], cand: Candidate, measured: number[], words: (i: number) => Map<string, number>) {
  const n = vs.length;
  const dim = vs[0].length;
  const g = new Float32Array(dim);
  for (const v of vs) for (let i = 0; i < dim; i++) g[i] += v[i];
  const shrink = 1 / (n + 20);
  for (let i = 0; i < dim; i++) g[i] *= shrink;
  const gg = dot(g, g);
  const vg = vs.map((v) => dot(v, g));
  // Global calibrated rows, memoised.
  const rows = new Map<number, Float64Array>();
  const rowOf = (a: number) => {
    let r = rows.get(a);
    if (r) return r;
    r = new Float64Array(n);
    const va = vs[a];
    const na = Math.sqrt(Math.max(1e-12, 1 - 2 * vg[a] + gg));
    for (let b = 0; b < n; b++) {
      const nb = Math.sqrt(Math.max(1e-12, 1 - 2 * vg[b] + gg));
      r[b] = (dot(va, vs[b]) - vg[a] - vg[b] + gg) / (na * nb);
    }
    r[a] = -Infinity;
    rows.set(a, r);
    return r;
  };
  const topOf = (r: Float64Array, m: number) => {
    const idx: number[] = [];
    for (let b = 0; b < r.length; b++) idx.push(b);
    return idx.sort((x, y) => r[y] - r[x] || x - y).slice(0, m);
  };
  // Per idea: its k nearest and the sum of their residuals (v − g).
  const locals = new Map<number, { near: number[]; sum: Float32Array; rr: number }>();
  const localOf = (a: number) => {
    let l = locals.get(a);
    if (l) return l;
    const near = topOf(rowOf(a), Math.min(cand.k, n - 1));
    const sum = new Float32Array(dim);
    let rr = 0; // mean squared norm of the residuals
    for (const b of near) {
      for (let i = 0; i < dim; i++) sum[i] += vs[b][i] - g[i];
      rr += 1 - 2 * vg[b] + gg;
    }
    locals.set(a, (l = { near, sum, rr: rr / near.length }));
    return l;
  };
  const clusters = cand.cluster ? kmeans(vs, g, Math.max(1, Math.round(n / cand.cluster))) : null;
  let subjects: Subjects | null = null;
  let subjectIdx: Int32Array | null = null;
  if (cand.product) {
    const sample = evenSample(vs, cand.product.sample);
    const t0 = performance.now();
    subjects = fitSubjects(sample, g, n / sample.length, cand.product.rounds);
    const beta = cand.product.beta;
    if (subjects && beta !== undefined) subjects.removed = subjects.removed.map((r) => r.map((x) => x * beta));
    console.log(`  subjects fitted in ${(performance.now() - t0).toFixed(0)} ms (${subjects?.means.length} subjects)`);
    subjectIdx = Int32Array.from(vs.map((v) => (subjects ? subjectOf(subjects, v, g) : 0)));
  }
  if (clusters && measured.length) console.log(`  ρ of the Git notes' clusters: ${[...new Set(measured.map((a) => clusters.assign[a]))].map((j) => `${clusters.rho[j].toFixed(2)}(${clusters.sizes[j]})`).slice(0, 12).join(" ")}; all: median ${[...clusters.rho].sort()[clusters.rho.length >> 1].toFixed(2)}`);
  else if (clusters) console.log(`  ρ of the clusters: median ${[...clusters.rho].sort()[clusters.rho.length >> 1].toFixed(2)}, max ${Math.max(...clusters.rho).toFixed(2)}`);
  const centreOf = (a: number, other: number) => {
    const c = new Float32Array(g);
    if (cand.k === 0) return c;
    if (clusters) {
      const j = clusters.assign[a];
      const m = clusters.means[j];
      const w = (clusters.sizes[j] / (clusters.sizes[j] + 20)) * clusters.rho[j] ** (cand.coherence ?? 0);
      for (let i = 0; i < dim; i++) c[i] += w * m[i];
      return c;
    }
    const l = localOf(a);
    const m = new Float32Array(l.sum);
    let count = l.near.length;
    if (cand.exclude && l.near.includes(other)) {
      for (let i = 0; i < dim; i++) m[i] -= vs[other][i] - g[i];
      count--;
    }
    if (count <= 0) return c;
    for (let i = 0; i < dim; i++) m[i] /= count;
    let w = cand.beta;
    if (cand.js) {
      const mm = dot(m, m);
      w *= Math.max(0, 1 - l.rr / count / Math.max(1e-12, mm));
    }
    for (let i = 0; i < dim; i++) c[i] += w * m[i];
    return c;
  };
  const score = (a: number, b: number) => {
    if (cand.product) {
      const T = cand.product.spec;
      let local: number;
      if (T !== undefined && subjects) {
        const fa = specificity(a, T), fb = specificity(b, T);
        const ra = subjects.removed[subjectIdx![a]], rb = subjects.removed[subjectIdx![b]];
        const c = new Float32Array(dim);
        const [wa, wb] = cand.product.specMode === "min" ? [Math.min(fa, fb), Math.min(fa, fb)] : [fa, fb];
        for (let i = 0; i < dim; i++) c[i] = g[i] + 0.5 * (wa * ra[i] + wb * rb[i]);
        local = localCosine(vs[a], vs[b], c, null, 0, 0);
      } else local = variantCosine(vs[a], vs[b], g, subjects, subjectIdx![a], subjectIdx![b], cand.product.variant ?? "mid", cand.product.power ?? 1);
      const m = cand.product.mnn;
      if (m && topOf(rowOf(a), m).includes(b) && topOf(rowOf(b), m).includes(a)) return Math.max(local, Math.max(0, Math.min(1, rowOf(a)[b])));
      return local;
    }
    const ca = centreOf(a, b);
    const cb = centreOf(b, a);
    let ab = 0, ac = 0, bc = 0, cc = 0;
    const va = vs[a], vb = vs[b];
    for (let i = 0; i < dim; i++) {
      const c = 0.5 * (ca[i] + cb[i]);
      ab += va[i] * vb[i];
      ac += va[i] * c;
      bc += vb[i] * c;
      cc += c * c;
    }
    const na = Math.sqrt(Math.max(1e-12, 1 - 2 * ac + cc));
    const nb = Math.sqrt(Math.max(1e-12, 1 - 2 * bc + cc));
    return Math.max(0, Math.min(1, (ab - ac - bc + cc) / (na * nb)));
  };
  const specMemo = new Map<number, number>();
  /** How specific an idea's text is: t / (t + T), t its words (stop words dropped, counted with repeats); the product's at SPECIFIC_WORDS. */
  const specificity = (a: number, T: number) => {
    if (T === SPECIFIC_WORDS) return specificityOf(words(a));
    let t = specMemo.get(a);
    if (t === undefined) specMemo.set(a, (t = [...words(a).values()].reduce((x, y) => x + y, 0)));
    return t / (t + T);
  };
  const near = new Map<number, { id: number; s: number }[]>();
  const nearOf = (a: number) => {
    let l = near.get(a);
    if (l) return l;
    const cands = topOf(rowOf(a), cand.k > 0 ? 60 : 20);
    l = cands.map((b) => ({ id: b, s: cand.k > 0 ? score(a, b) : Math.max(0, Math.min(1, rowOf(a)[b])) })).sort((x, y) => y.s - x.s || x.id - y.id).slice(0, 20);
    near.set(a, l);
    return l;
  };
  const key = (a: number, b: number) => (a < b ? `${a}-${b}` : `${b}-${a}`);
  const dups = new Set<string>();
  const rels = new Set<string>();
  const accountNear = (a: number) => topOf(rowOf(a), 20).map((b) => ({ id: b, s: rowOf(a)[b] }));
  const relNear = (a: number) =>
    cand.rel === "local" ? nearOf(a) : cand.rel === "account" ? accountNear(a) :
      accountNear(a).filter((x) => x.s > 0.5).map((x) => ({ id: x.id, s: 0.5 + score(a, x.id) })).sort((x, y) => y.s - x.s || x.id - y.id);
  const top3memo = new Map<number, number[]>();
  const top3 = (a: number) => {
    let t = top3memo.get(a);
    if (!t) top3memo.set(a, (t = relNear(a).filter((x) => x.s > 0.5).slice(0, cand.relTop ?? 3).map((x) => x.id)));
    return t;
  };
  for (const a of measured) {
    const wa = words(a);
    for (const x of nearOf(a)) if (Math.max(x.s, wordSide(cand, wa, words(x.id))) > 0.75) dups.add(key(a, x.id));
    for (const b of top3(a)) if (top3(b).includes(a)) rels.add(key(a, b));
  }
  return { dups, rels, score };
}

/** k-means (Euclidean) over the residuals v − g, seeded by every (n/C)th idea, 8 rounds: each cluster's mean residual. */
function kmeans(vs: Float32Array[], g: Float32Array, C: number) {
  const dim = g.length;
  const rs = vs.map((v) => v.map((x, i) => x - g[i]));
  let means = Array.from({ length: C }, (_, j) => new Float32Array(rs[Math.floor((j * rs.length) / C)]));
  const assign = new Int32Array(rs.length);
  let sizes = new Array(C).fill(0);
  for (let round = 0; round < 8; round++) {
    const mm = means.map((m) => dot(m, m));
    for (let a = 0; a < rs.length; a++) {
      let best = 0, bestD = Infinity;
      for (let j = 0; j < C; j++) {
        const d = mm[j] - 2 * dot(rs[a], means[j]);
        if (d < bestD) (bestD = d), (best = j);
      }
      assign[a] = best;
    }
    const next = Array.from({ length: C }, () => new Float32Array(dim));
    sizes = new Array(C).fill(0);
    for (let a = 0; a < rs.length; a++) {
      sizes[assign[a]]++;
      const m = next[assign[a]];
      for (let i = 0; i < dim; i++) m[i] += rs[a][i];
    }
    for (let j = 0; j < C; j++) if (sizes[j] > 0) for (let i = 0; i < dim; i++) next[j][i] /= sizes[j];
    means = next;
  }
  const spread = new Array(C).fill(0);
  for (let a = 0; a < rs.length; a++) spread[assign[a]] += dot(rs[a], rs[a]);
  const rho = means.map((m, j) => (sizes[j] > 0 ? dot(m, m) / (spread[j] / sizes[j]) : 0));
  return { assign, means, sizes, rho };
}

const allWords = new Map<string, Map<string, number>>();
const wordsOf = (items: Item[]) => (i: number) => {
  const t = items[i];
  const k = `${t.title}\n${t.body}`;
  let w = allWords.get(k);
  if (!w) allWords.set(k, (w = wordCounts(t.title, t.body)));
  return w;
};

/** Document frequency of each word over the account being measured (set before each account's candidates). */
let df = new Map<string, number>();
let dfN = 0;
function setDf(n: number, words: (i: number) => Map<string, number>) {
  df = new Map();
  dfN = n;
  for (let i = 0; i < n; i++) for (const w of words(i).keys()) df.set(w, (df.get(w) ?? 0) + 1);
}
function wordSide(cand: Candidate, a: Map<string, number>, b: Map<string, number>): number {
  if (!cand.idf) return wordCosine(a, b);
  const wt = (m: Map<string, number>) => new Map([...m].map(([w, c]) => [w, c * (Math.log((dfN + 1) / ((df.get(w) ?? 0) + 1)) + 1)]));
  return wordCosine(wt(a), wt(b));
}

const links = new Set<string>();
const nameIdx = new Map(notes.map((n, i) => [n.name, i]));
for (const [i, n] of notes.entries()) for (const l of n.links) links.add(i < nameIdx.get(l)! ? `${i}-${nameIdx.get(l)}` : `${nameIdx.get(l)}-${i}`);

for (const size of sizes.filter((s) => s > 0)) {
  const items = [...base, ...filler.slice(0, size - base.length)];
  const vs = [...baseVecs, ...fillVecs.slice(0, size - base.length)];
  const measured = base.map((_, i) => i);
  console.log(`\n### ${size} ideas (${notes.length} Git notes, ${copies.length} near-copies, ${size - base.length} filler); load ${(await import("node:os")).loadavg()[0].toFixed(1)}`);
  setDf(items.length, wordsOf(items));
  console.log("| candidate | false dups / 20 notes | near-copies found | relations between notes | median / max | agreeing |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const cand of candidates) {
    const t0 = performance.now();
    const { dups, rels } = evaluate(vs, cand, measured, wordsOf(items));
    const isNote = (i: number) => i < notes.length;
    let falseDups = 0;
    const found = new Set<number>();
    for (const k of dups) {
      const [a, b] = k.split("-").map(Number);
      if (isNote(a) && isNote(b)) (falseDups++, process.argv.includes("--pairs") && console.log(`  false: ${notes[a].name} ${notes[b].name}`));
      else if (!isNote(b) && b < base.length && copies[b - notes.length].of === a) found.add(b);
    }
    const between = [...rels].filter((k) => k.split("-").map(Number).every(isNote));
    const per = notes.map(() => 0);
    for (const k of between) for (const i of k.split("-").map(Number)) per[i]++;
    per.sort((a, b) => a - b);
    const agree = between.filter((k) => links.has(k)).length;
    console.log(`| ${cand.label} | ${(falseDups / notes.length * 20).toFixed(2)} (${falseDups}) | ${found.size}/${copies.length} | ${between.length} | ${per[per.length >> 1]} / ${per[per.length - 1]} | ${(agree / Math.max(1, between.length) * 100).toFixed(0)}% | ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}

if (!process.argv.includes("--no-sts")) {
  const sents = [...new Set(stsPairs.flatMap((p) => [p.a, p.b]))];
  const items = sents.map((s) => ({ title: s.slice(0, 200), body: s.length > 200 ? s : "" }));
  const vs = await embedAll(items, stsModel);
  const idx = new Map(sents.map((s, i) => [s, i]));
  const pairs = stsPairs.filter((p) => p.score >= 4.6 || p.score <= 3.5);
  console.log(`\n### STS-B test, ${sents.length} sentences in one account: precision at recall 0.95 / 0.90 / 0.72 (duplicate score)`);
  setDf(items.length, wordsOf(items));
  const rawCand = { label: "raw cosine (no words)", raw: true } as const;
  for (const cand of [rawCand, ...candidates]) {
    const score = "raw" in cand ? null : evaluate(vs, cand, [], wordsOf(items)).score;
    const scored = pairs.map((p) => {
      const a = idx.get(p.a)!, b = idx.get(p.b)!;
      return { dup: p.score >= 4.6, s: score ? Math.max(score(a, b), wordSide(cand as Candidate, wordsOf(items)(a), wordsOf(items)(b))) : Math.max(0, dot(vs[a], vs[b])) };
    });
    const pos = scored.filter((s) => s.dup).map((s) => s.s).sort((a, b) => b - a);
    const at = (r: number) => {
      const th = pos[Math.ceil(r * pos.length) - 1] - 1e-9;
      const tp = scored.filter((s) => s.dup && s.s > th).length;
      const fp = scored.filter((s) => !s.dup && s.s > th).length;
      return `${(tp / (tp + fp)).toFixed(3)} (${fp})`;
    };
    const tp75 = scored.filter((s) => s.dup && s.s > 0.75).length, fp75 = scored.filter((s) => !s.dup && s.s > 0.75).length;
    console.log(`| ${cand.label} | ${at(0.95)} / ${at(0.9)} / ${at(0.72)} | above 0.75: p ${(tp75 / (tp75 + fp75)).toFixed(2)} r ${(tp75 / pos.length).toFixed(2)} |`);
  }
}
await real.close();
