// Capture throughput: POST /api/v1/ideas at 50 connections against the real server (pipeline running), beside a bare
// Bun.serve that parses the same bodies and INSERTs the row with the same schema (the raw floor). A second run with
// the background pipeline paused shows how much of the gap its concurrent work explains.
//
//   bun scripts/bench/capture.ts [--duration 10] [--connections 50] [--json]
//   bun scripts/bench/capture.ts --compare DIR [--rounds 3]   this checkout, another one (an older commit checked out
//                                                            beside it, sharing node_modules) and the bare server in
//                                                            turn each round, pipeline paused: the write path alone
import { rmSync } from "node:fs";
import { join } from "node:path";
import { resolve } from "node:path";
import { BUN, flag, ideaTexts, load, median, memOf, report, ROOT, row, spawnServer, tempDir, type Row } from "./lib";

const duration = flag("duration", 10);
const connections = flag("connections", 50);
const rounds = flag("rounds", 3);
const compareAt = process.argv.indexOf("--compare");
const compare = compareAt === -1 ? null : resolve(process.argv[compareAt + 1]);

export async function captureBench(): Promise<Row[]> {
  const dir = tempDir("idearepo-bench-capture-");
  // Distinct notes, as people capture them (identical ones would all be duplicates of each other for the pipeline).
  const bodies = ideaTexts(60_000).map((t) => JSON.stringify({ ...t, tags: ["bench", "capture"], source: "api" }));

  async function captureRun(name: string, env: Record<string, string>, root = ROOT) {
    const dataDir = join(dir, name);
    const created = Bun.spawnSync([BUN, join(root, "src/main.ts"), "users", "create", "--email", "bench@example.com", "--plan", "pro"], {
      env: { ...process.env, IDEAREPO_DATA_DIR: dataDir },
    });
    const key = JSON.parse(created.stdout.toString()).api_key as string;
    const app = await spawnServer([BUN, join(root, "scripts/bench/app-server.ts"), "serve"], { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0", ...env }, join(dir, `${name}.log`));
    const headers = { "content-type": "application/json", "x-api-key": key };
    const result = await load({ url: `${app.base}/api/v1/ideas`, method: "POST", headers, bodies, connections, duration });
    const mem = memOf(app.proc.pid);
    await app.stop();
    if (result.non2xx || result.errors) throw new Error(`capture (${name}): ${result.non2xx} non-2xx, ${result.errors} errors`);
    return { ...result, mem };
  }

  if (compare) {
    try {
      const mine: number[] = [], theirs: number[] = [], bareRps: number[] = [], mineP99: number[] = [], theirP99: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const bare = await spawnServer([BUN, join(ROOT, "scripts/bench/bare-server.ts"), "capture", join(dir, `bare-${r}`)], {});
        const raw = await load({ url: `${bare.base}/ideas`, method: "POST", headers: { "content-type": "application/json" }, bodies, connections, duration });
        await bare.stop();
        bareRps.push(raw.rps);
        // Which checkout goes first alternates, so a burst of load from elsewhere does not always hit the same one.
        const order = r % 2 === 0 ? (["mine", "theirs"] as const) : (["theirs", "mine"] as const);
        for (const who of order) {
          const res = await captureRun(`${who}-${r}`, { BENCH_PAUSE_PIPELINE: "1" }, who === "mine" ? ROOT : compare);
          (who === "mine" ? mine : theirs).push(res.rps);
          (who === "mine" ? mineP99 : theirP99).push(res.p99);
        }
      }
      const baseline = { name: "bare Bun.serve + INSERT", value: median(bareRps) };
      return [
        row("capture", `this checkout, pipeline paused, median of ${rounds} (${mine.map(Math.round).join(", ")})`, median(mine), "ideas/s", { baseline, ratio: median(mine) / median(bareRps) }),
        row("capture", `--compare checkout, pipeline paused, median of ${rounds} (${theirs.map(Math.round).join(", ")})`, median(theirs), "ideas/s", { baseline, ratio: median(theirs) / median(bareRps) }),
        row("capture", "p99, this checkout / --compare checkout", median(mineP99), "ms", { baseline: { name: "--compare checkout", value: median(theirP99) } }),
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  try {
    const product = await captureRun("product", {});
    const paused = await captureRun("paused", { BENCH_PAUSE_PIPELINE: "1" });
    const bare = await spawnServer([BUN, join(ROOT, "scripts/bench/bare-server.ts"), "capture", dir], {});
    const raw = await load({ url: `${bare.base}/ideas`, method: "POST", headers: { "content-type": "application/json" }, bodies, connections, duration });
    await bare.stop();
    const baseline = { name: "bare Bun.serve + INSERT", value: raw.rps };
    return [
      row("capture", `POST /ideas throughput, ${connections} conns`, product.rps, "ideas/s", {
        baseline,
        ratio: product.rps / raw.rps,
        target: "≥ 3,000 ideas/s",
        ok: product.rps >= 3000,
      }),
      row("capture", "POST /ideas p99 latency", product.p99, "ms", {
        baseline: { name: "bare Bun.serve + INSERT", value: raw.p99 },
        ratio: raw.p99 / Math.max(product.p99, 1),
      }),
      row("capture", "throughput, background pipeline paused", paused.rps, "ideas/s", { baseline, ratio: paused.rps / raw.rps }),
      row("capture", "p99, background pipeline paused", paused.p99, "ms"),
      row("capture", "server peak RSS during the capture run", product.mem.hwmMb, "MB"),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) report(await captureBench());
