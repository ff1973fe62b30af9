// Recall of the vector index's coarse pass for the calibrated score, at account sizes: does the quantized
// nearestCalibrated (Hamming on the raw query's signs, then the calibrated query against the codes; codes.ts) hold
// the exact calibrated top 20? Beside the same figure for raw cosine (nearestIdeas) on the same vectors, same run.
// The vectors: USE-lite embeddings of suggestions-scale.ts's corpus (its cache file; --embed embeds the rest of the
// corpus first), then distinct mixtures of two of them up to the size; put into one account of the product's store
// directly (no pipeline). Queries: every (size / queries)th stored vector.
//
//   bun scripts/bench/calibrated-recall.ts [--sizes 2000,5000,10000] [--queries 200] [--embed]
import { readFileSync, existsSync } from "node:fs";
import { loadavg } from "node:os";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openDb } from "../../src/db/open";
import { startModels } from "../../src/ml/client";
import { ideaText } from "../../src/pipeline/embed";
import { planGenerations } from "../../src/vectors/generations";
import { vectorStore } from "../../src/vectors/store";
import { sqliteStore } from "../../src/db/sqlite-store";
import { loadGitManual, loadOtherManPages } from "./man-corpus";
import { flag, percentile } from "./search-lib";
import { parseSts } from "./stsb";
import { cachedEmbeddings, readVectorCache } from "./vector-cache";
import { makeRandom } from "../../test/fixtures/random";
import { requireStsbDir } from "./stsb-data";

const ROOT = resolve(import.meta.dir, "../..");
const sizes = flag("--sizes", "2000,5000,10000").split(",").map(Number);
const QUERIES = Number(flag("--queries", "200"));
const max = Math.max(...sizes);

// The cached embeddings of suggestions-scale.ts's corpus (embedding the rest of it here when --embed is given: slow),
// then, past the real ones, distinct normalised mixtures of two real vectors (as vector-recall.ts seeds its sizes).
const real = await startModels({ modelsDir: join(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
const MODEL = real.embedModelId;
const DIM = real.dim;
const file = join(tmpdir(), `idearepo-bench-vectors-${MODEL.replace(/[^\w.-]/g, "_")}.bin`);
if (process.argv.includes("--embed")) {
  const texts = loadGitManual().map((n) => ideaText(n.name, n.body));
  for (const p of loadOtherManPages(max)) texts.push(ideaText(p.name, p.body));
  const sts = join(requireStsbDir(), "sts-test.csv");
  if (texts.length < max && existsSync(sts)) for (const p of parseSts(readFileSync(sts, "utf8"))) texts.push(p.a, p.b);
  const model = cachedEmbeddings(real, file);
  const corpus = [...new Set(texts)].slice(0, max);
  for (let i = 0; i < corpus.length; i += 512) {
    await model.embed(corpus.slice(i, i + 512));
    model.save();
  }
}
await real.close();
const vectors = [...readVectorCache(file, DIM).values()];
const realCount = vectors.length;
if (realCount < 500) throw new Error(`only ${realCount} cached vectors: run scripts/bench/suggestions-scale.ts first`);
const random = makeRandom(42);
while (vectors.length < max) {
  const a = vectors[Math.floor(random() * realCount)];
  const b = vectors[Math.floor(random() * realCount)];
  const w = 0.3 + 0.4 * random();
  const m = new Float32Array(DIM);
  let n2 = 0;
  for (let i = 0; i < DIM; i++) (m[i] = w * a[i] + (1 - w) * b[i]), (n2 += m[i] * m[i]);
  for (let i = 0; i < DIM; i++) m[i] /= Math.sqrt(n2);
  vectors.push(m);
}
console.log(`${realCount} real vectors (man pages, Git's manual, sentences), ${vectors.length - realCount} mixtures past them`);

const db = openDb(":memory:");
const sqlite = sqliteStore(db);
const gen = (await planGenerations(sqlite, { model: "use-lite", model_id: MODEL, dim: DIM }, new Date().toISOString())).active!;
const store = vectorStore(sqlite, gen);
const user = "bench-account";
let n = 0;
console.log(`| ideas | calibrated: recall@20, query p50 ms | raw: recall@20, query p50 ms | a pass's scoring p50 ms: product / raw | subjects' fit ms | load |`);
console.log("|---:|---:|---:|---:|---:|---:|");
for (const size of sizes) {
  await sqlite.tx(async () => {
    for (; n < size; n++) await store.putIdea(n + 1, user, vectors[n], String(n));
  });
  const step = Math.max(1, Math.floor(size / QUERIES));
  const qs = vectors.slice(0, size).filter((_, i) => i % step === 0).slice(0, QUERIES);
  const run = async (f: (v: Float32Array, m: "exact" | "quantized") => Promise<{ id: number }[]>) => {
    let hit = 0;
    const times: number[] = [];
    for (const v of qs) {
      const exact = new Set((await f(v, "exact")).slice(0, 20).map((x) => x.id));
      const t = performance.now();
      const got = await f(v, "quantized");
      times.push(performance.now() - t);
      hit += got.slice(0, 20).filter((x) => exact.has(x.id)).length;
    }
    return `${(hit / (20 * qs.length)).toFixed(3)}, ${percentile(times, 50).toFixed(2)}`;
  };
  // Alternating per size: calibrated, then raw, on the same queries.
  store.memoizeNeighbours(false); // every query timed afresh (neighbour-memo.ts keeps answers while the account is unchanged)
  const cal = await run((v, m) => store.nearestCalibrated(user, v, 20, m));
  const raw = await run((v, m) => store.nearestIdeas(user, v, 20, m));
  // The scoring work of one idea's pass (steps.ts): its 21 nearest by calibrated cosine, the duplicate scores of the
  // 20 (subjects.ts), and the neighbour query of up to 3 relation candidates; beside the same four queries by raw
  // cosine (the rule before calibration), alternating. The subjects' fit is timed on its own (first use after a
  // re-score: markScored, as queueRescores does).
  await store.markScored(user);
  let t = performance.now();
  await store.localScores(user, qs[0], [1]);
  const fitMs = performance.now() - t;
  const pass: number[] = [];
  const passRaw: number[] = [];
  for (const v of qs) {
    t = performance.now();
    const near = await store.nearestCalibrated(user, v, 21);
    await store.localScores(user, v, near.slice(1).map((x) => x.id));
    for (const c of near.slice(1, 4)) await store.nearestCalibrated(user, vectors[c.id - 1], 21);
    pass.push(performance.now() - t);
    t = performance.now();
    const rawNear = await store.nearestIdeas(user, v, 21);
    for (const c of rawNear.slice(1, 4)) await store.nearestIdeas(user, vectors[c.id - 1], 21);
    passRaw.push(performance.now() - t);
  }
  console.log(`| ${size} | ${cal} | ${raw} | ${percentile(pass, 50).toFixed(1)} / ${percentile(passRaw, 50).toFixed(1)} | ${fitMs.toFixed(0)} | ${loadavg()[0].toFixed(1)} |`);
}
db.close();
