// CPU per request of a web node, a worker node and PostgreSQL for a person's daily mix (sizing-load.ts MIX), beside a
// bare Bun.serve + one PostgreSQL statement per request, and the node counts they give (issue 35).
//
//   bun scripts/bench/nodes-cost.ts [--accounts 100] [--ideas 100] [--calibrate 30] [--rounds 2]
//                                   [--steps 1000,8000] [--seconds 30] [--real 4000]
//   quick: bun scripts/bench/nodes-cost.ts --accounts 20 --ideas 50 --calibrate 10 --rounds 1 --steps 1000 --seconds 10
//
// One durable PostgreSQL cluster (test/support/postgres.ts with IDEAREPO_PG_DURABLE=1: fsync on), --accounts Pro
// accounts of --ideas ideas seeded as sizing-seed.ts does, `serve --role web` answering every request beside
// `serve --role worker` running the pipeline, and bare-server.ts sizing-pg (reads from the same database, captures into
// a database of its own). Each route of the mix is sent --calibrate times one at a time, to the bare server and to the
// web node in turn (the order alternating route by route and round by round); after the web node's requests the bench
// waits for the job queue to empty, so a capture's cost includes its pipeline pass on the worker. CPU is read from
// /proc: every thread of each node (schedstat, ns), and every process of the PostgreSQL server, its backends
// attributed to a node by application_name (src/lib/node-id.ts names them with the node's pid) and the server's own
// processes (WAL writer, checkpointer, autovacuum…) apart. Commits and WAL bytes per request come from the server's
// counters. CPU seconds are what a neighbour's load moves least on this shared 2-core machine; latency is measured too
// (--steps: open-loop arrivals at the rate of that many accounts' peak hour, bare then product) and is the machine's.
process.env.IDEAREPO_PG_DURABLE = "1";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { migratedDatabaseSync, postgresMissing, testCluster } from "../../test/support/postgres";
import { BUN, flag, machine, ROOT, spawnServer, tempDir, type Child } from "./lib";
import { bareTarget, MIX, offer, opMaker, PEAK_SHARE, PER_DAY, productTarget, quantile, rateFor, type Op, type Route, type Sample, type Target } from "./sizing-load";
import { threads } from "./sizing-proc";
import { seedAccounts } from "./sizing-seed";

const missing = postgresMissing();
if (missing) throw new Error(`PostgreSQL is needed: ${missing}`);
const ACCOUNTS = flag("accounts", 100);
const IDEAS = flag("ideas", 100);
const CALIBRATE = flag("calibrate", 30);
const ROUNDS = flag("rounds", 2);
const SECONDS = flag("seconds", 30);
const REAL = flag("real", 4000);
const stepsAt = process.argv.indexOf("--steps");
const STEPS = (stepsAt === -1 ? "1000,8000" : process.argv[stepsAt + 1]).split(",").map(Number).filter((n) => n > 0);
/** Share of a resource kept busy in the projections: the rest is the room that keeps queueing, and so p99, short. */
const UTIL = 0.5;
const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const work = tempDir("idearepo-bench-nodes-cost-");
const fmt = (v: number, d = 1) => (Number.isFinite(v) ? v.toFixed(d) : "—");
const int = (v: number) => Math.round(v).toLocaleString("en-US");

// ---- CPU, read from /proc ----

/** CPU seconds of each thread of `pid`, and which it is: the main thread ("loop"), the model worker ("model"), the rest. */
type NodeThreads = Map<number, { kind: "loop" | "model" | "other"; s: number }>;
function nodeThreads(pid: number): NodeThreads {
  const out: NodeThreads = new Map();
  for (const [tid, t] of threads(pid)) out.set(tid, { kind: tid === pid ? "loop" : t.comm === "Worker" ? "model" : "other", s: t.cpuS });
  return out;
}

/**
 * CPU between two readings, thread by thread: a thread that ended in between (an idle worker stops after 30 s) takes
 * its CPU with it, so its share of the window is lost rather than subtracted.
 */
function nodeCpu(a: NodeThreads, b: NodeThreads): { loop: number; model: number; total: number } {
  const out = { loop: 0, model: 0, total: 0 };
  for (const [tid, t] of b) {
    const d = t.s - (a.get(tid)?.s ?? 0);
    out.total += d;
    if (t.kind !== "other") out[t.kind] += d;
  }
  return out;
}

const cluster = testCluster();
const postmaster = Number(readFileSync(join(cluster.dir, "data", "postmaster.pid"), "utf8").split("\n")[0]);

/** CPU seconds of each process of the PostgreSQL server (the postmaster's children), by pid. */
function pgProcesses(): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== postmaster) continue;
      out.set(Number(d), Number(readFileSync(`/proc/${d}/schedstat`, "utf8").split(" ")[0]) / 1e9);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return out;
}

const main = migratedDatabaseSync();
const raw = migratedDatabaseSync();
const admin = new SQL({ url: main.url, max: 1, connection: { application_name: "bench admin" } });

type Owner = "web" | "worker" | "bare" | "server" | "other";
interface Snap { t: number; web: NodeThreads; worker: NodeThreads; bare: NodeThreads; pg: Map<number, number>; commits: number; syncs: number; wal: bigint }

let nodes: { web: Child; worker: Child; bare: Child } | null = null;

async function snap(): Promise<Snap> {
  const n = nodes!;
  const [{ commits }] = await admin`SELECT sum(xact_commit)::bigint AS commits FROM pg_stat_database`;
  const [{ lsn, syncs }] = await admin`SELECT (pg_current_wal_lsn() - '0/0')::bigint AS lsn, (SELECT wal_sync FROM pg_stat_wal)::bigint AS syncs`;
  return {
    t: performance.now(), web: nodeThreads(n.web.proc.pid), worker: nodeThreads(n.worker.proc.pid), bare: nodeThreads(n.bare.proc.pid),
    pg: pgProcesses(), commits: Number(commits), syncs: Number(syncs), wal: BigInt(lsn),
  };
}

/** Whose each PostgreSQL process is: a node's backends carry its pid in application_name; the server's own are "server". */
async function owners(): Promise<Map<number, Owner>> {
  const n = nodes!;
  const rows = await admin`SELECT pid, application_name AS app, backend_type AS type FROM pg_stat_activity`;
  const out = new Map<number, Owner>();
  for (const r of rows as Array<{ pid: number; app: string; type: string }>) {
    const app = r.app ?? "";
    out.set(r.pid,
      app.includes(`:${n.web.proc.pid}:`) ? "web"
      : app.includes(`:${n.worker.proc.pid}:`) ? "worker"
      : app === "bare-baseline" ? "bare"
      : r.type !== "client backend" ? "server"
      : "other");
  }
  return out;
}

interface Cost {
  wallS: number;
  web: { loop: number; model: number; total: number };
  worker: { loop: number; model: number; total: number };
  bare: number;
  pg: Record<Owner, number>;
  /** Transactions committed: on PostgreSQL a statement outside a transaction is one, reads included. */
  commits: number;
  /** fsyncs of the WAL (pg_stat_wal.wal_sync): what a durable commit waits for, shared by commits that arrive together. */
  syncs: number;
  walBytes: number;
}

function diff(a: Snap, b: Snap, who: Map<number, Owner>): Cost {
  const pg: Record<Owner, number> = { web: 0, worker: 0, bare: 0, server: 0, other: 0 };
  for (const [pid, s] of b.pg) {
    // The postmaster's other children (not in pg_stat_activity: the logger, an archiver) are the server's too.
    const owner = who.get(pid) ?? "server";
    pg[owner] += s - (a.pg.get(pid) ?? 0);
  }
  // Two admin statements per snapshot: their commits are not the load's.
  return {
    wallS: (b.t - a.t) / 1000, web: nodeCpu(a.web, b.web), worker: nodeCpu(a.worker, b.worker), bare: nodeCpu(a.bare, b.bare).total, pg,
    commits: b.commits - a.commits - 2, syncs: b.syncs - a.syncs, walBytes: Number(b.wal - a.wal),
  };
}

const jobsLeft = async () => Number((await admin`SELECT count(*)::int AS n FROM jobs`)[0].n);
async function drained(timeoutS: number): Promise<number | null> {
  const t0 = performance.now();
  while ((performance.now() - t0) / 1000 < timeoutS) {
    if ((await jobsLeft()) === 0) return (performance.now() - t0) / 1000;
    await Bun.sleep(200);
  }
  return null;
}

// ---- per-request cost of each route, one request at a time ----

interface RouteCost { route: Route; side: "idearepo" | "bare"; n: number; cost: Cost; p50: number }

async function calibrateOne(side: "idearepo" | "bare", target: Target, route: Route, makeOp: (r?: Route) => Op): Promise<RouteCost> {
  const a = await snap();
  const ms: number[] = [];
  for (let i = 0; i < CALIBRATE; i++) {
    const t0 = performance.now();
    await target.send(makeOp(route));
    ms.push(performance.now() - t0);
  }
  if (side === "idearepo" && (await drained(600)) === null) throw new Error(`${route}: the job queue did not drain`);
  await Bun.sleep(1100); // backends report their commit counts at most once a second
  const who = await owners();
  const b = await snap();
  return { route, side, n: CALIBRATE, cost: diff(a, b, who), p50: quantile(ms, 0.5) };
}

// ---- load steps: open-loop arrivals at a number of accounts' peak-hour rate ----

interface StepSide { samples: Sample[]; cost: Cost; load1: number }
async function stepSide(target: Target, accounts: number, next: () => Op, waitQueue: boolean): Promise<StepSide> {
  const a = await snap();
  const samples = await offer(target, next, rateFor(accounts), SECONDS);
  const b = await snap(); // before the drain: CPU shares are over the arrivals' window
  const cost = diff(a, b, await owners());
  if (waitQueue && (await drained(300)) === null) throw new Error("the job queue did not drain after a step");
  return { samples, cost, load1: loadavg()[0] };
}

const started: Child[] = [];
try {
  console.log(`# CPU per request on a web node, a worker node and PostgreSQL\n\n${machine()}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load average at start ${loadavg().map((x) => x.toFixed(2)).join(" / ")}`);
  const t0 = performance.now();
  const seeded = await seedAccounts(join(work, "seed"), ACCOUNTS, IDEAS, REAL, log, main.url);
  log(`seeded ${ACCOUNTS} × ${IDEAS} ideas in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const env = (name: string) => {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    return { IDEAREPO_DATABASE_URL: main.url, IDEAREPO_DATA_DIR: dir, IDEAREPO_PORT: "0" };
  };
  const web = await spawnServer([BUN, join(ROOT, "scripts/bench/app-server.ts"), "serve", "--role", "web"], env("web"), join(work, "web.log"));
  started.push(web);
  const worker = await spawnServer([BUN, join(ROOT, "scripts/bench/app-server.ts"), "serve", "--role", "worker"], env("worker"), join(work, "worker.log"));
  started.push(worker);
  const bare = await spawnServer([BUN, join(ROOT, "scripts/bench/bare-server.ts"), "sizing-pg", main.url, raw.url], {});
  started.push(bare);
  nodes = { web, worker, bare };
  if ((await drained(600)) === null) throw new Error("the nodes' start-up jobs did not drain");
  const pt = productTarget(web.base);
  log(`nodes up; connecting ${seeded.accounts.length} MCP clients`);
  await pt.connectAll(seeded.accounts);
  const targets = { bare: bareTarget(bare.base), idearepo: pt as Target };
  const next = opMaker(seeded);

  log("warm-up");
  for (let i = 0; i < 2; i++) {
    await offer(targets.bare, next, 5, 10);
    await offer(targets.idearepo, next, 5, 10);
  }
  await drained(600);

  // Idle: what the nodes and the server spend with no request (leases, LISTEN, timers), per second.
  log("idle 20 s");
  const i0 = await snap();
  await Bun.sleep(20_000);
  const idle = diff(i0, await snap(), await owners());

  log("calibrating CPU per request");
  const costs: RouteCost[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, m] of MIX.entries()) {
      const order: Array<"bare" | "idearepo"> = (r + k) % 2 === 0 ? ["bare", "idearepo"] : ["idearepo", "bare"];
      for (const side of order) {
        const c = await calibrateOne(side, targets[side], m.route, next);
        costs.push(c);
        const per = (s: number) => fmt((s / c.n) * 1000, 2);
        log(side === "idearepo"
          ? `${m.route} idearepo: web ${per(c.cost.web.total)} ms (loop ${per(c.cost.web.loop)}, model ${per(c.cost.web.model)}), worker ${per(c.cost.worker.total)}, pg web ${per(c.cost.pg.web)} worker ${per(c.cost.pg.worker)} server ${per(c.cost.pg.server)}, p50 ${fmt(c.p50)} ms`
          : `${m.route} bare: process ${per(c.cost.bare)} ms, pg ${per(c.cost.pg.bare)} server ${per(c.cost.pg.server)}, p50 ${fmt(c.p50)} ms`);
      }
    }
  }

  const steps: Array<{ accounts: number; bare: StepSide; product: StepSide }> = [];
  for (const [k, accounts] of STEPS.entries()) {
    log(`step ${int(accounts)} accounts (${fmt(rateFor(accounts), 1)} req/s)`);
    let b: StepSide, p: StepSide;
    if (k % 2 === 0) {
      b = await stepSide(targets.bare, accounts, next, false);
      p = await stepSide(targets.idearepo, accounts, next, true);
    } else {
      p = await stepSide(targets.idearepo, accounts, next, true);
      b = await stepSide(targets.bare, accounts, next, false);
    }
    steps.push({ accounts, bare: b, product: p });
  }
  await pt.close();

  // ---- report ----
  /** Mean per request over the rounds, in ms, of one figure of one route and side. */
  const per = (route: Route, side: "idearepo" | "bare", f: (c: Cost) => number) => {
    const xs = costs.filter((c) => c.route === route && c.side === side);
    return (xs.reduce((n, c) => n + f(c.cost), 0) / xs.reduce((n, c) => n + c.n, 0)) * 1000;
  };
  const F = {
    webLoop: (c: Cost) => c.web.loop, webModel: (c: Cost) => c.web.model, web: (c: Cost) => c.web.total,
    worker: (c: Cost) => c.worker.total, workerLoop: (c: Cost) => c.worker.loop, workerModel: (c: Cost) => c.worker.model,
    pgWeb: (c: Cost) => c.pg.web, pgWorker: (c: Cost) => c.pg.worker, pgServer: (c: Cost) => c.pg.server,
    pgAll: (c: Cost) => c.pg.web + c.pg.worker + c.pg.server + c.pg.bare + c.pg.other,
    bare: (c: Cost) => c.bare, pgBare: (c: Cost) => c.pg.bare,
    commits: (c: Cost) => c.commits / 1000, syncs: (c: Cost) => c.syncs / 1000, wal: (c: Cost) => c.walBytes / 1000 / 1024,
  };
  console.log(`\nData: ${int(ACCOUNTS)} Pro accounts of ${IDEAS} ideas in one durable PostgreSQL (fsync on); ${CALIBRATE} requests per route per round, ${ROUNDS} rounds, one at a time, bare and idearepo alternating.`);
  console.log(`Idle, per second (no request): web node ${fmt(idle.web.total / idle.wallS * 1000, 2)} ms, worker ${fmt(idle.worker.total / idle.wallS * 1000, 2)} ms, PostgreSQL ${fmt(F.pgAll(idle) / idle.wallS * 1000, 2)} ms of CPU (included in the figures below).`);
  console.log(`\n## CPU per request (ms), one at a time\n`);
  console.log("| route | web node (event loop / model) | worker node (event loop / model) | PostgreSQL: web's backends / worker's / server processes | transactions / WAL fsyncs | WAL KB | p50 | bare: process | bare: PostgreSQL backend / server processes | bare transactions / fsyncs | bare WAL KB | bare p50 |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  const p50 = (route: Route, side: "idearepo" | "bare") => quantile(costs.filter((c) => c.route === route && c.side === side).map((c) => c.p50), 0.5);
  for (const m of MIX) {
    const r = m.route;
    const i = (f: (c: Cost) => number) => per(r, "idearepo", f);
    const b = (f: (c: Cost) => number) => per(r, "bare", f);
    console.log(
      `| ${r} | ${fmt(i(F.web), 2)} (${fmt(i(F.webLoop), 2)} / ${fmt(i(F.webModel), 2)}) | ${fmt(i(F.worker), 2)} (${fmt(i(F.workerLoop), 2)} / ${fmt(i(F.workerModel), 2)}) | ` +
        `${fmt(i(F.pgWeb), 2)} / ${fmt(i(F.pgWorker), 2)} / ${fmt(i(F.pgServer), 2)} | ${fmt(i(F.commits), 1)} / ${fmt(i(F.syncs), 2)} | ${fmt(i(F.wal), 1)} | ${fmt(p50(r, "idearepo"))} | ` +
        `${fmt(b(F.bare), 2)} | ${fmt(b(F.pgBare), 2)} / ${fmt(b(F.pgServer), 2)} | ${fmt(b(F.commits), 1)} / ${fmt(b(F.syncs), 2)} | ${fmt(b(F.wal), 1)} | ${fmt(p50(r, "bare"))} |`,
    );
  }
  // One account's peak hour: each route's cost × its requests in that hour (MIX × PEAK_SHARE), in CPU seconds.
  const hour = (side: "idearepo" | "bare", f: (c: Cost) => number) => MIX.reduce((n, m) => n + m.perDay * PEAK_SHARE * per(m.route, side, f), 0) / 1000;
  const perAccount = {
    webLoop: hour("idearepo", F.webLoop), webModel: hour("idearepo", F.webModel), web: hour("idearepo", F.web),
    workerLoop: hour("idearepo", F.workerLoop), workerModel: hour("idearepo", F.workerModel), worker: hour("idearepo", F.worker),
    pg: hour("idearepo", (c) => c.pg.web + c.pg.worker + c.pg.server), commits: hour("idearepo", F.commits) * 1000, syncs: hour("idearepo", F.syncs) * 1000, walKb: hour("idearepo", F.wal) * 1000,
    bare: hour("bare", F.bare), pgBare: hour("bare", (c) => c.pg.bare + c.pg.server),
  };
  console.log(`\n## One account's peak hour (${PER_DAY} requests a day, ${PEAK_SHARE * 100}% of them in that hour: ${fmt(rateFor(1) * 3600, 0)} requests), CPU seconds\n`);
  console.log(`- web node: ${fmt(perAccount.web, 3)} s (event loop ${fmt(perAccount.webLoop, 3)}, model ${fmt(perAccount.webModel, 3)}); bare server process ${fmt(perAccount.bare, 3)} s`);
  console.log(`- worker node: ${fmt(perAccount.worker, 3)} s (event loop ${fmt(perAccount.workerLoop, 3)}, model ${fmt(perAccount.workerModel, 3)})`);
  console.log(`- PostgreSQL: ${fmt(perAccount.pg, 3)} s (all its processes), ${fmt(perAccount.commits, 0)} transactions, ${fmt(perAccount.syncs, 0)} WAL fsyncs (one request at a time), ${fmt(perAccount.walKb, 0)} KB of WAL; bare: ${fmt(perAccount.pgBare, 3)} s`);
  // Ceilings: a node is one process; its event loop and its model worker are one thread each, its other threads
  // (Bun's pool, the subjects worker) share the rest: a 2-core node is bounded by its busiest thread or its 2 cores.
  const node = (loop: number, model: number, total: number) => Math.min(3600 / loop, 3600 / Math.max(model, 1e-9), (2 * 3600) / total);
  const webFull = node(perAccount.webLoop, perAccount.webModel, perAccount.web);
  const workerFull = node(perAccount.workerLoop, perAccount.workerModel, perAccount.worker);
  const pgCoreFull = 3600 / perAccount.pg;
  const bareFull = 3600 / perAccount.bare;
  const bareCoreFull = 3600 / perAccount.pgBare;
  console.log(`\n## Accounts at ${UTIL * 100}% of the first resource to fill (at 100% in brackets)\n`);
  console.log(`- one web node (2 cores, one process): ${int(UTIL * webFull)} (${int(webFull)}); bare server: ${int(UTIL * bareFull)} (${int(bareFull)})`);
  console.log(`- one worker node (2 cores): ${int(UTIL * workerFull)} (${int(workerFull)})`);
  console.log(`- PostgreSQL, per core: ${int(UTIL * pgCoreFull)} (${int(pgCoreFull)}); 16 cores: ${int(16 * UTIL * pgCoreFull)}; bare's statements per core: ${int(UTIL * bareCoreFull)}`);
  console.log(`- at 100,000 accounts' peak hour: ${int((perAccount.commits * 1e5) / 3600)} transactions/s, WAL ${fmt((perAccount.walKb * 1e5) / 3600 / 1024, 1)} MB/s`);
  for (const n of [100_000, 1_000_000]) {
    console.log(`- ${int(n)} accounts: ${Math.ceil(n / (UTIL * webFull))} web nodes, ${Math.ceil(n / (UTIL * workerFull))} workers, ${Math.ceil(n / (UTIL * pgCoreFull))} PostgreSQL cores`);
  }
  console.log(`\n## Steps: open-loop arrivals at N accounts' peak-hour rate, ${SECONDS} s each (latency is this shared machine's)\n`);
  console.log("| accounts | req/s | idearepo p50 / p99 | bare p50 / p99 | web node CPU | worker CPU | PostgreSQL CPU | bare CPU (process + PostgreSQL) | per request: web / worker / PostgreSQL ms | bare per request: process / PostgreSQL ms | WAL fsyncs per request (bare) | errors | load avg |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  const ok = (s: Sample[]) => s.filter((x) => x.ok).map((x) => x.ms);
  const pct = (s: number, c: Cost) => `${fmt((s / c.wallS) * 100, 0)}%`;
  const pgOf = (c: Cost) => c.pg.web + c.pg.worker + c.pg.server;
  // Under concurrent arrivals, beside the one-at-a-time figures: the worker's share is what the window's captures
  // had reached when the arrivals stopped (its backlog drains after).
  const perReq = (s: number, side: StepSide) => fmt((s / side.samples.length) * 1000, 2);
  for (const s of steps) {
    const p = s.product, b = s.bare;
    console.log(
      `| ${int(s.accounts)} | ${fmt(rateFor(s.accounts), 1)} | ${fmt(quantile(ok(p.samples), 0.5))} / ${fmt(quantile(ok(p.samples), 0.99))} ms | ${fmt(quantile(ok(b.samples), 0.5))} / ${fmt(quantile(ok(b.samples), 0.99))} ms | ` +
        `${pct(p.cost.web.total, p.cost)} | ${pct(p.cost.worker.total, p.cost)} | ${pct(pgOf(p.cost), p.cost)} | ${pct(b.cost.bare + b.cost.pg.bare + b.cost.pg.server, b.cost)} | ` +
        `${perReq(p.cost.web.total, p)} / ${perReq(p.cost.worker.total, p)} / ${perReq(pgOf(p.cost), p)} | ${perReq(b.cost.bare, b)} / ${perReq(b.cost.pg.bare + b.cost.pg.server, b)} | ` +
        `${fmt(p.cost.syncs / p.samples.length, 2)} (${fmt(b.cost.syncs / b.samples.length, 2)}) | ` +
        `${p.samples.filter((x) => !x.ok).length} / ${b.samples.filter((x) => !x.ok).length} | ${fmt(p.load1, 1)} / ${fmt(b.load1, 1)} |`,
    );
  }
  for (const s of steps) {
    const cells = MIX.map((m) => {
      const q = ok(s.product.samples.filter((x) => x.route === m.route));
      return `${m.route} ${fmt(quantile(q, 0.5))}/${fmt(quantile(q, 0.99))}`;
    });
    console.log(`- ${int(s.accounts)} accounts, idearepo per route p50/p99 ms: ${cells.join("; ")}`);
  }
  console.log(`\nLoad average at the end: ${loadavg().map((x) => x.toFixed(2)).join(" / ")}`);
} finally {
  for (const c of started.reverse()) await c.stop().catch(() => {});
  await admin.close();
}
