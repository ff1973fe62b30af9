// Soak: a real server under mixed traffic at half its measured capacity, pipeline running; watches RSS and latency.
//
//   bun scripts/soak.ts [--seconds 600] [--rate N] [--seed-ideas N] [--json]
//
// 1. Starts `serve` on a fresh data dir (source CLI), creates Pro accounts, seeds ideas (--seed-ideas per account:
//    150 on runs of 5 minutes or more, 30 on short ones) and waits for the pipeline to embed them.
// 2. Measures the maximum sustained mixed throughput (unless --rate is given): 16 closed-loop clients for a while,
//    then the wait until the pipeline has caught up with what they sent; capacity = requests / (both times).
// 3. Sends the same mix open-loop at half that rate for --seconds: captures, edits, semantic and keyword searches,
//    lists, merges, exports and MCP tool calls. Every 10 s prints throughput, p50/p99 per route, the server's RSS,
//    the backlog and the most ideas seen being re-scored.
// 4. Checks: no error (every answer the expected status), RSS (median of the 10 s samples of the first minute after
//    warm-up against that of the last minute; thirds on short runs) grows ≤ 10%, the p99 of the last minute
//    (last third on runs under three minutes) is within 1.5× of the first minute's (first third). Exit 1 otherwise.
//    --max-rss-growth and --max-p99-ratio change those two limits (the 60 s pass in npm test loosens them, see there).
// --json prints the summary as one JSON line at the end (test/faults/soak.test.ts reads it).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const SECONDS = arg("seconds", 600);
const FIXED_RATE = arg("rate", 0);
const JSON_OUT = process.argv.includes("--json");
const MAX_RSS_GROWTH = arg("max-rss-growth", 0.1);
const MAX_P99_RATIO = arg("max-p99-ratio", 1.5);
const WINDOW_MS = 10_000;
const WARMUP_MS = Math.min(60_000, (SECONDS * 1000) / 4);
/**
 * Ideas each account starts with. A soak looks for what degrades with time (leaks, queues, work that compounds), so
 * it starts from data its own captures do not multiply: from 30 ideas per account, a 10-minute pass at ~40 req/s
 * grew the data 4–5× and every per-account or per-instance cost with it (export, KNN, keyword search), which is
 * scaling, measured by the benchmarks, not a soak finding. 150 per account (~7,000 ideas) keeps the growth under ~1.7×.
 */
const SEED_IDEAS = arg("seed-ideas", SECONDS >= 300 ? 150 : 30);
/** How long the capacity probe keeps its clients busy (then waits for the pipeline), 5–20 s by run length. */
const PROBE_MS = Math.min(20_000, Math.max(5_000, SECONDS * 50));
/** Pro accounts allow 10,000 requests a day each; load is spread so none reaches it. */
const PER_USER_BUDGET = 8_000;

const say = (s: string) => process.stderr.write(`${s}\n`);

// ---- the server ----
const dataDir = mkdtempSync(join(tmpdir(), "idearepo-soak-"));
const env = { ...process.env, IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0", IDEAREPO_HOST: "127.0.0.1", IDEAREPO_LOG_LEVEL: "warn" };
const cli = (args: string[]) => Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), ...args], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });

async function createUsers(n: number): Promise<string[]> {
  const keys: string[] = [];
  // One at a time: parallel CLI commands opening a new database race each other for it ("database is locked").
  for (let i = 0; i < n; i++) {
    const batch = [cli(["users", "create", "--email", `soak${i}@example.com`, "--plan", "pro"])];
    for (const p of batch) {
      const out = await new Response(p.stdout).text();
      if ((await p.exited) !== 0) throw new Error(`users create failed: ${await new Response(p.stderr).text()}`);
      keys.push(JSON.parse(out).api_key);
    }
  }
  return keys;
}

async function startServer(): Promise<{ proc: { pid: number; kill(signal?: NodeJS.Signals): void; exited: Promise<number> }; base: string }> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), "serve"], {
    cwd: ROOT, env: { ...env, IDEAREPO_LOG_LEVEL: "info" }, stdout: "ignore", stderr: "pipe",
  });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before starting:\n${buf}`);
    buf += new TextDecoder().decode(value);
    const m = /"msg":"idearepo started".*?"listen":"([^"]+)"/.exec(buf);
    if (m) {
      // Keep draining stderr (warnings and errors are counted), so the pipe never fills up.
      (async () => {
        for (;;) {
          const { value: v, done: d } = await reader.read();
          if (d) return;
          for (const line of new TextDecoder().decode(v).split("\n")) if (/"level":"error"/.test(line)) serverErrors.push(line);
        }
      })();
      return { proc, base: m[1] };
    }
  }
}
const serverErrors: string[] = [];
/** The server this soak started: stopped with it when the soak is stopped (a test's time limit, Ctrl-C). */
let serverProc: { kill(signal?: NodeJS.Signals): void } | null = null;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    serverProc?.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  });
}

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

// ---- the traffic ----
interface Account { key: string; ideas: number[]; used: number }
type Op = { route: string; weight: number; run(a: Account): Promise<void> };

let base = "";
let seq = 0;
const WORDS = ["solar", "garden", "bike", "coffee", "music", "chess", "travel", "tax", "kitchen", "robot", "river", "paper"];
const words = (n: number) => Array.from({ length: n }, () => WORDS[(seq++ * 7) % WORDS.length]).join(" ");

class Unexpected extends Error {}
async function call(a: Account, method: string, path: string, body: unknown, expect: number[], headers: Record<string, string> = {}) {
  a.used++;
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "x-api-key": a.key, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Unexpected(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
  return text;
}
const pick = (a: Account) => a.ideas[Math.floor(Math.random() * a.ideas.length)];

const OPS: Op[] = [
  { route: "POST /ideas", weight: 20, async run(a) {
    const t = await call(a, "POST", "/api/v1/ideas", { title: `Soak ${words(3)} ${seq}`, body: words(20), tags: [WORDS[seq % WORDS.length]] }, [201]);
    a.ideas.push(JSON.parse(t).id);
  } },
  { route: "PATCH /ideas/:id", weight: 15, async run(a) {
    await call(a, "PATCH", `/api/v1/ideas/${pick(a)}`, { body: words(25) }, [200, 404]);
  } },
  { route: "GET /ideas", weight: 20, async run(a) {
    await call(a, "GET", "/api/v1/ideas?limit=20", undefined, [200]);
  } },
  { route: "GET /ideas/:id", weight: 10, async run(a) {
    await call(a, "GET", `/api/v1/ideas/${pick(a)}`, undefined, [200, 404]);
  } },
  { route: "GET /ideas/search semantic", weight: 8, async run(a) {
    await call(a, "GET", `/api/v1/ideas/search?q=${encodeURIComponent(words(3))}`, undefined, [200]);
  } },
  { route: "GET /ideas/search keyword", weight: 10, async run(a) {
    await call(a, "GET", `/api/v1/ideas/search?mode=keyword&q=${encodeURIComponent(words(2))}`, undefined, [200]);
  } },
  { route: "POST /ideas/:id/merge", weight: 2, async run(a) {
    if (a.ideas.length < 40) return;
    const [keep, absorb] = [a.ideas.pop()!, a.ideas.pop()!];
    await call(a, "POST", `/api/v1/ideas/${keep}/merge`, { absorb_id: absorb }, [200]);
    a.ideas.push(keep);
  } },
  { route: "POST /user/export", weight: 1, async run(a) {
    await call(a, "POST", "/api/v1/user/export", undefined, [200]);
  } },
  { route: "POST /mcp tools/call", weight: 14, async run(a) {
    const tool = seq % 2 === 0
      ? { name: "search_ideas", arguments: { q: words(2) } }
      : { name: "list_ideas", arguments: { limit: 10 } };
    const t = await call(a, "POST", "/mcp", { jsonrpc: "2.0", id: seq++, method: "tools/call", params: tool }, [200], {
      accept: "application/json, text/event-stream",
    });
    if (/"isError":true/.test(t)) throw new Unexpected(`MCP ${tool.name} → ${t.slice(0, 200)}`);
  } },
];
const TOTAL_WEIGHT = OPS.reduce((s, o) => s + o.weight, 0);
function chooseOp(): Op {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const op of OPS) if ((r -= op.weight) < 0) return op;
  return OPS[0];
}

interface Sample { route: string; ms: number; at: number; error?: string }
const samples: Sample[] = [];
let accounts: Account[] = [];
let turn = 0;
const nextAccount = () => accounts[turn++ % accounts.length];

async function one(at: number): Promise<void> {
  const op = chooseOp();
  const t0 = performance.now();
  try {
    await op.run(nextAccount());
    samples.push({ route: op.route, ms: performance.now() - t0, at });
  } catch (e) {
    samples.push({ route: op.route, ms: performance.now() - t0, at, error: (e as Error).message });
  }
}

/** The pipeline's backlog as /health reports it (ideas not yet embedded). */
async function backlog(): Promise<number> {
  return (await pipelineHealth()).pending;
}

/** /health's pipeline block: ideas without a vector, and ideas whose pairs are being judged again (re-scoring). */
async function pipelineHealth(): Promise<{ pending: number; rescoring: number }> {
  const h = (await (await fetch(`${base}/api/v1/health`)).json()) as { embeddings: { pending: number; rescoring: number } };
  return h.embeddings;
}

/** Waits until the pipeline's backlog is empty, at most `ms`; returns whether it emptied. */
async function untilCaughtUp(ms: number): Promise<boolean> {
  const by = performance.now() + ms;
  while (performance.now() < by) {
    if ((await backlog()) === 0) return true;
    await Bun.sleep(250);
  }
  return false;
}

/**
 * Sustained capacity: `clients` requests always in flight for `ms`, then the wait until the pipeline has done the
 * background work those requests queued (an embedding and the per-idea passes for every capture and edit). Counting
 * only the first part measured what the HTTP side can take while the backlog grows: a rate half of that still grew
 * the backlog ~4 jobs/s for ten minutes (docs/reliability.md), which is not a load the server sustains.
 */
async function measureSustained(clients: number, ms: number): Promise<{ rps: number; burstRps: number; drainS: number }> {
  const start = samples.length;
  const t0 = performance.now();
  const end = t0 + ms;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < end) await one(performance.now());
  }));
  const done = samples.slice(start);
  samples.length = start;
  const errors = done.filter((s) => s.error);
  if (errors.length) throw new Error(`errors while measuring capacity: ${errors[0].error}`);
  const burstEnd = performance.now();
  if (!(await untilCaughtUp(300_000))) throw new Error("the pipeline did not catch up within 5 minutes of the capacity probe");
  const drainS = (performance.now() - burstEnd) / 1000;
  return { rps: done.length / ((performance.now() - t0) / 1000), burstRps: done.length / ((burstEnd - t0) / 1000), drainS };
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10;
};

async function main() {
  say(`soak: ${SECONDS} s, data dir ${dataDir}`);
  // Enough accounts that none reaches its daily quota, at the rates this machine allows (≤ ~1,000/s measured).
  const expected = (FIXED_RATE || 600) * SECONDS + 30_000;
  const keys = await createUsers(Math.max(4, Math.ceil(expected / PER_USER_BUDGET)));
  const server = await startServer();
  serverProc = server.proc;
  base = server.base;
  accounts = keys.map((key) => ({ key, ideas: [], used: 0 }));
  // Eight accounts at a time, each seeding its ideas in order.
  for (let i = 0; i < accounts.length; i += 8) {
    await Promise.all(accounts.slice(i, i + 8).map(async (a) => {
      for (let n = 0; n < SEED_IDEAS; n++) {
        const t = await call(a, "POST", "/api/v1/ideas", { title: `Seed ${words(3)} ${n}`, body: words(15) }, [201]);
        a.ideas.push(JSON.parse(t).id);
      }
    }));
  }
  say(`seeded ${SEED_IDEAS * accounts.length} ideas in ${accounts.length} accounts; waiting for the pipeline`);
  // Capacity is measured from a quiet pipeline: the seeding backlog would otherwise hold every semantic search.
  await untilCaughtUp(600_000);
  let maxRate = FIXED_RATE * 2;
  let probe: Awaited<ReturnType<typeof measureSustained>> | null = null;
  if (!FIXED_RATE) {
    probe = await measureSustained(16, PROBE_MS);
    maxRate = probe.rps;
    say(`capacity: ${probe.burstRps.toFixed(0)} req/s for ${PROBE_MS / 1000} s with 16 closed-loop clients, then ${probe.drainS.toFixed(1)} s ` +
      `until the pipeline caught up: ${maxRate.toFixed(0)} req/s sustained`);
  }
  const rate = maxRate / 2;
  say(`soaking at ${rate.toFixed(0)} req/s with the pipeline running`);

  const windows: Array<Record<string, unknown>> = [];
  const rss: number[] = [];
  const t0 = performance.now();
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let nextWindow = t0 + WINDOW_MS;
  let windowStart = samples.length;
  // Re-scoring passes (every idea of an account passed again once it grows by 25%; src/pipeline/rescore.ts) are not in
  // the backlog and last seconds: the most seen in each window, asked every second. The accounts here grow in step,
  // so their passes come together; one in the last stretch slows its searches (docs/performance.md).
  let rescoringMax = 0;
  const rescoringWatch = setInterval(() => {
    pipelineHealth().then((h) => (rescoringMax = Math.max(rescoringMax, h.rescoring)), () => {});
  }, 1000);
  while (performance.now() - t0 < SECONDS * 1000) {
    // Open loop: requests are due at a fixed rate whatever the latency (a slow server gets a queue, not a break).
    const due = Math.floor(((performance.now() - t0) / 1000) * rate);
    while (sent < due && inFlight.size < 512) {
      sent++;
      const p = one(performance.now() - t0).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    if (performance.now() >= nextWindow) {
      const w = samples.slice(windowStart);
      windowStart = samples.length;
      const mb = rssMb(server.proc.pid);
      // The pipeline's backlog: a queue that only grows means the mix asks more of the model than it can give.
      const pending = await backlog().catch(() => null);
      const rescoring = rescoringMax;
      rescoringMax = 0;
      rss.push(mb);
      const routes: Record<string, { n: number; p50: number; p99: number }> = {};
      for (const op of OPS) {
        const ms = w.filter((s) => s.route === op.route).map((s) => s.ms);
        if (ms.length) routes[op.route] = { n: ms.length, p50: pct(ms, 50), p99: pct(ms, 99) };
      }
      const row = { t_s: Math.round((nextWindow - t0) / 1000), rps: Math.round(w.length / (WINDOW_MS / 1000)), rss_mb: mb, pending, rescoring, p99_all: pct(w.map((s) => s.ms), 99), errors: w.filter((s) => s.error).length, routes };
      windows.push(row);
      say(`t=${row.t_s}s ${row.rps} req/s rss ${mb} MB backlog ${pending} re-scoring ${rescoring} p99 ${row.p99_all} ms errors ${row.errors} | ` +
        Object.entries(routes).map(([r, v]) => `${r} ${v.p50}/${v.p99}`).join(", "));
      nextWindow += WINDOW_MS;
    }
    await Bun.sleep(2);
  }
  clearInterval(rescoringWatch);
  await Promise.all(inFlight);

  const errors = samples.filter((s) => s.error);
  const span = Math.min(60_000, (SECONDS * 1000) / 3);
  const endMs = SECONDS * 1000;
  const firstP99 = pct(samples.filter((s) => s.at >= WARMUP_MS && s.at < WARMUP_MS + span).map((s) => s.ms), 99);
  const lastP99 = pct(samples.filter((s) => s.at >= endMs - span).map((s) => s.ms), 99);
  // RSS is compared as medians of the 10 s samples (one per window): a single sample lands anywhere on the GC sawtooth.
  const median = (xs: number[]) => pct(xs.length ? xs : [0], 50);
  const spanWindows = Math.max(1, Math.round(span / WINDOW_MS));
  const warmIdx = Math.min(rss.length - 1, Math.max(0, Math.ceil(WARMUP_MS / WINDOW_MS) - 1));
  const rssAfterWarmup = median(rss.slice(warmIdx, warmIdx + spanWindows));
  const rssEnd = median(rss.slice(-spanWindows));
  const summary = {
    seconds: SECONDS,
    capacity_rps: Math.round(maxRate),
    capacity_burst_rps: probe ? Math.round(probe.burstRps) : null,
    capacity_drain_s: probe ? Math.round(probe.drainS * 10) / 10 : null,
    target_rps: Math.round(rate),
    achieved_rps: Math.round(samples.length / SECONDS),
    requests: samples.length,
    errors: errors.length,
    first_error: errors[0]?.error ?? null,
    server_error_lines: serverErrors.length,
    rss_after_warmup_mb: rssAfterWarmup,
    rss_end_mb: rssEnd,
    rss_max_mb: Math.max(...rss),
    rss_growth: Math.round((rssEnd / rssAfterWarmup - 1) * 1000) / 1000,
    p99_first_ms: firstP99,
    p99_last_ms: lastP99,
    p99_ratio: firstP99 > 0 ? Math.round((lastP99 / firstP99) * 100) / 100 : null,
    windows,
  };
  const failures: string[] = [];
  if (errors.length > 0) failures.push(`${errors.length} requests failed, first: ${errors[0].error}`);
  if (serverErrors.length > 0) failures.push(`${serverErrors.length} error lines in the server log, first: ${serverErrors[0]}`);
  if (summary.rss_growth > MAX_RSS_GROWTH) failures.push(`RSS grew ${(summary.rss_growth * 100).toFixed(1)}% after warm-up (${rssAfterWarmup} → ${rssEnd} MB)`);
  if (summary.p99_ratio !== null && summary.p99_ratio > MAX_P99_RATIO) failures.push(`p99 of the last stretch ${lastP99} ms is ${summary.p99_ratio}× the first (${firstP99} ms)`);
  say(`\nsoak: ${summary.requests} requests at ${summary.achieved_rps}/s (capacity ${summary.capacity_rps}/s); errors ${summary.errors}; ` +
    `RSS ${rssAfterWarmup} → ${rssEnd} MB (${(summary.rss_growth * 100).toFixed(1)}%, max ${summary.rss_max_mb}); p99 ${firstP99} → ${lastP99} ms (${summary.p99_ratio}×)`);
  say(failures.length ? `FAILED:\n- ${failures.join("\n- ")}` : "PASSED");
  if (JSON_OUT) console.log(JSON.stringify({ ...summary, failures }));
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
  say(`soak failed: ${(e as Error).stack ?? e}`);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(2);
});
