// The soak in CI: 60 s of mixed traffic at half the measured capacity (scripts/soak.ts); the 10-minute pass is on demand.
//
// 60 s on a shared 2-core machine is too short for the 10-minute pass's limits (RSS +10%, p99 1.5×): measured passes
// of the same code landed on both sides of them. Here they are 25% and 4×, which a leak (RSS climbing every window)
// or a slowdown that compounds (a backlog that never drains) still crosses; the tight limits belong to the long pass.
// 3× was crossed twice in CI by passes with nothing compounding (3.09× and 3.23×: backlog 0–2, RSS +2–3%, the last
// stretch's p99 set by a few semantic searches and MCP calls near 320 ms, which the first stretch happened to lack).
// Instrumented passes found nothing growing; the last stretch often holds the accounts' re-scoring passes (they grow
// in step), which the backlog does not count, so each window also reports them (docs/performance.md, "What slows
// the soak's last stretch"). The rest is the machine's CPU: the limit stays at 4×.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT } from "../cli";

const MAX_RSS_GROWTH = 0.25;
const MAX_P99_RATIO = 4;

/** The soak, stopped with its server if the test's time limit ends it (bun moves on without waiting for it). */
let soak: { kill(): void } | null = null;
afterAll(() => soak?.kill());

test("60 s soak: no error, RSS within 25% after warm-up, p99 of the last stretch within 4× of the first", async () => {
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts/soak.ts"), "--seconds", "60", "--json",
    "--max-rss-growth", String(MAX_RSS_GROWTH), "--max-p99-ratio", String(MAX_P99_RATIO)], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  soak = proc;
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const last = out.trim().split("\n").at(-1) ?? "";
  if (code !== 0) console.error(err);
  const summary = JSON.parse(last);
  expect(summary.failures).toEqual([]);
  expect(summary.errors).toBe(0);
  expect(summary.requests).toBeGreaterThan(0);
  expect(summary.achieved_rps).toBeGreaterThanOrEqual(Math.floor(summary.target_rps * 0.9));
  expect(summary.rss_growth).toBeLessThanOrEqual(MAX_RSS_GROWTH);
  expect(summary.p99_ratio).toBeLessThanOrEqual(MAX_P99_RATIO);
  // Every 10 s window reports throughput, RSS and per-route latency, the routes of the whole mix included.
  expect(summary.windows.length).toBeGreaterThanOrEqual(5);
  for (const w of summary.windows) expect(typeof w.rescoring).toBe("number");
  const routes = new Set(summary.windows.flatMap((w: any) => Object.keys(w.routes)));
  for (const r of ["POST /ideas", "PATCH /ideas/:id", "GET /ideas", "GET /ideas/search semantic", "POST /mcp tools/call"]) expect(routes.has(r)).toBe(true);
  expect(code).toBe(0);
}, 180_000);
