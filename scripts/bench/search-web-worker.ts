// Semantic search on a web node while a worker node embeds a burst of captures, against one `all` node doing both, on
// one PostgreSQL (issue 35). The two topologies alternate, each on a fresh database.
//
//   bun scripts/bench/search-web-worker.ts [--rounds 2] [--burst 200] [--seed 100] [--every 500]
//
// Each run: a fresh migrated database (test/support/postgres.ts's cluster), a Pro account, the nodes
// (scripts/bench/app-server.ts serve --role …), --seed captures drained so searches have vectors, a warm-up; then
// --burst captures sent to the node that answers people (16 at a time) while a semantic search is sent to it every
// --every ms, open loop, until GET /health reports no embedding pending. On this 2-core machine the worker's model
// shares the CPU with the web node: the split shows what leaves the answering process's event loop and model queue,
// not what a second machine would add.
import { mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { searchBesideBurst } from "./burst-lib";
import { BUN, flag, fmtMs, machine, quantile, ROOT, spawnServer, tempDir, type Child } from "./lib";
import { migratedDatabase, postgresMissing } from "../../test/support/postgres";

const missing = postgresMissing();
if (missing) throw new Error(missing);
const ROUNDS = flag("rounds", 2);
const BURST = flag("burst", 200);
const SEED = flag("seed", 100);
const SEARCH_EVERY_MS = flag("every", 500);
const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const work = tempDir("idearepo-bench-web-worker-");

type Topology = "one all node" | "web + worker";
interface Run { topology: Topology; searches: number[]; drainS: number; load: number }

async function run(topology: Topology, round: number): Promise<Run> {
  const { url } = await migratedDatabase();
  const env = { IDEAREPO_DATABASE_URL: url, IDEAREPO_PORT: "0" };
  const dirOf = (name: string) => {
    const d = join(work, `${round}-${topology.replace(/\W+/g, "-")}-${name}`);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const created = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "users", "create", "--email", "bench@example.com", "--plan", "pro"], {
    cwd: ROOT, env: { ...process.env, ...env, IDEAREPO_DATA_DIR: dirOf("cli") },
  });
  if (created.exitCode !== 0) throw new Error(`users create: ${created.stderr}`);
  const key = JSON.parse(created.stdout.toString()).api_key as string;
  const nodes: Child[] = [];
  const node = async (name: string, role: string) => {
    const dir = dirOf(name);
    const n = await spawnServer([BUN, join(ROOT, "scripts/bench/app-server.ts"), "serve", "--role", role], { ...env, IDEAREPO_DATA_DIR: dir }, join(dir, "server.log"));
    nodes.push(n);
    return n;
  };
  try {
    const front = topology === "one all node" ? await node("all", "all") : await node("web", "web");
    if (topology === "web + worker") await node("worker", "worker");
    const base = front.base;
    const { searches, drainS } = await searchBesideBurst(base, key, { seed: SEED, burst: BURST, everyMs: SEARCH_EVERY_MS, label: topology, log });
    return { topology, searches, drainS, load: loadavg()[0] };
  } finally {
    for (const n of nodes.reverse()) await n.stop();
  }
}

const q = quantile;
const f = fmtMs;
const runs: Run[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternating, and the first of each round alternating too, so load drifts fall on both.
  const order: Topology[] = round % 2 === 0 ? ["web + worker", "one all node"] : ["one all node", "web + worker"];
  for (const t of order) {
    const one = await run(t, round);
    log(`${t}: ${one.searches.length} searches, p50 ${f(q(one.searches, 0.5))} / p99 ${f(q(one.searches, 0.99))} ms, drained in ${one.drainS.toFixed(1)} s, load ${one.load.toFixed(1)}`);
    runs.push(one);
  }
}

console.log(`\nSemantic search on the node that answers people, beside a burst of ${BURST} captures (${SEED} ideas before it), one search every ${SEARCH_EVERY_MS} ms, PostgreSQL, ${machine()}`);
console.log("| topology | searches | p50 | p99 | max | drain of the burst | load avg (1 min) at each run's end |");
console.log("|---|---|---|---|---|---|---|");
for (const t of ["web + worker", "one all node"] as Topology[]) {
  const mine = runs.filter((r) => r.topology === t);
  const all = mine.flatMap((r) => r.searches);
  console.log(`| ${t} | ${all.length} | ${f(q(all, 0.5))} ms | ${f(q(all, 0.99))} ms | ${f(Math.max(...all))} ms | ` +
    `${mine.map((r) => r.drainS.toFixed(1)).join(" / ")} s | ${mine.map((r) => r.load.toFixed(1)).join(" / ")} |`);
}
