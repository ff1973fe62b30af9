// HTTP: GET /api/v1/ideas?limit=20 with an API key over 10,000 ideas, 50 connections, server in its own process,
// beside a bare Bun.serve answering the same bytes (the raw floor of the runtime and the loopback).
//
//   bun scripts/bench/http.ts [--ideas 10000] [--duration 10] [--connections 50] [--json]
//
// The ideas are captured through the API with the background pipeline paused: embedding 10,000 ideas first would take
// minutes (see drain.ts) and the list reads the same rows either way; paused, nothing competes with the requests,
// exactly as on a server whose queue is empty. Idle and loaded memory of the binary are measured by coldstart.ts.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, flag, ideaTexts, load, report, ROOT, row, seedIdeas, spawnServer, tempDir, type Row } from "./lib";

const ideas = flag("ideas", 10_000);
const duration = flag("duration", 10);
const connections = flag("connections", 50);

export async function httpBench(): Promise<Row[]> {
  const dir = tempDir("idearepo-bench-http-");
  const dataDir = join(dir, "data");
  try {
    const created = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "users", "create", "--email", "bench@example.com", "--plan", "pro"], {
      env: { ...process.env, IDEAREPO_DATA_DIR: dataDir },
    });
    const key = JSON.parse(created.stdout.toString()).api_key as string;
    const headers = { "x-api-key": key };
    const app = await spawnServer(
      [BUN, join(ROOT, "scripts/bench/app-server.ts"), "serve"],
      { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0", BENCH_PAUSE_PIPELINE: "1" },
      join(dir, "server.log"),
    );

    const seedS = await seedIdeas(app.base, key, ideaTexts(ideas));

    const url = `${app.base}/api/v1/ideas?limit=20`;
    const sample = await fetch(url, { headers });
    const bytes = await sample.arrayBuffer();
    if (sample.status !== 200) throw new Error(`list answered ${sample.status}`);
    const product = await load({ url, headers, connections, duration });
    await app.stop();
    if (product.non2xx || product.errors) throw new Error(`list: ${product.non2xx} non-2xx, ${product.errors} errors`);

    const bodyFile = join(dir, "body.json");
    writeFileSync(bodyFile, new Uint8Array(bytes));
    const bare = await spawnServer([BUN, join(ROOT, "scripts/bench/bare-server.ts"), "json", bodyFile], {});
    const raw = await load({ url: `${bare.base}/`, headers, connections, duration });
    await bare.stop();

    return [
      row("http", `GET /ideas?limit=20 (${(bytes.byteLength / 1024).toFixed(1)} KB) over ${ideas} ideas, ${connections} conns`, product.rps, "req/s", {
        baseline: { name: "bare Bun.serve, same bytes", value: raw.rps },
        ratio: product.rps / raw.rps,
        target: "≥ 30% of bare",
        ok: product.rps / raw.rps >= 0.3,
      }),
      row("http", "GET /ideas p99 latency", product.p99, "ms", {
        baseline: { name: "bare Bun.serve, same bytes", value: raw.p99 },
        ratio: raw.p99 / Math.max(product.p99, 1),
        target: "< 10 ms",
        ok: product.p99 < 10,
      }),
      row("http", "GET /ideas p50 latency", product.p50, "ms", { baseline: { name: "bare Bun.serve, same bytes", value: raw.p50 } }),
      row("http", `seed: ${ideas} captures at 20 conns (pipeline paused)`, ideas / seedS, "ideas/s"),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) report(await httpBench());
