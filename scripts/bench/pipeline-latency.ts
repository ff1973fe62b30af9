// What the background pipeline costs the requests beside it: a cheap request's latency while captures stream in and
// while a burst of captures is processed, the event loop's longest stall, and the pipeline's throughput, for this
// tree against a baseline revision (default: main before the pipeline work of issue 26), the two servers alternating
// on fresh copies of the same seeded sizing data dir.
//
//   bun scripts/bench/pipeline-latency.ts --data DIR [--base REV] [--rounds 2] [--seconds 30] [--captures 4]
//                                         [--lists 20] [--burst 100]
//
// DIR is a data dir seeded by sizing.ts (`--data DIR` keeps it): 1,000 accounts of 200 ideas and sizing-seeded.json.
// Each run: a copy of the database, the server (scripts/bench/app-server.ts of that tree), a warm-up, then
// 1. stream: for --seconds, captures (POST /ideas) at --captures a second and lists (GET /ideas?limit=20) at --lists a
//    second, Poisson arrivals to random accounts, plus a probe (GET /favicon.svg, a file from memory) every 20 ms;
// 2. burst: --burst captures sent at once (16 at a time), lists and probe going on until the job queue is empty.
// The probe's latency is the event loop's stall as a request meets it (the file costs well under a millisecond).
import { Database } from "bun:sqlite";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { alternating, BUN, fmtMs, machine, quantile, revisionTree, ROOT, spawnServer, tempDir, type Child } from "./lib";
import type { Seeded, SeededAccount } from "./sizing-seed";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const DATA = arg("data", "");
const BASE_REV = arg("base", "287e7fe");
const ROUNDS = Number(arg("rounds", "2"));
const SECONDS = Number(arg("seconds", "30"));
const CAPTURES = Number(arg("captures", "4"));
const LISTS = Number(arg("lists", "20"));
const BURST = Number(arg("burst", "100"));
const PROBE_MS = 20;
if (!DATA || !existsSync(join(DATA, "sizing-seeded.json"))) throw new Error("--data DIR: a data dir seeded by scripts/bench/sizing.ts --data DIR");
const seeded: Seeded = JSON.parse(readFileSync(join(DATA, "sizing-seeded.json"), "utf8"));
const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const work = tempDir("idearepo-bench-pipeline-latency-");

let seed = 11;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
const expo = (perS: number) => (-Math.log(1 - rand()) / perS) * 1000;

async function timed(url: string, init: RequestInit, want: number): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
  await res.arrayBuffer();
  if (res.status !== want) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status}`);
  return performance.now() - t0;
}

function capture(base: string, a: SeededAccount): Promise<number> {
  const body = JSON.stringify({ title: pick(seeded.captures).slice(0, 200), body: rand() < 0.7 ? pick(seeded.captures) : "" });
  return timed(`${base}/api/v1/ideas`, { method: "POST", headers: { "x-api-key": a.key, "content-type": "application/json" }, body }, 201);
}
const list = (base: string, a: SeededAccount) => timed(`${base}/api/v1/ideas?limit=20`, { headers: { "x-api-key": a.key } }, 200);
const probe = (base: string) => timed(`${base}/favicon.svg`, {}, 200);

/** Runs `fire` as open-loop Poisson arrivals at `perS` until `until()`; latencies counted from each arrival's due time. */
async function arrivals(perS: number, until: () => boolean, fire: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  const pending: Promise<void>[] = [];
  let due = performance.now();
  while (!until()) {
    due += expo(perS);
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    const at = due;
    pending.push(fire().then(() => void out.push(performance.now() - at)));
  }
  await Promise.all(pending);
  return out;
}

/** The probe at a fixed period, one at a time: a stall shows as one long answer, not as many queued ones. */
async function probing(base: string, until: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (!until()) {
    out.push(await probe(base));
    await Bun.sleep(PROBE_MS);
  }
  return out;
}

function jobsLeft(dbFile: string): () => number {
  const db = new Database(dbFile, { readonly: true });
  const q = db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs");
  return () => q.get()!.n;
}
async function drained(left: () => number, timeoutS = 900): Promise<void> {
  const t0 = performance.now();
  while (left() > 0) {
    if (performance.now() - t0 > timeoutS * 1000) throw new Error("the job queue did not drain");
    await Bun.sleep(100);
  }
}

interface Run { side: string; stream: { lists: number[]; captures: number[]; probe: number[] }; burst: { lists: number[]; probe: number[]; drainS: number }; load: number[] }

const serve = (tree: string, dir: string) =>
  spawnServer([BUN, join(tree, "scripts/bench/app-server.ts"), "serve"], { IDEAREPO_DATA_DIR: dir, IDEAREPO_PORT: "0", IDEAREPO_LOG_LEVEL: "info" }, join(dir, "server.log"));

/**
 * Each side's copy of the seeded data, migrated once by that side's server (a newer tree may add migrations, such as
 * rebuilding the keyword index), so every run of it starts from the same state without paying the migration.
 */
const masters = new Map<string, string>();
async function master(side: string, tree: string): Promise<string> {
  let dir = masters.get(side);
  if (dir) return dir;
  dir = join(work, `master-${side}`);
  mkdirSync(dir);
  for (const f of ["idearepo.db", "master.key"]) cpSync(join(DATA, f), join(dir, f));
  log(`${side}: migrating its copy of the data`);
  const migrate = Bun.spawnSync([BUN, "-e", `import { openDb } from ${JSON.stringify(join(tree, "src/db/open.ts"))}; openDb(${JSON.stringify(join(dir, "idearepo.db"))}).close();`], { cwd: tree });
  if (migrate.exitCode !== 0) throw new Error(`migrating ${side}'s copy: ${migrate.stderr}`);
  masters.set(side, dir);
  return dir;
}

async function run(side: string, tree: string): Promise<Run> {
  const from = await master(side, tree);
  const dir = join(work, `data-${side}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  for (const f of ["idearepo.db", "master.key"]) cpSync(join(from, f), join(dir, f));
  let server: Child | null = null;
  const load: number[] = [];
  try {
    server = await serve(tree, dir);
    const base = server.base;
    const left = jobsLeft(join(dir, "idearepo.db"));
    await drained(left);
    // Warm-up: the web app's files (built on first request when run from source), JIT, page cache; 20 captures.
    for (let i = 0; i < 100; i++) await Promise.all([list(base, pick(seeded.accounts)), probe(base)]);
    await Promise.all(Array.from({ length: 20 }, () => capture(base, pick(seeded.accounts))));
    await drained(left);
    load.push(loadavg()[0]);

    log(`${side}: stream ${SECONDS} s (${CAPTURES} captures/s, ${LISTS} lists/s)`);
    const end = performance.now() + SECONDS * 1000;
    const over = () => performance.now() > end;
    const [lists, captures, probes] = await Promise.all([
      arrivals(LISTS, over, () => list(base, pick(seeded.accounts))),
      arrivals(CAPTURES, over, () => capture(base, pick(seeded.accounts))),
      probing(base, over),
    ]);
    await drained(left);
    load.push(loadavg()[0]);

    log(`${side}: burst of ${BURST} captures`);
    let done = false;
    const t0 = performance.now();
    const background = Promise.all([arrivals(LISTS, () => done, () => list(base, pick(seeded.accounts))), probing(base, () => done)]);
    let next = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next++ < BURST) await capture(base, pick(seeded.accounts));
    }));
    await drained(left);
    const drainS = (performance.now() - t0) / 1000;
    done = true;
    const [bLists, bProbe] = await background;
    load.push(loadavg()[0]);
    return { side, stream: { lists, captures, probe: probes }, burst: { lists: bLists, probe: bProbe, drainS }, load };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const q = quantile;
const f = fmtMs;

let runs: Run[] = [];
try {
  runs = await alternating(ROUNDS, revisionTree(BASE_REV, join(work, "base")), run);
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(`\nPipeline beside requests: ${seeded.accounts.length} accounts, ${machine()}; baseline = ${BASE_REV}, product = this tree`);
console.log(`stream: ${SECONDS} s, ${CAPTURES} captures/s + ${LISTS} lists/s + probe every ${PROBE_MS} ms; burst: ${BURST} captures at once`);
console.log("| run | list p50 / p99 / max (stream) | probe p99 / max (stream) | capture p99 (stream) | list p50 / p99 / max (burst) | probe p99 / max (burst) | burst drained | ideas/s | load avg |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of runs) {
  const s = r.stream;
  const b = r.burst;
  console.log(
    `| ${r.side} | ${f(q(s.lists, 0.5))} / ${f(q(s.lists, 0.99))} / ${f(Math.max(...s.lists))} ms | ${f(q(s.probe, 0.99))} / ${f(Math.max(...s.probe))} ms | ${f(q(s.captures, 0.99))} ms` +
      ` | ${f(q(b.lists, 0.5))} / ${f(q(b.lists, 0.99))} / ${f(Math.max(...b.lists))} ms | ${f(q(b.probe, 0.99))} / ${f(Math.max(...b.probe))} ms | ${b.drainS.toFixed(1)} s | ${f(BURST / b.drainS)} | ${r.load.map((l) => l.toFixed(1)).join(" / ")} |`,
  );
}
