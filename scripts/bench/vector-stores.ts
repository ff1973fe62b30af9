// The vector index on SQLite and on PostgreSQL, the same vectors in both: the neighbour queries semantic search
// (k = 50, raw cosine) and the pipeline's steps (k = 21, calibrated, memo off) ask, p50 / p95 alternating query by
// query, and whether both stores answer with the same top 10.
//
//   bun scripts/bench/vector-stores.ts [--sizes 10000,100000] [--queries 100] [--real 3000]
//
// Vectors: USE-lite embeddings of real sentences (real-vectors.ts, cached), then normalised mixtures of two of them
// up to the size, as scripts/bench/search.ts seeds them; 98% in the measured account, 2% in a second one. PostgreSQL
// is Debian's server started by test/support/postgres.ts (a fresh migrated database).
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { openDb } from "../../src/db/open";
import { pgStore } from "../../src/db/pg/store";
import { sqliteStore } from "../../src/db/sqlite-store";
import type { Store } from "../../src/db/store";
import { startModels } from "../../src/ml/client";
import { planGenerations } from "../../src/vectors/generations";
import { vectorStore, type VectorStore } from "../../src/vectors/store";
import { migratedDatabase, postgresMissing } from "../../test/support/postgres";
import { createRng } from "../fuzz/rng";
import { embedCached, realSentences } from "./real-vectors";
import { flag, ms, percentile } from "./search-lib";

const missing = postgresMissing();
if (missing) throw new Error(missing);
const ROOT = resolve(import.meta.dir, "../..");
const sizes = flag("--sizes", "10000").split(",").map(Number);
const QUERIES = Number(flag("--queries", "100"));
const REAL = Number(flag("--real", "3000"));

const model = await startModels({ modelsDir: join(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
const real = await embedCached(model, realSentences(REAL));
const queries = real.slice(0, QUERIES);
const pool = real.slice(QUERIES);
const rng = createRng(42);
const mixture = (a: Float32Array, b: Float32Array) => {
  const v = a.map((x, i) => x + b[i]);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const nth = (i: number) => (i < pool.length ? pool[i] : mixture(pool[Math.floor(rng.next() * pool.length)], pool[Math.floor(rng.next() * pool.length)]));

const stores: Array<{ name: string; store: Store; vs: VectorStore }> = [];
for (const [name, store] of [["SQLite", sqliteStore(openDb(":memory:"))], ["PostgreSQL", pgStore((await migratedDatabase()).url)]] as const) {
  const g = (await planGenerations(store, { model: "use-lite", model_id: model.embedModelId, dim: model.dim }, "2030-01-01 00:00:00")).active!;
  const vs = vectorStore(store, g);
  vs.memoizeNeighbours(false);
  stores.push({ name, store, vs });
}

const time = async (f: () => Promise<unknown>) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

console.log(`| ideas | query | SQLite p50 / p95 | PostgreSQL p50 / p95 | same top 10 | load |`);
console.log("|---|---|---|---|---|---|");
let seeded = 0;
for (const size of sizes) {
  const t0 = performance.now();
  const batch = Array.from({ length: size - seeded }, (_, i) => nth(seeded + i));
  for (const { store, vs } of stores) {
    for (let i = 0; i < batch.length; i += 1000) {
      await store.tx(async () => {
        for (let j = i; j < Math.min(batch.length, i + 1000); j++) {
          const id = seeded + j + 1;
          await vs.putIdea(id, id % 50 === 0 ? "small" : "big", batch[j], "bench");
        }
      });
    }
  }
  seeded = size;
  console.error(`seeded ${size} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  for (const { vs } of stores) for (const q of queries.slice(0, 3)) await vs.nearestIdeas("big", q, 50); // loads the codes
  for (const [label, ask] of [
    ["semantic search (raw, k=50)", (vs: VectorStore, q: Float32Array) => vs.nearestIdeas("big", q, 50)],
    ["pipeline steps (calibrated, k=21)", (vs: VectorStore, q: Float32Array) => vs.nearestCalibrated("big", q, 21)],
  ] as const) {
    const t: number[][] = [[], []];
    let same = 0;
    for (const q of queries) {
      const tops: number[][] = [];
      for (const [i, { vs }] of stores.entries()) {
        let got: { id: number }[] = [];
        t[i].push(await time(async () => (got = await ask(vs, q))));
        tops.push(got.slice(0, 10).map((n) => n.id));
      }
      if (tops[0].join() === tops[1].join()) same++;
    }
    const cell = (x: number[]) => `${ms(percentile(x, 50))} / ${ms(percentile(x, 95))}`;
    console.log(`| ${size.toLocaleString("en")} | ${label} | ${cell(t[0])} | ${cell(t[1])} | ${same}/${queries.length} | ${loadavg()[0].toFixed(1)} |`);
  }
}
for (const { store } of stores) await store.close();
await model.close();
