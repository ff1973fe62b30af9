// Where a pipeline pass's synchronous time goes, one capture at a time into a seeded sizing data dir: time per SQL
// statement, per vector store call and per transaction, and the event loop's longest gap while the batch drains.
//
//   bun scripts/bench/pipeline-profile.ts DATA_DIR [captures=100]     (DATA_DIR from sizing.ts --data; it is written to)
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startModels } from "../../src/ml/client";
import { createIdeasService } from "../../src/modules/ideas/service";
import type { UserRow } from "../../src/modules/users/repo";
import { readState } from "../../src/vectors/generations";
import { vectorStore } from "../../src/vectors/store";
import { benchApp } from "./search-lib";

const dir = process.argv[2];
const N = Number(process.argv[3] ?? 100);
const seeded = JSON.parse(readFileSync(join(dir, "sizing-seeded.json"), "utf8"));
const sql = new Map<string, { n: number; ms: number }>();
let sqlTotal = 0;
const wrapStmt = (s: any, text: string) => {
  for (const m of ["get", "all", "run", "values"]) {
    const orig = s[m];
    if (typeof orig !== "function") continue;
    s[m] = function (...a: unknown[]) {
      const t = performance.now();
      try { return orig.apply(this, a); } finally {
        const d = performance.now() - t;
        sqlTotal += d;
        const k = text.replace(/\s+/g, " ").slice(0, 110);
        const e = sql.get(k) ?? { n: 0, ms: 0 };
        e.n++; e.ms += d; sql.set(k, e);
      }
    };
  }
  return s;
};
const P: any = Database.prototype;
const oq = P.query, op = P.prepare, ot = P.transaction;
P.query = function (t: string, ...r: unknown[]) { return wrapStmt(oq.call(this, t, ...r), t); };
P.prepare = function (t: string, ...r: unknown[]) { return wrapStmt(op.call(this, t, ...r), t); };
const tx: number[] = [];
P.transaction = function (fn: any) {
  const f = ot.call(this, fn);
  const w: any = (...a: unknown[]) => { const t = performance.now(); try { return f(...a); } finally { tx.push(performance.now() - t); } };
  for (const k of ["deferred", "immediate", "exclusive"]) w[k] = f[k];
  return w;
};

import { AccountCodes, CodeCache } from "../../src/vectors/codes";
const protoT = new Map<string, { n: number; ms: number }>();
for (const [name, proto, m] of [["CodeCache.account", CodeCache.prototype, "account"], ["AccountCodes.nearest", AccountCodes.prototype, "nearest"]] as const) {
  const orig = (proto as any)[m];
  (proto as any)[m] = function (...a: unknown[]) {
    const t = performance.now();
    try { return orig.apply(this, a); } finally { const e = protoT.get(name) ?? { n: 0, ms: 0 }; e.n++; e.ms += performance.now() - t; protoT.set(name, e); }
  };
}
const model = await startModels({ modelsDir: join(import.meta.dir, "../../models"), embedModel: "use-lite", rerankModel: null });
const app = await benchApp(join(dir, "idearepo.db"), model);
const { db } = app.deps;
// As the server runs it (group commit, src/db/durable.ts): commits unsynced, the answers wait for a shared sync.
db.exec("PRAGMA synchronous = NORMAL");
const ideas = createIdeasService(app.deps);
const userOf = db.prepare<UserRow, [string]>("SELECT * FROM users WHERE id = ?");
const store = vectorStore(app.deps.store, (await readState(app.deps.store)).active!);
const storeT = new Map<string, { n: number; ms: number }>();
for (const k of Object.keys(store) as (keyof typeof store)[]) {
  const orig = store[k] as any;
  if (typeof orig !== "function") continue;
  (store as any)[k] = function (...a: unknown[]) {
    const t = performance.now();
    try { return orig.apply(this, a); } finally {
      const e = storeT.get(k) ?? { n: 0, ms: 0 }; e.n++; e.ms += performance.now() - t; storeT.set(k, e);
    }
  };
}
const gaps: number[] = [];
let seed = 3;
const rand = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
const run = async (n: number) => {
  for (let i = 0; i < n; i++) {
    const a = seeded.accounts[rand(seeded.accounts.length)];
    const owner = { user: userOf.get(a.id)!, plan: "pro" as const };
    await ideas.create(owner, { title: seeded.captures[rand(seeded.captures.length)].slice(0, 200), body: seeded.captures[rand(seeded.captures.length)] });
  }
  sql.clear(); storeT.clear(); protoT.clear(); tx.length = 0; sqlTotal = 0;
  const t0 = performance.now();
  let last = performance.now();
  gaps.length = 0;
  const mon = setInterval(() => { const now = performance.now(); gaps.push(now - last); last = now; }, 2);
  await app.pipeline!.runner()!.drain();
  clearInterval(mon);
  return performance.now() - t0;
};
await run(20); // warm-up
const wall = await run(N);
const txs = tx.filter((t) => t > 1).sort((a, b) => a - b);
const q = (p: number) => txs[Math.min(txs.length - 1, Math.floor(p * txs.length))];
const txSum = txs.reduce((s, x) => s + x, 0);
console.log(`${N} captures to random accounts, drained in ${wall.toFixed(0)} ms; transactions > 1 ms: ${txs.length}, p50 ${q(0.5)?.toFixed(1)} p90 ${q(0.9)?.toFixed(1)} max ${txs.at(-1)?.toFixed(1)} ms, sum ${txSum.toFixed(0)} ms`);
const g = gaps.sort((a, b) => a - b);
console.log(`event loop: longest gap between 2 ms ticks ${g.at(-1)?.toFixed(1)} ms, p99 ${g[Math.floor(g.length * 0.99)]?.toFixed(1)}, gaps > 10 ms: ${g.filter((x) => x > 10).length}`);
console.log(`SQL total ${sqlTotal.toFixed(0)} ms (${(sqlTotal / N).toFixed(2)} ms/idea)`);
for (const [k, v] of [...sql].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) console.log(`  sql ${(v.ms / N).toFixed(2).padStart(6)} ms/idea  n=${String(v.n).padStart(5)}  ${k}`);
for (const [k, v] of [...storeT].sort((a, b) => b[1].ms - a[1].ms)) console.log(`  store.${k} ${(v.ms / N).toFixed(2)} ms/idea n=${v.n}`);
for (const [k, v] of protoT) console.log(`  ${k} ${(v.ms / N).toFixed(2)} ms/idea n=${v.n}`);
await app.close();
await model.close();
