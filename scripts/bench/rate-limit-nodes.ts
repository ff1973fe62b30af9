// What counting the daily quota in PostgreSQL costs (auth/rate-limiter.ts): GET /user/me with an API key on one app, the
// quota counted in the database per request, beside the same request with a session cookie (exempt: no count), both
// sequential (latency), then a burst over two apps on one database (the limit held exactly under contention).
//
//   bun scripts/bench/rate-limit-nodes.ts [--requests 2000]
process.env.IDEAREPO_PG_DURABLE = "1";
import { makePgApp } from "../../test/support/pg-app";
import { call, makeUser, type TestApp } from "../../test/helpers";
import { postgresMissing } from "../../test/support/postgres";
import { flag, percentile } from "./search-lib";

const missing = postgresMissing();
if (missing) throw new Error(`needs PostgreSQL: ${missing}`);
const n = Number(flag("--requests", "2000"));

async function timed(t: TestApp, headers: Record<string, string>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await call(t, "GET", "/user/me", { headers });
    out.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`status ${r.status}`);
  }
  return out;
}
const fmt = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(2)} ms, p99 ${percentile(xs, 99).toFixed(2)} ms`;

const a = await makePgApp();
const b = await makePgApp({ url: a.url });
try {
  const u = await makeUser(a, { plan: "pro", password: "bench password" });
  const token = (await call(a, "POST", "/auth/login", { body: { email: u.email, password: "bench password" } })).body.token;
  await timed(a, { "x-api-key": u.key }); // warm
  for (let round = 1; round <= 3; round++) {
    const cookie = await timed(a, { cookie: `svc_session=${token}` });
    const key = await timed(a, { "x-api-key": u.key });
    console.log(`round ${round}: cookie (not counted) ${fmt(cookie)}; API key (counted in PostgreSQL) ${fmt(key)}; difference at p50 ${(percentile(key, 50) - percentile(cookie, 50)).toFixed(2)} ms`);
  }
  const f = await makeUser(a);
  const t0 = performance.now();
  const burst = await Promise.all(Array.from({ length: 400 }, (_, i) => call(i % 2 ? a : b, "GET", "/user/me", { key: f.key }).then((r) => r.status)));
  console.log(`burst of 400 over two apps for one Free account: ${burst.filter((s) => s === 200).length} granted, ${burst.filter((s) => s === 429).length} refused, ${(performance.now() - t0).toFixed(0)} ms`);
} finally {
  await b.close();
  await a.close();
}
