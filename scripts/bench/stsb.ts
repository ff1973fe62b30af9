// Embedding quality on STS Benchmark: Spearman of cosine vs gold, and paraphrase retrieval hit@1 by brute-force cosine.
//
//   bun scripts/bench/stsb.ts [--data DIR] [--split test|dev] [--model use-lite|NAME] [--models-dir DIR]
//
// DIR holds sts-test.csv / sts-dev.csv (tab-separated: genre, file, year, id, score, sentence1, sentence2[, …]);
// or the folder IDEAREPO_STSB_DIR names.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startModels } from "../../src/ml/client";
import { requireStsbDir } from "./stsb-data";

const ROOT = resolve(import.meta.dir, "../..");

export interface StsPair {
  score: number;
  a: string;
  b: string;
}

export function parseSts(text: string): StsPair[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.split("\t"))
    .filter((f) => f.length >= 7 && !Number.isNaN(Number(f[4])))
    .map((f) => ({ score: Number(f[4]), a: f[5], b: f[6] }));
}

/** Ranks starting at 1; tied values share the average of their ranks (as Spearman requires). */
function ranks(values: number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((x, y) => x[0] - y[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) out[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

export function pearson(x: number[], y: number[]): number {
  const mx = x.reduce((s, v) => s + v, 0) / x.length;
  const my = y.reduce((s, v) => s + v, 0) / y.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

export const spearman = (x: number[], y: number[]) => pearson(ranks(x), ranks(y));

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

if (import.meta.main) {
  const dataDir = requireStsbDir();
  const split = flag("--split", "test");
  const model = flag("--model", "use-lite");
  const pairs = parseSts(readFileSync(join(dataDir, `sts-${split}.csv`), "utf8"));

  const client = await startModels({ modelsDir: resolve(ROOT, flag("--models-dir", "models")), embedModel: model, rerankModel: null });
  const sentences = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
  const started = performance.now();
  const vectors = await client.embed(sentences);
  const embedSeconds = (performance.now() - started) / 1000;
  const vectorOf = new Map(sentences.map((s, i) => [s, vectors[i]]));
  await client.close();

  // Vectors are unit length, so cosine is the dot product.
  const cosines = pairs.map((p) => dot(vectorOf.get(p.a)!, vectorOf.get(p.b)!));
  const gold = pairs.map((p) => p.score);

  // Paraphrase retrieval: for each pair scored ≥ 4, is the partner the nearest of all other sentences in the split?
  const paraphrases = pairs.filter((p) => p.score >= 4 && p.a !== p.b);
  const nearest = (query: string): string => {
    const q = vectorOf.get(query)!;
    let best = "";
    let bestScore = -Infinity;
    for (const s of sentences) {
      if (s === query) continue;
      const score = dot(q, vectorOf.get(s)!);
      if (score > bestScore) [best, bestScore] = [s, score];
    }
    return best;
  };
  const forward = paraphrases.filter((p) => nearest(p.a) === p.b).length / paraphrases.length;
  const backward = paraphrases.filter((p) => nearest(p.b) === p.a).length / paraphrases.length;

  console.log(`STS-B ${split}: ${pairs.length} pairs, ${sentences.length} unique sentences, model ${client.embedModelId}`);
  console.log(`embedded in ${embedSeconds.toFixed(1)} s (${(sentences.length / embedSeconds).toFixed(0)} sentences/s, through the worker)\n`);
  console.log("| metric | value |");
  console.log("|---|---|");
  console.log(`| Spearman(cosine, gold) ×100 | ${(spearman(cosines, gold) * 100).toFixed(1)} |`);
  console.log(`| Pearson(cosine, gold) ×100 | ${(pearson(cosines, gold) * 100).toFixed(1)} |`);
  console.log(`| hit@1, sentence1 → sentence2, ${paraphrases.length} pairs with gold ≥ 4 | ${forward.toFixed(3)} |`);
  console.log(`| hit@1, both directions | ${((forward + backward) / 2).toFixed(3)} |`);
}
