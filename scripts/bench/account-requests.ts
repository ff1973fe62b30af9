// Requests that carry an account's own data, before/after: the signed-in app shell with its inline boot data
// (GET /ideas and GET /tags with the session cookie, gzip accepted as a browser does) and the review badge's
// GET /review/counts, on a large account, for this tree against a baseline revision. The two servers run side by side
// on copies of one seeded data dir and the load alternates between them (lib.ts `alternating`), and each figure stands
// beside a raw baseline from the same server in the same round: the signed-out shell (the same page with no account
// data: bytes and gzip from memory) for the shells, GET /review (the whole queue the counts describe) for the counts.
//
//   bun scripts/bench/account-requests.ts [--base REV] [--rounds 4] [--duration 5] [--connections 10]
//                                         [--ideas 2000] [--detections 1000] [--relations 300]
//
// The account: --ideas captured through the API (pipeline paused), a third of them last updated a year ago (stale),
// then --detections pending duplicate detections and --relations connections made yesterday, written straight into
// the database (what the pipeline would have stored, without minutes of embedding).
import { Database } from "bun:sqlite";
import { cpSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { alternating, BUN, flag, fmtMs, machine, measured, median, revisionTree, ROOT, spawnServer, tempDir, type Child, type Side } from "./lib";
import { sessionCookie, startWebBenchServer, type WebBenchServer } from "./web-lib";
import { toStamp } from "../../src/lib/time";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
/** Main before this session's shell and review-count changes. */
const BASE_REV = arg("base", "94da5a9");
const ROUNDS = flag("rounds", 4);
const DURATION = flag("duration", 5);
const CONNECTIONS = flag("connections", 10);
const IDEAS = flag("ideas", 2000);
const DETECTIONS = flag("detections", 1000);
const RELATIONS = flag("relations", 300);
const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const work = tempDir("idearepo-bench-account-requests-");

/** The large account in a data dir of its own (web-lib.ts's seeded server, stopped before the database is written). */
async function seed(): Promise<WebBenchServer> {
  log(`seeding ${IDEAS} ideas`);
  const server = await startWebBenchServer({ ideas: IDEAS });
  await server.app.stop();
  const db = new Database(join(server.dataDir, "idearepo.db"));
  try {
    const ids = db.query<{ id: number; user_id: string }, []>("SELECT id, user_id FROM ideas ORDER BY id").all();
    const user = ids[0].user_id;
    const now = Date.now();
    db.transaction(() => {
      db.query("UPDATE ideas SET updated_at = ? WHERE id % 3 = 0").run(toStamp(new Date(now - 365 * 86_400_000)));
      const detect = db.query(
        `INSERT INTO duplicate_detections (user_id, idea_id, duplicate_of_id, similarity_score, status, created_at, pair_lo, pair_hi)
         VALUES (?1, ?2, ?3, ?4, 'pending', ?5, min(?2, ?3), max(?2, ?3))`,
      );
      // Near neighbours by id, as near-copies of a note cluster: each idea paired with the next few.
      let made = 0;
      for (let k = 1; made < DETECTIONS; k++) {
        for (let a = 0; a + k < ids.length && made < DETECTIONS; a++, made++) {
          detect.run(user, ids[a + k].id, ids[a].id, 0.8 + (made % 20) / 100, toStamp(new Date(now - made * 60_000)));
        }
      }
      const relate = db.query(
        `INSERT INTO relations (user_id, source_idea_id, target_idea_id, relation_type, score, created_by, created_at)
         VALUES (?, ?, ?, 'related', ?, 'system', ?)`,
      );
      for (let i = 0; i < RELATIONS; i++) relate.run(user, ids[(i * 7) % ids.length].id, ids[(i * 7 + 3) % ids.length].id, 0.6, toStamp(new Date(now - 86_400_000 - i * 60_000)));
    })();
  } finally {
    db.close();
  }
  return server;
}

const serve = (tree: string, dataDir: string, logName: string) =>
  spawnServer(
    [BUN, join(tree, "scripts/bench/app-server.ts"), "serve"],
    { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0", IDEAREPO_HOST: "127.0.0.1", BENCH_PAUSE_PIPELINE: "1" },
    join(work, logName),
  );

interface Target { name: string; path: string; headers: Record<string, string> }
interface Figure { side: Side; target: string; rps: number; p50: number; cpuUs: number; load: number }

const seeded = await seed();
const key = seeded.key;
const servers = new Map<Side, { child: Child; targets: Target[] }>();
let figures: Figure[] = [];
try {
  const baseTree = revisionTree(BASE_REV, join(work, "base"));
  for (const [side, tree] of [["product", ROOT], ["baseline", baseTree]] as const) {
    const dataDir = join(work, `data-${side}`);
    cpSync(seeded.dataDir, dataDir, { recursive: true });
    const child = await serve(tree, dataDir, `${side}.log`);
    const cookie = await sessionCookie({ ...seeded, base: child.base });
    const gzip = { "accept-encoding": "gzip, deflate, br" };
    const targets: Target[] = [
      { name: "shell /ideas, signed in (boot data: session + 50 rows)", path: "/ideas", headers: { ...gzip, cookie } },
      { name: "shell /tags, signed in (boot data: session)", path: "/tags", headers: { ...gzip, cookie } },
      { name: "raw: shell /ideas, signed out (from memory)", path: "/ideas", headers: gzip },
      { name: "GET /review/counts", path: "/api/v1/review/counts", headers: { "x-api-key": key } },
      { name: "raw: GET /review (the queue counted)", path: "/api/v1/review", headers: { "x-api-key": key } },
    ];
    for (const t of targets) {
      const r = await fetch(child.base + t.path, { headers: t.headers }); // a checkout bundles the app on its first page
      if (r.status !== 200) throw new Error(`${side} ${t.path}: ${r.status}`);
      await r.arrayBuffer();
    }
    servers.set(side, { child, targets });
  }
  const counts = (await (await fetch(`${servers.get("product")!.child.base}/api/v1/review/counts`, { headers: { "x-api-key": key } })).json()) as { counts: unknown };
  log(`account: ${IDEAS} ideas, review counts ${JSON.stringify(counts.counts)}`);
  // The servers keep running; what alternates is the load.
  const rounds = await alternating(ROUNDS, baseTree, async (side) => {
    const { child, targets } = servers.get(side)!;
    const out: Figure[] = [];
    for (const t of targets) {
      const r = await measured(child.proc.pid, { url: child.base + t.path, headers: t.headers, connections: CONNECTIONS, duration: DURATION });
      if (r.non2xx || r.errors) throw new Error(`${side} ${t.path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      out.push({ side, target: t.name, rps: r.rps, p50: r.p50, cpuUs: r.cpuUs, load: loadavg()[0] });
    }
    log(`${side}: ${out.map((f) => `${f.rps} req/s ${f.cpuUs.toFixed(0)} µs`).join(", ")}; load ${loadavg()[0].toFixed(1)}`);
    return out;
  });
  figures = rounds.flat();
} finally {
  for (const s of servers.values()) await s.child.stop();
  rmSync(work, { recursive: true, force: true });
  rmSync(seeded.dir, { recursive: true, force: true });
}

const loads = figures.map((f) => f.load);
console.log(`\nAccount requests: ${IDEAS} ideas, ${DETECTIONS} pending detections, ${RELATIONS} new connections; ${CONNECTIONS} connections, ` +
  `${DURATION} s per target, ${ROUNDS} rounds alternating; ${machine()}; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; baseline = ${BASE_REV}, product = this tree`);
console.log("| request | product: server CPU per request (rounds) | req/s | p50 | baseline rev: CPU per request (rounds) | req/s | p50 |");
console.log("|---|---|---|---|---|---|---|");
for (const target of [...new Set(figures.map((f) => f.target))]) {
  const cells = (side: Side) => {
    const xs = figures.filter((f) => f.target === target && f.side === side);
    return `${median(xs.map((x) => x.cpuUs)).toFixed(0)} µs (${xs.map((x) => x.cpuUs.toFixed(0)).join(", ")}) | ${median(xs.map((x) => x.rps))} | ` +
      `${fmtMs(median(xs.map((x) => x.p50)))} ms`;
  };
  console.log(`| ${target} | ${cells("product")} | ${cells("baseline")} |`);
}
