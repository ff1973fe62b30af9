// PostgreSQL beside SQLite: list, capture, keyword and semantic search over the same ideas in one account, both stores
// in one process and one run, the store that goes first alternating round by round (a neighbour's burst of load then
// falls on both). p50 / p99 per request and CPU per request (this process plus, on PostgreSQL, the server's processes).
//
//   bun scripts/bench/stores.ts [--sizes 10000,100000] [--requests 200] [--rounds 3] [--captures 2000] [--real 3000]
//                               [--kinds list,keyword,semantic,capture,roundtrip]   (a subset, to time only those; without
//                               semantic the seeded ideas get no vectors, which the others never read; roundtrip,
//                               not in the default, is the floor: a bare SELECT 1 through each store, no app)
//                               [--keep <dir>]
//
// --keep <dir>: seeding 100,000 ideas takes about a quarter of an hour on PostgreSQL, so the seeded databases are kept
// in <dir> (a SQLite file and a database in a PostgreSQL cluster that lives there, per size and with or without
// vectors) and a later run with the same <dir> starts from them. Each run measures a copy (the copy of the SQLite file,
// CREATE DATABASE … TEMPLATE on PostgreSQL), so captures and usage counters never change what is kept, and a size
// not kept yet is seeded from the largest smaller one. Without it, one run seeds its sizes in turn and keeps nothing.
//
// The app is the real one answering through app.handle (search-lib's benchApp): `idearepo serve` does not run on
// PostgreSQL yet, and in one process neither store pays a loopback the other does not. Both are power-safe: SQLite with
// the server's group commit (an answer waits for the WAL's sync), PostgreSQL a cluster with fsync and full page writes
// on (IDEAREPO_PG_DURABLE=1 for test/support/postgres.ts) and synchronous_commit on, as pgStore connects. Seeding writes
// the same rows and vectors into both through the store (USE-lite embeddings of real sentences, then mixtures of two,
// as vector-stores.ts); list, keyword and semantic requests are sequential (one client: latency, not queueing);
// captures are 50 in flight, each a distinct idea, the pipeline not running (its jobs stay queued on both).
process.env.IDEAREPO_PG_DURABLE = "1";
const keepIndex = process.argv.indexOf("--keep");
const KEEP = keepIndex >= 0 ? resolve(process.argv[keepIndex + 1] ?? "") : null;
if (KEEP) process.env.IDEAREPO_PG_CLUSTER_DIR = join(KEEP, "pg"); // read when the cluster is first made
import { SQL } from "bun";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { migratePg } from "../../src/db/pg/migrate";
import { toStamp } from "../../src/lib/time";
import { indexKeywordQueue } from "../../src/modules/search/fulltext-pg-repo";
import { startModels } from "../../src/ml/client";
import { planGenerations, vectorId } from "../../src/vectors/generations";
import { vectorStore } from "../../src/vectors/store";
import { migratedDatabase, postgresMissing, testCluster } from "../../test/support/postgres";
import { createRng } from "../fuzz/rng";
import { ideaTexts } from "./lib";
import { embedCached, realSentences } from "./real-vectors";
import { benchApp, benchUser, flag, percentile, type BenchApp } from "./search-lib";

const missing = postgresMissing();
if (missing) throw new Error(missing);
const ROOT = resolve(import.meta.dir, "../..");
const sizes = flag("--sizes", "10000,100000").split(",").map(Number);
const REQUESTS = Number(flag("--requests", "200"));
const ROUNDS = Number(flag("--rounds", "3"));
const CAPTURES = Number(flag("--captures", "2000"));
const REAL = Number(flag("--real", "3000"));
const IN_FLIGHT = 50;
const KINDS = flag("--kinds", "list,keyword,semantic,capture").split(",");

const model = await startModels({ modelsDir: join(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
const real = await embedCached(model, realSentences(REAL));
const sentences = realSentences(REAL);
const mixture = (a: Float32Array, b: Float32Array) => {
  const v = a.map((x, i) => x + b[i]);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const QUERIES = 100;
/**
 * The i-th seeded idea: a real sentence and its vector, past them a mixture of two titled by both (chosen by a
 * generator seeded with i, so a size seeded on top of a kept smaller one holds the ideas a run from nothing would).
 */
const nth = (i: number): { title: string; v: Float32Array } => {
  if (QUERIES + i < real.length) return { title: sentences[QUERIES + i], v: real[QUERIES + i] };
  const rng = createRng(42 + i);
  const pick = () => 100 + Math.floor(rng.next() * (real.length - QUERIES));
  const [a, b] = [pick(), pick()];
  return { title: `${sentences[a].slice(0, 90)} ${sentences[b].slice(0, 90)}`, v: mixture(real[a], real[b]) };
};
const semanticQueries = sentences.slice(0, QUERIES);
const keywordQueries = semanticQueries.map((s) => (s.toLowerCase().match(/[a-z]{4,}/g) ?? ["idea"]).slice(0, 2).join(" "));

/** CPU seconds of the PostgreSQL server: the postmaster, its live children, and its reaped children's totals. */
function pgCpuSeconds(): number {
  const postmaster = Number(readFileSync(join(testCluster().dir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  let ticks = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // f[0] is field 3 (state)
    if (Number(pid) === postmaster) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    else if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / 100;
}
const ownCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

interface Side {
  name: "SQLite" | "PostgreSQL";
  app: BenchApp;
  key: string;
  userId: string;
  cpu: () => number;
}
const NAMES = ["SQLite", "PostgreSQL"] as const;
const cpuOf = (name: Side["name"]) => (name === "PostgreSQL" ? () => ownCpuSeconds() + pgCpuSeconds() : ownCpuSeconds);
const dbFile = KEEP ? join(KEEP, "work.db") : join(tmpdir(), `idearepo-bench-stores-${process.pid}.db`);
const removeSqlite = (file: string) => {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
};
let sides: Side[] = [];
if (!KEEP) {
  for (const name of NAMES) {
    const pgUrl = name === "PostgreSQL" ? (await migratedDatabase()).url : undefined;
    const app = await benchApp(dbFile, model, { pgUrl, groupCommit: true });
    const user = await benchUser(app.deps, "pro");
    sides.push({ name, app, key: user.key, userId: user.id, cpu: cpuOf(name) });
  }
}

/** --keep: what a kept size holds (its account on each store), beside its SQLite file and PostgreSQL database. */
interface Kept { size: number; vectors: boolean; users: Record<Side["name"], { id: string; key: string }> }
const VECTORS = KINDS.includes("semantic");
const keptName = (size: number) => `n${size}${VECTORS ? "v" : ""}`;
const keptSizes = (): number[] => !KEEP ? [] : readdirSync(KEEP)
  .map((f) => f.match(/^n(\d+)(v?)\.json$/))
  .filter((m): m is RegExpMatchArray => m !== null && (m[2] === "v") === VECTORS)
  .map((m) => Number(m[1]));
/** The cluster's superuser on its maintenance database, for CREATE/DROP DATABASE. */
async function admin<T>(fn: (sql: SQL) => Promise<T>): Promise<T> {
  const sql = new SQL({ url: testCluster().url("postgres"), max: 1 });
  try {
    return await fn(sql);
  } finally {
    await sql.close();
  }
}
/**
 * --keep: both sides opened on a fresh working copy of the kept size `from` (its file copied, its database cloned,
 * both migrated to this build), or on new empty databases with a new account each when `from` is null.
 */
async function openWork(from: number | null): Promise<Side[]> {
  removeSqlite(dbFile);
  await admin((sql) => sql.unsafe("DROP DATABASE IF EXISTS bench_work WITH (FORCE)"));
  if (from === null) {
    await admin((sql) => sql.unsafe("CREATE DATABASE bench_work"));
    await migratePg(testCluster().url("bench_work"));
  } else {
    for (const suffix of ["", "-wal"]) if (existsSync(join(KEEP!, keptName(from) + ".db" + suffix))) copyFileSync(join(KEEP!, keptName(from) + ".db" + suffix), dbFile + suffix);
    const t0 = performance.now();
    await admin((sql) => sql.unsafe(`CREATE DATABASE bench_work TEMPLATE bench_${keptName(from)} STRATEGY FILE_COPY`));
    await migratePg(testCluster().url("bench_work"));
    console.error(`kept ${from} ideas copied in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const kept: Kept | null = from === null ? null : JSON.parse(readFileSync(join(KEEP!, `${keptName(from)}.json`), "utf8"));
  const out: Side[] = [];
  for (const name of NAMES) {
    const app = await benchApp(dbFile, model, { pgUrl: name === "PostgreSQL" ? testCluster().url("bench_work") : undefined, groupCommit: true });
    const user = kept ? kept.users[name] : await benchUser(app.deps, "pro");
    out.push({ name, app, key: user.key, userId: user.id, cpu: cpuOf(name) });
  }
  return out;
}
/** --keep: the working copy, closed, becomes the kept `size` (replacing one of that size). */
async function keepWork(size: number): Promise<void> {
  for (const side of sides) await side.app.close();
  const name = keptName(size);
  removeSqlite(join(KEEP!, `${name}.db`));
  for (const suffix of ["", "-wal"]) if (existsSync(dbFile + suffix)) copyFileSync(dbFile + suffix, join(KEEP!, `${name}.db${suffix}`));
  await admin(async (sql) => {
    await sql.unsafe(`DROP DATABASE IF EXISTS bench_${name} WITH (FORCE)`);
    await sql.unsafe(`CREATE DATABASE bench_${name} TEMPLATE bench_work STRATEGY FILE_COPY`);
  });
  const users = Object.fromEntries(sides.map((s) => [s.name, { id: s.userId, key: s.key }])) as Kept["users"];
  const kept: Kept = { size, vectors: VECTORS, users };
  writeFileSync(join(KEEP!, `${name}.json`), `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
  console.error(`kept ${size} ideas in ${KEEP}`);
}

async function seed(side: Side, from: number, to: number): Promise<void> {
  const { store } = side.app.deps;
  const now = toStamp(new Date());
  const gen = (await planGenerations(store, { model: "use-lite", model_id: model.embedModelId, dim: model.dim }, now)).active!;
  const vs = vectorStore(store, gen);
  const insert = store.query<{ id: number }, [string, number, string, string, string]>(
    "INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5) RETURNING id",
  );
  const setVid = store.query<never, [string, number]>("UPDATE ideas SET vectorize_id = ?1 WHERE id = ?2");
  const user = side.userId;
  // Numbers follow the account's sequence: the captures of a smaller size's rounds took some.
  const seq = store.query<{ idea_seq: number }, [string]>("SELECT idea_seq FROM users WHERE id = ?1");
  const base = (await seq.get(user))!.idea_seq - from;
  for (let i = from; i < to; i += 1000) {
    await store.tx(async () => {
      // A thousand rows' statements sent at once: pipelined on PostgreSQL's connection (one at a time, 100,000 ideas
      // took over 20 minutes there on a loaded machine); on SQLite each has run when called, as before.
      const rows = Array.from({ length: Math.min(to, i + 1000) - i }, (_, k) => {
        const n = i + k;
        return { n, ...nth(n), body: `${sentences[(n * 7) % sentences.length]} ${sentences[(n * 13) % sentences.length]}` };
      });
      const ids = await Promise.all(rows.map((r) => insert.get(user, base + r.n + 1, r.title.slice(0, 200), r.body, now)));
      // Vectors only when semantic search is timed (the list and capture never read them). One at a time: putIdea
      // reads and rewrites the account's running sum.
      if (KINDS.includes("semantic")) {
        for (const [k, r] of rows.entries()) await vs.putIdea(ids[k]!.id, user, r.v, "bench");
        await Promise.all(ids.map((row) => setVid.run(vectorId(gen.gen, row!.id), row!.id)));
      }
      await store.query<never, [number, string]>("UPDATE users SET idea_seq = ?1 WHERE id = ?2").run(base + Math.min(to, i + 1000), user);
    });
  }
  if (store.dialect === "postgres") {
    // The keyword index on PostgreSQL is built by the product's indexer from the queue its triggers filled (on SQLite
    // FTS5's triggers indexed each row as it was inserted): run to completion here, timed, so no measured search
    // pays for it.
    const t0 = performance.now();
    await indexKeywordQueue(store);
    console.error(`${side.name}: keyword index built for ${to - from} ideas in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    // A live server's autovacuum analyzes a table that grew this much; straight after a fast seed its statistics
    // still describe the small table, and the list's plan is not the one a server would run (13 ms instead of 0.5
    // at 100,000). After the indexer, so the index's tables are described too.
    await store.exec("ANALYZE");
  }
}

/** serverUs: of cpuUs, PostgreSQL's server processes' share (absent on SQLite, where all of it is this process's). */
interface Result { times: number[]; cpuUs: number; wallS: number; failures: string[]; serverUs?: number }
const serverCpu = (side: Side) => (side.name === "PostgreSQL" ? pgCpuSeconds() : 0);
const serverShare = (side: Side, server0: number, n: number) =>
  side.name === "PostgreSQL" ? { serverUs: ((pgCpuSeconds() - server0) * 1e6) / n } : {};

/** `paths` one after another (one client); latency of each and CPU per request. */
async function sequential(side: Side, paths: string[]): Promise<Result> {
  const times: number[] = [];
  const failures: string[] = [];
  const cpu0 = side.cpu();
  const server0 = serverCpu(side);
  const t0 = performance.now();
  for (const path of paths) {
    const t = performance.now();
    const res = await side.app.handle(new Request(`http://localhost/api/v1${path}`, { headers: { "x-api-key": side.key } }));
    const text = await res.text();
    times.push(performance.now() - t);
    if (res.status !== 200 && failures.length < 3) failures.push(`${res.status} ${text.slice(0, 200)}`);
  }
  const wallS = (performance.now() - t0) / 1000;
  return { times, cpuUs: ((side.cpu() - cpu0) * 1e6) / paths.length, wallS, failures, ...serverShare(side, server0, paths.length) };
}

let captured = 0;
const captureTexts = ideaTexts(CAPTURES * ROUNDS * sizes.length * 2 + 10);
/** CAPTURES distinct captures, IN_FLIGHT at a time. */
async function captures(side: Side): Promise<Result> {
  const times: number[] = [];
  const failures: string[] = [];
  const cpu0 = side.cpu();
  const server0 = serverCpu(side);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < CAPTURES) {
      next++;
      const body = JSON.stringify({ ...captureTexts[captured++], tags: ["bench"], source: "api" });
      const t = performance.now();
      const res = await side.app.handle(new Request("http://localhost/api/v1/ideas", {
        method: "POST", headers: { "x-api-key": side.key, "content-type": "application/json" }, body,
      }));
      const text = await res.text();
      times.push(performance.now() - t);
      if (res.status !== 201 && failures.length < 3) failures.push(`${res.status} ${text.slice(0, 200)}`);
    }
  }));
  const wallS = (performance.now() - t0) / 1000;
  return { times, cpuUs: ((side.cpu() - cpu0) * 1e6) / CAPTURES, wallS, failures, ...serverShare(side, server0, CAPTURES) };
}

/**
 * The raw floor: REQUESTS bare `SELECT 1` through the store the app holds (on PostgreSQL a round trip to the server
 * over the product's own client and pool, on SQLite a call into the library), one at a time, no HTTP, no app.
 */
async function roundTrips(side: Side): Promise<Result> {
  const one = side.app.deps.store.query<{ one: number }, []>("SELECT 1 AS one");
  const times: number[] = [];
  const cpu0 = side.cpu();
  const t0 = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    await one.get();
    times.push(performance.now() - t);
  }
  return { times, cpuUs: ((side.cpu() - cpu0) * 1e6) / REQUESTS, wallS: (performance.now() - t0) / 1000, failures: [] };
}

const list = () => Array.from({ length: REQUESTS }, () => "/ideas?limit=20");
const keyword = () => Array.from({ length: REQUESTS }, (_, i) => `/ideas/search?mode=keyword&limit=20&q=${encodeURIComponent(keywordQueries[i % QUERIES])}`);
const semantic = () => Array.from({ length: REQUESTS }, (_, i) => `/ideas/search?mode=semantic&limit=20&q=${encodeURIComponent(semanticQueries[i % QUERIES])}`);

const kinds = ([
  ["roundtrip", "bare SELECT 1 through the store (no app)", roundTrips],
  ["list", "list GET /ideas?limit=20", (s: Side) => sequential(s, list())],
  ["keyword", "keyword GET /ideas/search", (s: Side) => sequential(s, keyword())],
  ["semantic", "semantic GET /ideas/search", (s: Side) => sequential(s, semantic())],
  ["capture", `capture POST /ideas (${IN_FLIGHT} in flight)`, captures],
] as const).filter(([name]) => KINDS.includes(name)).map(([, kind, run]) => [kind, run] as const);

const cell = (rs: Result[], capture: boolean) => {
  const all = rs.flatMap((r) => r.times);
  const cpu = percentile(rs.map((r) => r.cpuUs), 50);
  const server = rs[0]?.serverUs === undefined ? "" : ` (server ${Math.round(percentile(rs.map((r) => r.serverUs!), 50))})`;
  const rate = capture ? ` · ${Math.round(percentile(rs.map((r) => CAPTURES / r.wallS), 50))}/s` : "";
  const failed = rs.flatMap((r) => r.failures);
  return `${percentile(all, 50).toFixed(2)} / ${percentile(all, 99).toFixed(1)} ms · ${Math.round(cpu)} µs CPU${server}${rate}${failed.length ? ` · FAILED: ${failed[0]}` : ""}`;
};

const lines: string[] = [];
let seeded = 0;
if (KEEP) mkdirSync(KEEP, { recursive: true });
for (const size of sizes) {
  if (KEEP) {
    for (const side of sides) await side.app.close();
    if (!keptSizes().includes(size)) {
      const base = Math.max(0, ...keptSizes().filter((n) => n < size));
      sides = await openWork(base > 0 ? base : null);
      for (const side of sides) {
        const t0 = performance.now();
        await seed(side, base, size);
        console.error(`${side.name}: seeded ${base} → ${size} ideas in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
      await keepWork(size);
    }
    sides = await openWork(size);
  } else {
    for (const side of sides) {
      const t0 = performance.now();
      await seed(side, seeded, size);
      console.error(`${side.name}: seeded ${size} ideas in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  }
  seeded = size;
  // One unmeasured pass of each read: statements prepared, pages and the vector codes loaded, on both.
  for (const side of sides) for (const [kind, run] of kinds) if (!kind.startsWith("capture")) await (run as (s: Side) => Promise<Result>)(side);
  const results = new Map<string, Result[]>();
  const loads: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const [kind, run] of kinds) {
      for (const side of order) {
        const res = await (run as (s: Side) => Promise<Result>)(side);
        const k = `${kind}|${side.name}`;
        results.set(k, [...(results.get(k) ?? []), res]);
        console.error(`${size} round ${r + 1} ${kind} ${side.name}: ${cell([res], kind.startsWith("capture"))} (load ${loadavg()[0].toFixed(1)})`);
      }
    }
    loads.push(loadavg()[0]);
  }
  for (const [kind] of kinds) {
    const capture = kind.startsWith("capture");
    const sq = results.get(`${kind}|SQLite`)!;
    const pg = results.get(`${kind}|PostgreSQL`)!;
    const p50 = (rs: Result[]) => percentile(rs.flatMap((r) => r.times), 50);
    const ratio = capture
      ? `${(percentile(pg.map((r) => CAPTURES / r.wallS), 50) / percentile(sq.map((r) => CAPTURES / r.wallS), 50)).toFixed(2)}× the rate`
      : `${(p50(pg) / p50(sq)).toFixed(2)}× p50`;
    console.error(`TABLE | ${size.toLocaleString("en")} | ${kind} | ${cell(sq, capture)} | ${cell(pg, capture)} | ${ratio} |`);
    lines.push(`| ${size.toLocaleString("en")} | ${kind} | ${cell(sq, capture)} | ${cell(pg, capture)} | ${ratio} | ${Math.min(...loads).toFixed(0)}–${Math.max(...loads).toFixed(0)} |`);
  }
}
console.log(`| ideas | request | SQLite p50 / p99 · CPU per request | PostgreSQL p50 / p99 · CPU per request | PostgreSQL / SQLite | load (1 min) |`);
console.log("|---|---|---|---|---|---|");
for (const l of lines) console.log(l);
for (const side of sides) await side.app.close();
await model.close();
removeSqlite(dbFile);
if (KEEP) await admin((sql) => sql.unsafe("DROP DATABASE IF EXISTS bench_work WITH (FORCE)"));
process.exit(0);
