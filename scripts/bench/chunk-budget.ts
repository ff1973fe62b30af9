// How long one background request holds the model worker, and the throughput, by its character budget: the figure
// behind BACKGROUND_BATCH_CHARS (src/ml/batching.ts). A search query waits for the request running when it arrives.
//
//   bun scripts/bench/chunk-budget.ts [--rounds 4] [--texts 96]
//
// Idea-like texts (1–4 sentences of a paragraph, ~350 characters), split by planBatches at each budget and sent through
// the model client one request after another, the budgets alternating in order and reverse order each round.
// The baseline is 8,000 characters, the budget of every request before background requests had their own.
import { loadavg } from "node:os";
import { planBatches } from "../../src/ml/batching";
import { startModels } from "../../src/ml/client";
import { flag, machine } from "./lib";

const ROUNDS = flag("rounds", 4);
const TEXTS = flag("texts", 96);
const BUDGETS = [8_000, 4_000, 2_000, 1_000];
const PARAGRAPH = `An idea for a neighbourhood tool library that lends drills, ladders, sewing machines and garden equipment to
residents for a small yearly fee. Most households own tools they use only a few times a year, and buying them is expensive
for people who rent small flats without storage space. The library would run from an unused shop front, staffed by
volunteers two evenings a week and on Saturday mornings. Members reserve items online, pick them up with a membership
card, and return them within a week. A simple web app tracks the inventory, sends reminders before items are due, and
records repairs so broken tools are fixed before the next loan. Workshops on basic repairs, bicycle maintenance and
safe use of power tools would bring people in and build a community around the space. Funding could come from a
council grant for the first year, membership fees afterwards, and donations of tools from people who are moving house.
Success would be measured by the number of active members, loans per month, and how many tools are kept out of
landfill.`.replace(/\s+/g, " ");

const sentences = PARAGRAPH.split(/(?<=\.) /);
let seed = 5;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
const texts = Array.from({ length: TEXTS }, (_, i) =>
  `${Array.from({ length: 1 + Math.floor(rand() * 4) }, () => sentences[Math.floor(rand() * sentences.length)]).join(" ")} (${i})`);
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const load = () => loadavg().map((x) => x.toFixed(1)).join(" ");

console.log(machine());
console.log(`${texts.length} texts, mean ${Math.round(texts.reduce((a, t) => a + t.length, 0) / texts.length)} characters; load at start ${load()}`);
const model = await startModels({ modelsDir: "/nonexistent-models-dir", embedModel: "use-lite", rerankModel: null });
await model.embed(texts.slice(0, 8)); // warm-up: the first call settles the weights
const results = new Map(BUDGETS.map((b) => [b, { requests: [] as number[], totalMs: 0 }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const budget of round % 2 ? [...BUDGETS].reverse() : BUDGETS) {
    const r = results.get(budget)!;
    const t0 = performance.now();
    for (const batch of planBatches(texts, 32, budget)) {
      const t = performance.now();
      await model.embed(batch.map((i) => texts[i]), { priority: "interactive" }); // as one request: no further split
      r.requests.push(performance.now() - t);
    }
    r.totalMs += performance.now() - t0;
  }
}
await model.close();
const base = results.get(8_000)!;
const baseRate = (TEXTS * ROUNDS) / (base.totalMs / 1000);
for (const [budget, r] of results) {
  const rate = (TEXTS * ROUNDS) / (r.totalMs / 1000);
  console.log(`${budget.toLocaleString("en")} characters: ${r.requests.length / ROUNDS} requests, request p50 ${quantile(r.requests, 0.5).toFixed(0)} ms / ` +
    `max ${Math.max(...r.requests).toFixed(0)} ms, ${rate.toFixed(1)} texts/s (${((rate / baseRate) * 100).toFixed(0)}% of the 8,000-character baseline's ${baseRate.toFixed(1)})`);
}
console.log(`load at end ${load()}`);
