// Sizing: how many accounts with a person's daily mix (sizing-load.ts MIX) one machine serves with every route's p99
// under 100 ms and the background pipeline keeping up, and what runs out first. Beside each step, the bare
// Bun.serve + SQLite server (bare-server.ts sizing) under the same arrival rate, the steps alternating bare, product.
//
//   bun scripts/bench/sizing.ts [--accounts 1000] [--ideas 200] [--seconds 60] [--start N] [--factor 2]
//                               [--max-steps 10] [--refine 1] [--calibrate 40] [--real 4000]
//                               [--durability power-safe|crash-safe] [--data DIR]
//   quick: bun scripts/bench/sizing.ts --accounts 100 --ideas 50 --seconds 15 --max-steps 3
//
// The data dir holds --accounts Pro accounts of --ideas ideas (sizing-seed.ts; `--data DIR` keeps it and reuses it).
// First, each route's CPU per request, one request at a time (--calibrate per route), read per thread from /proc:
// the ceilings it gives (accounts at which the event loop, the model worker or both cores are full) hold up on a
// shared machine, where latency does not. Then the steps: offered load is stated in accounts (N accounts in their
// peak hour send rateFor(N) requests per second), spread uniformly over the seeded accounts as open-loop Poisson
// arrivals (sizing-load.ts offer). Steps grow by --factor from --start (default: --accounts). A step holds when
// every route's p99 < 100 ms and the job queue is neither growing at its end nor non-empty 30 s after it. The steps
// go on past a latency miss (one burst from a neighbour's run can sink a step) and stop at overload: the queue
// falling behind, errors, or a median over 1 s. Then --refine steps bisect (geometrically) between the highest step
// that held and the next one up. Loads above --accounts reuse the seeded accounts' data, so disk and memory that grow
// with the number of accounts are measured per account and extrapolated (printed).
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { BUN, flag, machine, ROOT, spawnServer, tempDir, type Child } from "./lib";
import { bareTarget, MIX, offer, opMaker, PEAK_SHARE, PER_DAY, productTarget, quantile, rateFor, type Op, type Route, type Sample, type Target } from "./sizing-load";
import { drainTime, fileSize, rssMb, serverTimes, watch, type Usage } from "./sizing-proc";
import { seedAccounts, type Seeded } from "./sizing-seed";

const ACCOUNTS = flag("accounts", 1000);
const IDEAS = flag("ideas", 200);
const SECONDS = flag("seconds", 60);
const START = flag("start", ACCOUNTS);
const FACTOR = flag("factor", 2);
const MAX_STEPS = flag("max-steps", 10);
const REFINE = flag("refine", 1);
const REAL = flag("real", 4000);
const durAt = process.argv.indexOf("--durability");
/** power-safe (the default: fsync per commit) or crash-safe, for both servers. */
const DURABILITY = durAt === -1 ? "power-safe" : process.argv[durAt + 1];
const P99_MS = 100;
/** Past this overall p50 the server is not serving the load at all; the steps stop. */
const OVERLOAD_MS = 1000;
/** Requests per route in the CPU-cost calibration, one at a time. */
const CALIBRATE = flag("calibrate", 40);
/** The queue must be empty this long after a step's arrivals stop. */
const CATCH_UP_S = 30;
const dataAt = process.argv.indexOf("--data");
const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

const work = tempDir("idearepo-bench-sizing-");
const dataDir = dataAt === -1 ? join(work, "data") : process.argv[dataAt + 1];
const dbFile = join(dataDir, "idearepo.db");
const seededFile = join(dataDir, "sizing-seeded.json");
const started: Child[] = [];
const stopAll = async () => {
  for (const c of started.reverse()) await c.stop().catch(() => {});
};
process.on("SIGINT", () => void stopAll().then(() => process.exit(130)));

interface Side { samples: Sample[]; usage: Usage; load1: number; server: Map<string, number[]>; genPct: number }
interface Step { accounts: number; rate: number; bare: Side; product: Side; catchUpS: number | null; growing: boolean; ok: boolean; overloaded: boolean; why: string[] }

const fmt = (v: number, d = 1) => (Number.isFinite(v) ? v.toFixed(d) : "—");
const int = (v: number) => Math.round(v).toLocaleString("en-US");
const byRoute = (xs: Sample[], route?: Route) => xs.filter((s) => s.ok && (!route || s.route === route)).map((s) => s.ms);

const serverLog = join(work, "server.log");

async function measure(target: Target, pid: number, watchQueue: boolean, rate: number, next: () => Op): Promise<Side> {
  const from = fileSize(serverLog);
  const w = watch(pid, watchQueue ? dbFile : null, dataDir);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const samples = await offer(target, next, rate, SECONDS);
  const c = process.cpuUsage(c0);
  const genPct = ((c.user + c.system) / 1000 / (performance.now() - t0)) * 100;
  const usage = w.stop();
  return { samples, usage, load1: loadavg()[0], server: watchQueue ? serverTimes(serverLog, from) : new Map(), genPct };
}

async function runStep(accounts: number, bare: Child, product: Child, targets: { bare: Target; product: Target }, next: () => Op): Promise<Step> {
  const rate = rateFor(accounts);
  const b = await measure(targets.bare, bare.proc.pid, false, rate, next);
  const p = await measure(targets.product, product.proc.pid, true, rate, next);
  const d = p.usage.depth;
  const quarter = (k: number) => d.slice(Math.floor((d.length * k) / 4), Math.floor((d.length * (k + 1)) / 4));
  const mean = (xs: number[]) => xs.reduce((n, x) => n + x, 0) / Math.max(1, xs.length);
  const growing = d.at(-1)! > 30 && mean(quarter(3)) > mean(quarter(1)) + 10;
  const catchUpS = await drainTime(dbFile, CATCH_UP_S);
  const why: string[] = [];
  for (const m of MIX) {
    const p99 = quantile(byRoute(p.samples, m.route), 0.99);
    if (p99 >= P99_MS) why.push(`${m.route} p99 ${fmt(p99, 0)} ms`);
  }
  const errors = p.samples.filter((s) => !s.ok);
  if (errors.length) why.push(`${errors.length} errors (${errors[0].route}: ${errors[0].error})`);
  if (growing) why.push(`queue growing (${d[Math.floor(d.length / 4)]} → ${d.at(-1)})`);
  if (catchUpS === null) why.push(`queue not empty ${CATCH_UP_S} s after the step`);
  // Whatever happened, the next step starts from an empty queue.
  if (catchUpS === null) await drainTime(dbFile, 1800);
  // Latency alone does not end the steps: on this shared machine the neighbours' load moves p99 more than ours does.
  const overloaded = growing || catchUpS === null || errors.length > 0 || (quantile(byRoute(p.samples), 0.5) > OVERLOAD_MS);
  return { accounts, rate, bare: b, product: p, catchUpS, growing, ok: why.length === 0, overloaded, why };
}

interface Cost { route: Route; n: number; loopMs: number; workerMs: number; totalMs: number; handlerP50: number }

/**
 * CPU per request of each route, one request at a time (nothing queues), read from /proc: CPU time is what a busy
 * neighbour moves least, so these costs give the ceiling that latency on a shared machine cannot. A capture's cost
 * includes its pipeline pass (the calibration waits for the queue to empty before reading the clock).
 */
async function calibrate(target: Target, pid: number, makeOp: (r?: Route) => Op): Promise<Cost[]> {
  const out: Cost[] = [];
  for (const m of MIX) {
    const from = fileSize(serverLog);
    const w = watch(pid, null, dataDir);
    for (let i = 0; i < CALIBRATE; i++) await target.send(makeOp(m.route));
    await drainTime(dbFile, 120);
    const u = w.stop();
    const ms = (pct: number | undefined) => ((pct ?? 0) / 100) * u.wallS * 1000 / CALIBRATE;
    const handler = [...serverTimes(serverLog, from).values()].flat();
    out.push({
      route: m.route,
      n: CALIBRATE,
      loopMs: ms(u.cpu.find((c) => c.name === "event loop")?.pct),
      workerMs: ms(u.cpu.find((c) => c.name === "Worker")?.pct),
      totalMs: ms(u.totalPct),
      handlerP50: quantile(handler, 0.5),
    });
    log(`cost ${m.route}: ${out.at(-1)!.totalMs.toFixed(1)} ms CPU (event loop ${out.at(-1)!.loopMs.toFixed(1)}, Worker ${out.at(-1)!.workerMs.toFixed(1)})`);
  }
  return out;
}

function stepLine(s: Step): string {
  const all = (x: Side) => byRoute(x.samples);
  const cpu = s.product.usage.cpu.slice(0, 3).map((c) => `${c.name} ${fmt(c.pct, 0)}%`).join(", ");
  return (
    `${int(s.accounts)} accounts (${fmt(s.rate, 1)} req/s): idearepo p50 ${fmt(quantile(all(s.product), 0.5))} p99 ${fmt(quantile(all(s.product), 0.99))} ms, ` +
    `CPU ${fmt(s.product.usage.totalPct, 0)}% (${cpu}), queue max ${Math.max(...s.product.usage.depth)} end ${s.product.usage.depth.at(-1)}, ` +
    `catch-up ${s.catchUpS === null ? "—" : fmt(s.catchUpS)} s · bare p50 ${fmt(quantile(all(s.bare), 0.5))} p99 ${fmt(quantile(all(s.bare), 0.99))} ms ` +
    `CPU ${fmt(s.bare.usage.totalPct, 0)}% · load ${fmt(s.product.load1, 2)} · ${s.ok ? "HELD" : `MISSED: ${s.why.join("; ")}`}`
  );
}

try {
  console.log(`# Sizing: accounts served by one machine\n\n${machine()}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load average at start ${loadavg().map((x) => x.toFixed(2)).join(" / ")}`);
  let seeded: Seeded;
  let seedS: number | null = null;
  if (existsSync(seededFile)) {
    seeded = JSON.parse(readFileSync(seededFile, "utf8"));
    log(`reusing ${seeded.accounts.length} seeded accounts in ${dataDir}`);
  } else {
    const t0 = performance.now();
    seeded = await seedAccounts(dataDir, ACCOUNTS, IDEAS, REAL, log);
    seedS = (performance.now() - t0) / 1000;
    writeFileSync(seededFile, JSON.stringify(seeded));
    log(`seeded ${ACCOUNTS} × ${IDEAS} ideas in ${seedS.toFixed(0)} s`);
  }
  const dbBytes = () => ["", "-wal"].reduce((n, s) => n + (existsSync(dbFile + s) ? statSync(dbFile + s).size : 0), 0);
  const diskAtStart = dbBytes();
  const dbFileAtStart = existsSync(dbFile) ? statSync(dbFile).size : 0;

  const product = await spawnServer([BUN, join(ROOT, "scripts/bench/app-server.ts"), "serve"], { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0", IDEAREPO_LOG_LEVEL: "info", IDEAREPO_DURABILITY: DURABILITY }, serverLog);
  started.push(product);
  const health = await (await fetch(`${product.base}/api/v1/health`)).json();
  if ((await drainTime(dbFile, 600)) === null) throw new Error("the server's start-up jobs did not drain");
  const bare = await spawnServer([BUN, join(ROOT, "scripts/bench/bare-server.ts"), "sizing", dbFile, work], { IDEAREPO_DURABILITY: DURABILITY });
  started.push(bare);
  const rssIdle = rssMb(product.proc.pid);
  log(`servers up (health ${JSON.stringify(health).slice(0, 120)}); idearepo RSS ${rssIdle.toFixed(0)} MB; connecting ${seeded.accounts.length} MCP clients`);
  const pt = productTarget(product.base);
  await pt.connectAll(seeded.accounts);
  const targets = { bare: bareTarget(bare.base), product: pt };
  const next = opMaker(seeded);
  // Warm-up at the first step's rate: JIT, page cache, each account's vector codes loaded on first search.
  log("warm-up");
  await offer(targets.bare, next, rateFor(START), 10);
  await offer(targets.product, next, rateFor(START), 10);
  await drainTime(dbFile, 600);
  const rssWarm = rssMb(product.proc.pid);
  log("calibrating CPU per request");
  const costs = await calibrate(targets.product, product.proc.pid, next);

  const steps: Step[] = [];
  const attempt = async (accounts: number) => {
    const s = await runStep(accounts, bare, product, targets, next);
    log(stepLine(s));
    steps.push(s);
    return s;
  };
  // Steps go on past a latency miss (on a shared machine one neighbour's burst can sink a step) and stop at overload:
  // the queue falling behind, errors, or a median over OVERLOAD_MS.
  let overloaded: Step | null = null;
  for (let k = 0, n = START; k < MAX_STEPS; k++, n = Math.round(n * FACTOR)) {
    const s = await attempt(n);
    if (s.overloaded) {
      overloaded = s;
      break;
    }
  }
  const bestHeld = () => steps.filter((s) => s.ok).sort((a, b) => b.accounts - a.accounts)[0] ?? null;
  for (let r = 0; r < REFINE; r++) {
    const held = bestHeld();
    const above = steps.filter((s) => !s.ok && s.accounts > (held?.accounts ?? 0)).sort((a, b) => a.accounts - b.accounts)[0];
    if (!held || !above) break;
    const mid = Math.round(Math.sqrt(held.accounts * above.accounts) / 100) * 100;
    if (mid <= held.accounts || mid >= above.accounts) break;
    await attempt(mid);
  }
  const held = bestHeld();
  const missed = steps.filter((s) => !s.ok && s.accounts > (held?.accounts ?? 0)).sort((a, b) => a.accounts - b.accounts)[0] ?? null;
  const rssEnd = rssMb(product.proc.pid);
  await pt.close();
  const diskEnd = dbBytes();

  // ---- report ----
  const diskPerAccount = dbFileAtStart / seeded.accounts.length;
  console.log(`\n## Result\n`);
  console.log(
    (held
      ? `**${int(held.accounts)} accounts** held (${fmt(held.rate, 1)} req/s offered in their peak hour, every route's p99 < ${P99_MS} ms, the pipeline keeping up)` +
        (missed ? `; the next step up, ${int(missed.accounts)}, missed: ${missed.why.join("; ")}.` : `; no step above it missed (${MAX_STEPS} steps).`)
      : `No step held every route's p99 < ${P99_MS} ms (lowest: ${int(START)} accounts, ${steps[0]?.why.join("; ")}).`) +
      (overloaded ? ` Overloaded at ${int(overloaded.accounts)} accounts: ${overloaded.why.join("; ")}.` : ` No step overloaded the server (queue falling behind, errors, p50 over ${OVERLOAD_MS} ms).`),
  );
  console.log(
    `\nMix per account and day: ${MIX.map((m) => `${m.perDay} ${m.route}`).join(", ")} (${PER_DAY} requests); ${PEAK_SHARE * 100}% of them in the peak hour, ` +
      `so one account is ${fmt(rateFor(1) * 3600, 0)} requests in that hour. Durability ${DURABILITY}. Data: ${int(seeded.accounts.length)} Pro accounts of ${IDEAS} ideas; ${SECONDS} s per step; ` +
      `loads above ${int(seeded.accounts.length)} accounts are spread over the same ${int(seeded.accounts.length)}.`,
  );
  console.log(`\n## CPU per request, one at a time (${CALIBRATE} per route), and the ceilings it gives\n`);
  console.log("| route | per account and peak hour | CPU total | event loop | Worker (model) | handler p50 (server log) |");
  console.log("|---|---|---|---|---|---|");
  for (const c of costs) {
    const perHour = MIX.find((m) => m.route === c.route)!.perDay * PEAK_SHARE;
    console.log(`| ${c.route} | ${fmt(perHour, 1)} | ${fmt(c.totalMs)} ms | ${fmt(c.loopMs)} ms | ${fmt(c.workerMs)} ms | ${fmt(c.handlerP50)} ms |`);
  }
  // One account's CPU in its peak hour, per resource; the resource with the least room caps the account count.
  const perAccount = (key: "loopMs" | "workerMs" | "totalMs") =>
    costs.reduce((n, c) => n + MIX.find((m) => m.route === c.route)!.perDay * PEAK_SHARE * c[key], 0) / 1000;
  const ceilings = [
    { what: "the event loop (one core: every request, every SQLite statement and commit, the pipeline's steps)", s: perAccount("loopMs"), cores: 1 },
    { what: "the model worker (one thread: query embeddings and the pipeline's)", s: perAccount("workerMs"), cores: 1 },
    { what: "both cores (every thread of the process)", s: perAccount("totalMs"), cores: 2 },
  ].sort((a, b) => a.cores / a.s - b.cores / b.s);
  console.log("");
  for (const c of ceilings) console.log(`- ${c.what}: ${fmt(c.s, 2)} CPU-seconds per account and peak hour → full at ${int((3600 * c.cores) / c.s)} accounts (at 70%: ${int((0.7 * 3600 * c.cores) / c.s)})`);
  console.log(`\n## Steps (bare then idearepo at each rate)\n`);
  console.log("| accounts | req/s | idearepo p50 / p99 | bare p50 / p99 | idearepo CPU (event loop, busiest threads) | bare CPU | CPU ceiling: event loop / Worker / 2 cores | waiting for a core: event loop / Worker | load generator CPU | fsync p50 / p99 | RSS max | disk written | queue max / end | catch-up | load avg | |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const s of [...steps].sort((a, b) => a.accounts - b.accounts)) {
    const u = s.product.usage;
    const loop = u.cpu.find((c) => c.name === "event loop");
    const top = u.cpu.filter((c) => c.name !== "event loop");
    const cpuText = `${fmt(u.totalPct, 0)}% (${fmt(loop?.pct ?? 0, 0)}, ${top.slice(0, 2).map((c) => `${c.name} ${fmt(c.pct, 0)}`).join(", ")})`;
    const worker = u.cpu.find((c) => c.name === "Worker");
    // Where each CPU resource would reach 100% if its use grew in proportion to the load (a noise-robust ceiling).
    const ceil = (pct: number | undefined, cap: number) => (pct ? int((s.accounts * cap) / pct) : "—");
    const ceilings = `${ceil(loop?.pct, 100)} / ${ceil(worker?.pct, 100)} / ${ceil(u.totalPct, 200)}`;
    const fs = `${fmt(quantile(u.fsyncMs, 0.5))} / ${fmt(quantile(u.fsyncMs, 0.99))} ms`;
    const pp = (x: Side) => `${fmt(quantile(byRoute(x.samples), 0.5))} / ${fmt(quantile(byRoute(x.samples), 0.99))} ms`;
    console.log(
      `| ${int(s.accounts)} | ${fmt(s.rate)} | ${pp(s.product)} | ${pp(s.bare)} | ${cpuText} | ${fmt(s.bare.usage.totalPct, 0)}% | ${ceilings} | ${fmt(loop?.waitPct ?? 0, 0)}% / ${fmt(worker?.waitPct ?? 0, 0)}% | ${fmt(s.product.genPct, 0)}% | ${fs} ` +
        `| ${fmt(u.rssMaxMb, 0)} MB | ${fmt(u.diskWriteMb)} MB | ${Math.max(...u.depth)} / ${u.depth.at(-1)} | ${s.catchUpS === null ? "—" : `${fmt(s.catchUpS)} s`} | ${fmt(s.product.load1, 2)} | ${s.ok ? "held" : `missed: ${s.why.join("; ")}`} |`,
    );
  }
  const show = [held, missed, overloaded].filter((s, i, xs) => xs.indexOf(s) === i).filter((s): s is Step => !!s);
  console.log(`\n## Per route (idearepo beside bare, ms)\n`);
  console.log(`| route | ${show.map((s) => `${int(s.accounts)} accounts: n, p50 / p99 | bare p50 / p99`).join(" | ")} |`);
  console.log(`|---|${show.map(() => "---|---|").join("")}`);
  for (const m of MIX) {
    const cells = show.map((s) => {
      const p = byRoute(s.product.samples, m.route);
      const b = byRoute(s.bare.samples, m.route);
      return `${p.length}, ${fmt(quantile(p, 0.5))} / ${fmt(quantile(p, 0.99))} | ${fmt(quantile(b, 0.5))} / ${fmt(quantile(b, 0.99))}`;
    });
    console.log(`| ${m.route} | ${cells.join(" | ")} |`);
  }
  console.log(`\n## Server-side handler time (its request log: no waiting before the handler runs), ms\n`);
  for (const s of show) {
    const parts = [...s.product.server].sort((a, b) => b[1].length - a[1].length).map(([k, xs]) => `${k} n ${xs.length} p50 ${fmt(quantile(xs, 0.5))} p99 ${fmt(quantile(xs, 0.99))}`);
    console.log(`- ${int(s.accounts)} accounts: ${parts.join("; ")}`);
  }
  console.log(`\n## Queue depth over time (jobs, one sample every 5 s)\n`);
  for (const s of show) console.log(`- ${int(s.accounts)} accounts: ${s.product.usage.depth.filter((_, i) => i % 5 === 0).join(" ")}`);
  console.log(`\n## Memory and disk\n`);
  const conn = pt.connects;
  console.log(`- idearepo RSS: ${fmt(rssIdle, 0)} MB after start (model loaded), ${fmt(rssWarm, 0)} MB after the warm-up, ${fmt(rssEnd, 0)} MB at the end, max ${fmt(Math.max(...steps.map((s) => s.product.usage.rssMaxMb)), 0)} MB during steps`);
  console.log(`- database file: ${fmt(dbFileAtStart / 1e6)} MB (WAL ${fmt((diskAtStart - dbFileAtStart) / 1e6)} MB) for ${int(seeded.accounts.length)} accounts × ${IDEAS} ideas (${fmt(diskPerAccount / 1e3)} KB per account, ${fmt(diskPerAccount / IDEAS / 1e3, 2)} KB per idea); ${fmt(diskEnd / 1e6)} MB after the run`);
  console.log(`- extrapolated: ${held ? `${int(held.accounts)} accounts ≈ ${fmt((diskPerAccount * held.accounts) / 1e9)} GB of database` : "—"}; per 10,000 accounts ≈ ${fmt((diskPerAccount * 1e4) / 1e9)} GB`);
  console.log(`- MCP: ${conn.length} SDK clients connected before the steps, connect p50 ${fmt(quantile(conn, 0.5))} ms, p99 ${fmt(quantile(conn, 0.99))} ms`);
  if (seedS !== null) console.log(`- seeding: ${fmt(seedS, 0)} s`);
  console.log(`- load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(" / ")}`);
} finally {
  await stopAll();
  rmSync(work, { recursive: true, force: true }); // with --data, the data dir lives elsewhere and is kept
}
