// The soak in CI: 60 s of mixed traffic at half the measured capacity (scripts/soak.ts); the 10-minute pass is on demand.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT } from "../cli";

test("60 s soak: no error, RSS flat after warm-up, p99 of the last stretch within 1.5× of the first", async () => {
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts/soak.ts"), "--seconds", "60", "--json"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const last = out.trim().split("\n").at(-1) ?? "";
  if (code !== 0) console.error(err);
  const summary = JSON.parse(last);
  expect(summary.failures).toEqual([]);
  expect(summary.errors).toBe(0);
  expect(summary.requests).toBeGreaterThan(0);
  expect(summary.achieved_rps).toBeGreaterThanOrEqual(Math.floor(summary.target_rps * 0.9));
  expect(summary.rss_growth).toBeLessThanOrEqual(0.1);
  expect(summary.p99_ratio).toBeLessThanOrEqual(1.5);
  // Every 10 s window reports throughput, RSS and per-route latency, the routes of the whole mix included.
  expect(summary.windows.length).toBeGreaterThanOrEqual(5);
  const routes = new Set(summary.windows.flatMap((w: any) => Object.keys(w.routes)));
  for (const r of ["POST /ideas", "PATCH /ideas/:id", "GET /ideas", "GET /ideas/search semantic", "POST /mcp tools/call"]) expect(routes.has(r)).toBe(true);
  expect(code).toBe(0);
}, 180_000);
