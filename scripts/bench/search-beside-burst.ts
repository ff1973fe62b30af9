// Semantic search while a burst of captures is embedded: the query's latency (p50 / p99) and the burst's drain time,
// for this tree against a baseline revision (default: the commit before the model client's priority lanes), the two
// servers alternating on fresh data dirs, with the load average beside each run.
//
//   bun scripts/bench/search-beside-burst.ts [--base REV] [--rounds 2] [--burst 200] [--seed 100] [--every 500]
//
// Each run: a fresh data dir, a Pro account (that tree's `users create`), the server (scripts/bench/app-server.ts of
// that tree), --seed captures drained so searches have vectors, a warm-up; then --burst captures with a paragraph each
// sent at once (16 at a time) while a semantic search (GET /ideas/search?mode=semantic) is sent every --every ms,
// whether or not the previous ones were answered, until GET /health reports no embedding pending.
import { mkdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { searchBesideBurst } from "./burst-lib";
import { alternating, BUN, flag, fmtMs, machine, quantile, revisionTree, ROOT, spawnServer, tempDir, type Child } from "./lib";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
/** The parent of the commit that added the lanes, found by the file it added (it survives rebases). */
function defaultBase(): string {
  const added = Bun.spawnSync(["git", "log", "--diff-filter=A", "--format=%h", "-1", "--", "src/ml/lanes.ts"], { cwd: ROOT }).stdout.toString().trim();
  return added ? `${added}^` : "main";
}
const BASE_REV = arg("base", defaultBase());
const ROUNDS = flag("rounds", 2);
const BURST = flag("burst", 200);
const SEED = flag("seed", 100);
/** One semantic search sent every this many ms while the burst is embedded. */
const SEARCH_EVERY_MS = flag("every", 500);
const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const work = tempDir("idearepo-bench-search-burst-");

interface Run { side: string; searches: number[]; drainS: number; load: number }

async function run(side: string, tree: string): Promise<Run> {
  const dir = join(work, `data-${side}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  let server: Child | null = null;
  try {
    const env = { ...process.env, IDEAREPO_DATA_DIR: dir };
    const created = Bun.spawnSync([BUN, join(tree, "src/main.ts"), "users", "create", "--email", "bench@example.com", "--plan", "pro"], { cwd: tree, env });
    if (created.exitCode !== 0) throw new Error(`users create: ${created.stderr}`);
    const key = JSON.parse(created.stdout.toString()).api_key as string;
    server = await spawnServer([BUN, join(tree, "scripts/bench/app-server.ts"), "serve"], { IDEAREPO_DATA_DIR: dir, IDEAREPO_PORT: "0" }, join(dir, "server.log"));
    const base = server.base;
    const { searches, drainS } = await searchBesideBurst(base, key, { seed: SEED, burst: BURST, everyMs: SEARCH_EVERY_MS, label: side, log });
    return { side, searches, drainS, load: loadavg()[0] };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const q = quantile;
const f = fmtMs;

let runs: Run[] = [];
try {
  runs = await alternating(ROUNDS, revisionTree(BASE_REV, join(work, "base")), async (side, tree) => {
    const one = await run(side, tree);
    log(`${side}: ${one.searches.length} searches, p50 ${f(q(one.searches, 0.5))} / p99 ${f(q(one.searches, 0.99))} ms, drained in ${one.drainS.toFixed(1)} s, load ${one.load.toFixed(1)}`);
    return one;
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(`\nSemantic search beside a burst of ${BURST} captures (${SEED} ideas before it), one search every ${SEARCH_EVERY_MS} ms, ${machine()}; baseline = ${BASE_REV}, product = this tree`);
console.log("| side | searches | p50 | p99 | max | drain of the burst | load avg (1 min) at each run's end |");
console.log("|---|---|---|---|---|---|---|");
for (const side of ["product", "baseline"]) {
  const mine = runs.filter((r) => r.side === side);
  const all = mine.flatMap((r) => r.searches);
  console.log(`| ${side} | ${all.length} | ${f(q(all, 0.5))} ms | ${f(q(all, 0.99))} ms | ${f(Math.max(...all))} ms | ` +
    `${mine.map((r) => r.drainS.toFixed(1)).join(" / ")} s | ${mine.map((r) => r.load.toFixed(1)).join(" / ")} |`);
}
