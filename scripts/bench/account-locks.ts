// Captures into N distinct accounts at once on two nodes sharing one PostgreSQL: this tree (each immediate transaction
// locks its account) beside a baseline tree (one instance-wide lock for every immediate transaction), issue 35.
//
//   bun scripts/bench/account-locks.ts [--base REV] [--accounts 1,50] [--nodes 2] [--connections 32] [--seconds 10] [--rounds 2]
//   quick: bun scripts/bench/account-locks.ts --accounts 50 --seconds 5 --rounds 1
//
// One durable PostgreSQL cluster (test/support/postgres.ts with IDEAREPO_PG_DURABLE=1: fsync on, so a commit waits
// for its WAL flush, as a power-safe instance's does). Per side and per round: a fresh migrated database, --accounts
// Pro accounts, --nodes `serve` nodes of that side's tree (scripts/bench/app-server.ts, pipeline paused: the write
// path alone), then --connections clients capturing for --seconds, request i into account i mod N through node
// i mod nodes. The sides alternate (baseline first in the first round), so a neighbour's load falls on both. --base:
// the commit before per-account locks (default: the parent of the commit that introduced them).
process.env.IDEAREPO_PG_DURABLE = "1";
import { mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { migratedDatabaseSync, postgresMissing, testCluster } from "../../test/support/postgres";
import { alternating, BUN, flag, ideaTexts, machine, median, quantile, revisionTree, ROOT, spawnServer, tempDir, type Child, type Side } from "./lib";
import { benchApp, benchUser } from "./search-lib";

const missing = postgresMissing();
if (missing) throw new Error(`PostgreSQL is needed: ${missing}`);
const NODES = flag("nodes", 2);
const CONNECTIONS = flag("connections", 32);
const SECONDS = flag("seconds", 10);
const ROUNDS = flag("rounds", 2);
const listAt = process.argv.indexOf("--accounts");
const ACCOUNTS = (listAt === -1 ? "1,50" : process.argv[listAt + 1]).split(",").map(Number).filter((n) => n > 0);
const baseAt = process.argv.indexOf("--base");
const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

/** The parent of the commit that introduced TxOptions.lock's advisory locks: the store before per-account locks. */
function defaultBase(): string {
  const r = Bun.spawnSync(["git", "log", "--format=%H", "-S", "SCOPED_LOCK_CLASS", "--", "src/db/pg/store.ts"], { cwd: ROOT });
  const first = r.stdout.toString().trim().split("\n").filter(Boolean).at(-1);
  if (!first) throw new Error("no commit introduces SCOPED_LOCK_CLASS: pass --base");
  return `${first}^`;
}

const work = tempDir("idearepo-bench-account-locks-");
const base = baseAt === -1 ? defaultBase() : process.argv[baseAt + 1];
const baseTree = revisionTree(base, join(work, "base"));
const cluster = testCluster();
const texts = ideaTexts(20_000).map((t) => JSON.stringify({ ...t, tags: ["bench"], source: "api" }));

interface Run { side: Side; accounts: number; captures: number; perSecond: number; p50: number; p99: number; failed: number }

async function runSide(side: Side, tree: string, accounts: number): Promise<Run> {
  const { url } = migratedDatabaseSync();
  const seed = await benchApp("/tmp/idearepo-bench-unused.db", null, { pgUrl: url });
  const keys: string[] = [];
  try {
    for (let i = 0; i < accounts; i++) keys.push((await benchUser(seed.deps, "pro")).key);
  } finally {
    await seed.close();
  }
  const nodes: Child[] = [];
  try {
    for (let n = 0; n < NODES; n++) {
      const dir = join(work, `${side}-${accounts}-${n}-${Date.now()}`);
      mkdirSync(dir, { recursive: true });
      nodes.push(await spawnServer([BUN, join(tree, "scripts/bench/app-server.ts"), "serve"], {
        IDEAREPO_DATABASE_URL: url, IDEAREPO_DATA_DIR: dir, IDEAREPO_PORT: "0", BENCH_PAUSE_PIPELINE: "1",
      }, join(dir, "server.log")));
    }
    let next = 0;
    const ms: number[] = [];
    let failed = 0;
    const send = async (i: number) => {
      const began = performance.now();
      const res = await fetch(`${nodes[i % NODES].base}/api/v1/ideas`, {
        method: "POST", headers: { "content-type": "application/json", "x-api-key": keys[i % accounts] }, body: texts[i % texts.length],
      });
      await res.arrayBuffer();
      return { ok: res.status === 201, ms: performance.now() - began };
    };
    // A second's warm-up (JIT, pools), then the measured window.
    const client = async (until: number, measure: boolean) => {
      while (performance.now() < until) {
        const r = await send(next++);
        if (!measure) continue;
        if (r.ok) ms.push(r.ms);
        else failed++;
      }
    };
    const warm = performance.now() + 1000;
    await Promise.all(Array.from({ length: CONNECTIONS }, () => client(warm, false)));
    const t0 = performance.now();
    const until = t0 + SECONDS * 1000;
    await Promise.all(Array.from({ length: CONNECTIONS }, () => client(until, true)));
    const elapsed = (performance.now() - t0) / 1000;
    ms.sort((a, b) => a - b);
    return { side, accounts, captures: ms.length, perSecond: ms.length / elapsed, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), failed };
  } finally {
    for (const n of nodes) await n.stop();
  }
}

const runs: Run[] = [];
try {
  console.log(`# Captures into N accounts at once, ${NODES} node(s) on one PostgreSQL: per-account locks vs one instance-wide lock\n`);
  console.log(`${machine()}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load average at start ${loadavg().map((x) => x.toFixed(2)).join(" / ")}; baseline ${base}; ${CONNECTIONS} clients, ${SECONDS} s per run, ${ROUNDS} round(s), durable PostgreSQL (fsync on), pipeline paused\n`);
  for (const accounts of ACCOUNTS) {
    const out = await alternating(ROUNDS, baseTree, async (side, tree) => {
      const r = await runSide(side, tree, accounts);
      log(`${side} ${accounts} account(s): ${r.perSecond.toFixed(0)}/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.failed} failed`);
      return r;
    });
    runs.push(...out);
  }
  console.log("| accounts | side | captures/s (median of rounds) | p50 ms | p99 ms | failed | runs |");
  console.log("|---|---|---|---|---|---|---|");
  for (const accounts of ACCOUNTS) {
    for (const side of ["baseline", "product"] as const) {
      const mine = runs.filter((r) => r.accounts === accounts && r.side === side);
      const label = side === "product" ? "per-account locks (this tree)" : "instance lock (baseline)";
      console.log(`| ${accounts} | ${label} | ${median(mine.map((r) => r.perSecond)).toFixed(0)} | ${median(mine.map((r) => r.p50)).toFixed(1)} | ${median(mine.map((r) => r.p99)).toFixed(1)} | ${mine.reduce((s, r) => s + r.failed, 0)} | ${mine.map((r) => r.perSecond.toFixed(0)).join(", ")} |`);
    }
  }
  console.log(`\nload average at end ${loadavg().map((x) => x.toFixed(2)).join(" / ")}; cluster port ${cluster.port}`);
  process.exit(0);
} catch (e) {
  // Said, not swallowed: a run that stops half way must not look like one that finished.
  console.error(e);
  process.exit(1);
}
