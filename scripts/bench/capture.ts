// Capture throughput: POST /api/v1/ideas at 50 connections against the real server (pipeline running), beside a bare
// Bun.serve that parses the same body and INSERTs the row with the same schema (the raw floor).
//
//   bun scripts/bench/capture.ts [--duration 10] [--connections 50] [--json]
import { rmSync } from "node:fs";
import { join } from "node:path";
import { BUN, flag, load, memOf, report, ROOT, row, spawnServer, tempDir, type Row } from "./lib";

const duration = flag("duration", 10);
const connections = flag("connections", 50);

export async function captureBench(): Promise<Row[]> {
  const dir = tempDir("idearepo-bench-capture-");
  const dataDir = join(dir, "data");
  try {
    const created = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "users", "create", "--email", "bench@example.com", "--plan", "pro"], {
      env: { ...process.env, IDEAREPO_DATA_DIR: dataDir },
    });
    const key = JSON.parse(created.stdout.toString()).api_key as string;
    const body = JSON.stringify({
      title: "Capture benchmark idea",
      body: "A short paragraph of text, about as long as a quick note typed on a phone while walking to the station.",
      tags: ["bench", "capture"],
      source: "api",
    });
    const headers = { "content-type": "application/json", "x-api-key": key };

    const app = await spawnServer([BUN, join(ROOT, "scripts/bench/app-server.ts"), "serve"], { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0" }, join(dir, "server.log"));
    const product = await load({ url: `${app.base}/api/v1/ideas`, method: "POST", headers, body, connections, duration });
    const mem = memOf(app.proc.pid);
    await app.stop();
    if (product.non2xx || product.errors) throw new Error(`capture: ${product.non2xx} non-2xx, ${product.errors} errors`);

    const bare = await spawnServer([BUN, join(ROOT, "scripts/bench/bare-server.ts"), "capture", dir], {});
    const raw = await load({ url: `${bare.base}/ideas`, method: "POST", headers, body, connections, duration });
    await bare.stop();

    return [
      row("capture", `POST /ideas throughput, ${connections} conns`, product.rps, "ideas/s", {
        baseline: { name: "bare Bun.serve + INSERT", value: raw.rps },
        ratio: product.rps / raw.rps,
        target: "≥ 3,000 ideas/s",
        ok: product.rps >= 3000,
      }),
      row("capture", "POST /ideas p99 latency", product.p99, "ms", {
        baseline: { name: "bare Bun.serve + INSERT", value: raw.p99 },
        ratio: raw.p99 / Math.max(product.p99, 1),
      }),
      row("capture", "server peak RSS during capture", mem.hwmMb, "MB"),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) report(await captureBench());
