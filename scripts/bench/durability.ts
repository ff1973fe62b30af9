// What power-safe costs: POST /api/v1/ideas throughput and p99 with durability "power-safe" (group commit: NORMAL
// commits, each answer waiting for one shared fdatasync of the WAL), the same with an fsync per commit (FULL, as before
// group commit; BENCH_SYNC_FULL), and "crash-safe" (NORMAL), beside the bare Bun.serve + INSERT baseline with FULL,
// NORMAL and group commit, all alternating round by round in one run.
//
//   bun scripts/bench/durability.ts [--rounds 3] [--duration 5] [--connections 20] [--json]
import { rmSync } from "node:fs";
import { join } from "node:path";
import { BUN, flag, ideaTexts, load, report, ROOT, row, spawnServer, tempDir, type LoadResult, type Row } from "./lib";

const rounds = flag("rounds", 3);
const duration = flag("duration", 5);
const connections = flag("connections", 20);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function durabilityBench(): Promise<Row[]> {
  const dir = tempDir("idearepo-bench-durability-");
  const bodies = ideaTexts(40_000).map((t) => JSON.stringify({ ...t, tags: ["bench"], source: "api" }));
  let n = 0;

  async function product(durability: string, extra: Record<string, string> = {}): Promise<LoadResult> {
    const dataDir = join(dir, `p${n++}`);
    const created = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "users", "create", "--email", "bench@example.com", "--plan", "pro"], {
      env: { ...process.env, IDEAREPO_DATA_DIR: dataDir, IDEAREPO_DURABILITY: durability },
    });
    const key = JSON.parse(created.stdout.toString()).api_key as string;
    const app = await spawnServer([BUN, join(ROOT, "scripts/bench/app-server.ts"), "serve"], {
      IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0", IDEAREPO_DURABILITY: durability, ...extra,
    }, join(dir, `p${n}.log`));
    try {
      const r = await load({ url: `${app.base}/api/v1/ideas`, method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, bodies, connections, duration });
      if (r.non2xx || r.errors) throw new Error(`product ${durability}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      return r;
    } finally {
      await app.stop();
    }
  }

  async function bare(env: Record<string, string>): Promise<LoadResult> {
    const d = join(dir, `b${n++}`);
    Bun.spawnSync(["mkdir", "-p", d]);
    const srv = await spawnServer([BUN, join(ROOT, "scripts/bench/bare-server.ts"), "capture", d], env);
    try {
      return await load({ url: `${srv.base}/ideas`, method: "POST", headers: { "content-type": "application/json" }, bodies, connections, duration });
    } finally {
      await srv.stop();
    }
  }

  const runs: Record<string, LoadResult[]> = { safe: [], safeFull: [], crash: [], bareFull: [], bareNormal: [], bareGroup: [] };
  try {
    for (let r = 0; r < rounds; r++) {
      runs.safe.push(await product("power-safe"));
      runs.safeFull.push(await product("power-safe", { BENCH_SYNC_FULL: "1" }));
      runs.bareFull.push(await bare({ IDEAREPO_DURABILITY: "power-safe" }));
      runs.crash.push(await product("crash-safe"));
      runs.bareNormal.push(await bare({ IDEAREPO_DURABILITY: "crash-safe" }));
      runs.bareGroup.push(await bare({ BARE_GROUP_COMMIT: "1" }));
      console.error(`round ${r + 1}/${rounds}: ${Object.entries(runs).map(([k, v]) => `${k} ${v[r].rps}/s p99 ${v[r].p99} ms`).join(", ")}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rps = (k: string) => median(runs[k].map((x) => x.rps));
  const p99 = (k: string) => median(runs[k].map((x) => x.p99));
  const ratio = (a: string, b: string) => median(runs[a].map((x, i) => x.rps / runs[b][i].rps));
  const label = `${connections} conns, median of ${rounds}`;
  const bareFull = { name: "bare Bun.serve + INSERT, FULL", value: rps("bareFull") };
  const bareNormal = { name: "bare Bun.serve + INSERT, NORMAL", value: rps("bareNormal") };
  const bareGroup = { name: "bare Bun.serve + INSERT, group commit", value: rps("bareGroup") };
  return [
    row("durability", `POST /ideas, power-safe (group commit), ${label}`, rps("safe"), "ideas/s", { baseline: bareGroup, ratio: rps("safe") / bareGroup.value }),
    row("durability", "POST /ideas p99, power-safe (group commit)", p99("safe"), "ms", { baseline: { name: "bare, group commit", value: p99("bareGroup") } }),
    row("durability", `POST /ideas, power-safe with an fsync per commit (FULL, before group commit), ${label}`, rps("safeFull"), "ideas/s", { baseline: bareFull, ratio: rps("safeFull") / bareFull.value }),
    row("durability", "POST /ideas p99, power-safe (FULL)", p99("safeFull"), "ms", { baseline: { name: "bare, FULL", value: p99("bareFull") } }),
    // Ratios within each round (the two ran back to back under the same load), then their median.
    row("durability", "group commit over FULL, product (median of the rounds' ratios)", ratio("safe", "safeFull"), "×", { baseline: { name: "bare group commit over bare FULL", value: ratio("bareGroup", "bareFull") } }),
    row("durability", `POST /ideas, crash-safe (NORMAL), ${label}`, rps("crash"), "ideas/s", { baseline: bareNormal, ratio: rps("crash") / bareNormal.value }),
    row("durability", "POST /ideas p99, crash-safe", p99("crash"), "ms", { baseline: { name: "bare, NORMAL", value: p99("bareNormal") } }),
    row("durability", "bare INSERT with group commit (NORMAL + one shared fdatasync per batch)", rps("bareGroup"), "ideas/s", { baseline: bareFull, ratio: rps("bareGroup") / bareFull.value }),
    row("durability", "bare INSERT p99 with group commit", p99("bareGroup"), "ms", { baseline: { name: "bare, FULL", value: p99("bareFull") } }),
  ];
}

if (import.meta.main) report(await durabilityBench());
