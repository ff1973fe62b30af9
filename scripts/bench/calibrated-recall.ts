// Recall of the vector index's coarse pass for the calibrated score, at account sizes: does the quantized
// nearestCalibrated (Hamming on the raw query's signs, then the calibrated query against the codes; codes.ts) hold
// the exact calibrated top 20? Beside the same figure for raw cosine (nearestIdeas) on the same vectors, same run.
// The vectors: USE-lite embeddings of suggestions-scale.ts's corpus (Git's manual, other man pages, STS-B sentences,
// in that order; cached in the same file), put into one account of the product's store directly (no pipeline).
//
//   bun scripts/bench/calibrated-recall.ts [--sizes 2000,5000,10000] [--queries 200]
import { readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openDb } from "../../src/db/open";
import { startModels } from "../../src/ml/client";
import { ideaText } from "../../src/pipeline/embed";
import { planGenerations } from "../../src/vectors/generations";
import { vectorStore } from "../../src/vectors/store";
import { loadGitManual, loadOtherManPages } from "./man-corpus";
import { flag, percentile } from "./search-lib";
import { parseSts } from "./stsb";
import { cachedEmbeddings } from "./vector-cache";

const ROOT = resolve(import.meta.dir, "../..");
const sizes = flag("--sizes", "2000,5000,10000").split(",").map(Number);
const QUERIES = Number(flag("--queries", "200"));
const max = Math.max(...sizes);

// The corpus of suggestions-scale.ts, in its order: Git's manual, other man pages, STS-B sentences.
const texts = loadGitManual().map((n) => ideaText(n.name, n.body));
for (const p of loadOtherManPages(max)) texts.push(ideaText(p.name, p.body));
const sts = resolve(ROOT, "../shared/data/stsb/sts-test.csv");
if (texts.length < max && existsSync(sts)) for (const p of parseSts(readFileSync(sts, "utf8"))) texts.push(p.a, p.b);
const corpus = [...new Set(texts)].slice(0, max);
if (corpus.length < max) throw new Error(`only ${corpus.length} texts`);
const real = await startModels({ modelsDir: join(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
const model = cachedEmbeddings(real, join(tmpdir(), `idearepo-bench-vectors-${real.embedModelId.replace(/[^\w.-]/g, "_")}.bin`));
const vectors: Float32Array[] = [];
for (let i = 0; i < corpus.length; i += 512) {
  vectors.push(...(await model.embed(corpus.slice(i, i + 512))));
  model.save();
}
const MODEL = real.embedModelId;
const DIM = real.dim;
await model.close();

const db = openDb(":memory:");
const gen = planGenerations(db, { model: "use-lite", model_id: MODEL, dim: DIM }, new Date().toISOString()).active!;
const store = vectorStore(db, gen);
const user = "bench-account";
let n = 0;
console.log(`| ideas | calibrated: recall@20, query p50 ms | raw: recall@20, query p50 ms |`);
console.log("|---:|---:|---:|");
for (const size of sizes) {
  db.transaction(() => {
    for (; n < size; n++) store.putIdea(n + 1, user, vectors[n], String(n));
  })();
  const step = Math.max(1, Math.floor(size / QUERIES));
  const qs = vectors.slice(0, size).filter((_, i) => i % step === 0).slice(0, QUERIES);
  const run = (f: (v: Float32Array, m: "exact" | "quantized") => { id: number }[]) => {
    let hit = 0;
    const times: number[] = [];
    for (const v of qs) {
      const exact = new Set(f(v, "exact").slice(0, 20).map((x) => x.id));
      const t = performance.now();
      const got = f(v, "quantized");
      times.push(performance.now() - t);
      hit += got.slice(0, 20).filter((x) => exact.has(x.id)).length;
    }
    return `${(hit / (20 * qs.length)).toFixed(3)}, ${percentile(times, 50).toFixed(2)}`;
  };
  // Alternating per size: calibrated, then raw, on the same queries.
  const cal = run((v, m) => store.nearestCalibrated(user, v, 20, m));
  const raw = run((v, m) => store.nearestIdeas(user, v, 20, m));
  console.log(`| ${size} | ${cal} | ${raw} |`);
}
db.close();
