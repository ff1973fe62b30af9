// The background pipeline on PostgreSQL beside SQLite: an account's captures embedded, tagged, related and checked
// for duplicates (the full pass, real model), timed per store, the store that goes first alternating round by round.
//
//   bun scripts/bench/pipeline-stores.ts [--ideas 250] [--rounds 3]
//
// Two corpora per round: the semantic-search test's 250 near-copies ("Fixing old cars, garage number i": every idea
// has every other as a duplicate candidate, the neighbour queries' worst case) and 250 varied texts (lib.ts's
// ideaTexts). The stores are the tests' (an in-memory SQLite database; PostgreSQL the test cluster, fsync off), so
// the figures are what the suites wait for in CI; capture is timed apart from the drain.
import { loadavg } from "node:os";
import { startModels } from "../../src/ml/client";
import { migratedDatabase, postgresMissing } from "../../test/support/postgres";
import { ideaTexts } from "./lib";
import { benchApp, benchUser, flag, request } from "./search-lib";

const missing = postgresMissing();
if (missing) throw new Error(missing);
const N = Number(flag("--ideas", "250"));
const ROUNDS = Number(flag("--rounds", "3"));

const corpora: Record<string, Array<{ title: string; body?: string }>> = {
  "near-copies": Array.from({ length: N }, (_, i) => ({ title: `Fixing old cars, garage number ${i}` })),
  varied: ideaTexts(N),
};

const model = await startModels({ modelsDir: "/nonexistent-models-dir", embedModel: "use-lite", rerankModel: null });
const results: Record<string, number[]> = {};

async function once(store: "sqlite" | "postgres", corpus: string): Promise<number> {
  const pgUrl = store === "postgres" ? (await migratedDatabase()).url : undefined;
  const app = await benchApp(":memory:", model, { pgUrl });
  try {
    const u = await benchUser(app.deps, "pro");
    for (const body of corpora[corpus]) {
      const r = await request(app, u.key, "POST", "/ideas", body);
      if (r.status !== 201) throw new Error(`capture: ${r.status}`);
    }
    const t0 = performance.now();
    await app.pipeline!.runner()!.drain();
    return (performance.now() - t0) / 1000;
  } finally {
    await app.close();
  }
}

for (let round = 0; round < ROUNDS; round++) {
  const order: Array<"sqlite" | "postgres"> = round % 2 === 0 ? ["sqlite", "postgres"] : ["postgres", "sqlite"];
  for (const corpus of Object.keys(corpora)) {
    for (const store of order) {
      const s = await once(store, corpus);
      (results[`${corpus} ${store}`] ??= []).push(s);
      console.log(`round ${round + 1} ${corpus} ${store}: drained ${N} in ${s.toFixed(1)} s (load ${loadavg()[0].toFixed(1)})`);
    }
  }
}
await model.close();
console.log("\nmedian drain seconds:");
for (const [k, v] of Object.entries(results)) {
  const m = [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  console.log(`  ${k}: ${m.toFixed(1)} s (${v.map((x) => x.toFixed(1)).join(", ")}), ${(N / m).toFixed(1)} ideas/s`);
}
process.exit(0);
