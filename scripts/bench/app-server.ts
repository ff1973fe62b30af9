// The real idearepo server for load benchmarks: `bun scripts/bench/app-server.ts serve` with IDEAREPO_* env.
//
// Differences from `idearepo serve`, both for measuring only:
// - the Pro daily quota is raised so a 10-second run is not answered by 429s after 10,000 requests (the limiter still
//   counts every request, so its cost stays in the figures);
// - BENCH_PAUSE_PIPELINE=1 replaces the background pipeline with a no-op, to show what it costs a capture burst;
// - BENCH_SYNC_FULL=1 runs power-safe as before group commit (synchronous = FULL, an fsync per commit), so
//   scripts/bench/durability.ts can measure both in one run.
import { DAILY_REQUEST_LIMIT } from "../../src/auth/plans";
import { BACKGROUND_PROCESSES } from "../../src/background";
import { GROUP_COMMIT } from "../../src/db/open";

DAILY_REQUEST_LIMIT.pro = Number.MAX_SAFE_INTEGER;
if (process.env.BENCH_SYNC_FULL === "1") GROUP_COMMIT.enabled = false;
if (process.env.BENCH_PAUSE_PIPELINE === "1") {
  for (const [i, make] of BACKGROUND_PROCESSES.entries()) {
    BACKGROUND_PROCESSES[i] = (deps) => {
      const service = make(deps);
      return service.name === "pipeline" ? { name: "pipeline (paused)", start() {}, stop() {} } : service;
    };
  }
}
await import("../../src/main");
