// The real idearepo server for load benchmarks: `bun scripts/bench/app-server.ts serve` with IDEAREPO_* env.
//
// Only difference from `idearepo serve`: the Pro daily quota is raised so a 10-second load run is not answered by
// 429s after 10,000 requests. The limiter still counts every request, so its cost stays in the figures.
import { DAILY_REQUEST_LIMIT } from "../../src/auth/plans";

DAILY_REQUEST_LIMIT.pro = Number.MAX_SAFE_INTEGER;
await import("../../src/main");
