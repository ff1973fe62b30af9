// HTTP: GET /api/v1/ideas?limit=20 with an API key over 10,000 ideas, 50 connections, server in its own process,
// beside a bare Bun.serve answering the same bytes (the raw floor of the runtime and the loopback).
//
//   bun scripts/bench/http.ts [--ideas 10000] [--duration 10] [--connections 50] [--rounds 3] [--data DIR]
//                             [--compare DIR | --metrics] [--json]
//
// The ideas are captured through the API with the background pipeline paused: embedding 10,000 ideas first would take
// minutes (see drain.ts) and the list reads the same rows either way; paused, nothing competes with the requests,
// exactly as on a server whose queue is empty. Idle and loaded memory of the binary are measured by coldstart.ts.
//
// Both servers run side by side and the load alternates between them (bare, product, bare, product, …), so a burst of
// load from elsewhere on a shared machine hits both sides instead of one; the figures are medians over the rounds,
// with their spread. `--data DIR` keeps the seeded data dir there and reuses it on later runs (seeding 10,000 ideas
// takes longer than a whole round of load). `--compare DIR` also serves a copy of the same data from another checkout
// (an older commit unpacked beside this one, sharing node_modules) and loads it in the same rounds, for before/after
// figures measured under the same conditions. `--metrics` instead serves the copy from this checkout with
// IDEAREPO_METRICS_ENABLED=true, so the cost of counting every request shows beside the default (metrics off). Each server's CPU time per request is read from /proc: on a shared
// machine it moves far less than req/s does.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BUN, flag, ideaTexts, measured, median, report, ROOT, row, seedIdeas, spawnServer, tempDir, type LoadResult, type Row } from "./lib";

const ideas = flag("ideas", 10_000);
const duration = flag("duration", 10);
const connections = flag("connections", 50);
const rounds = flag("rounds", 3);
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? null : resolve(process.argv[i + 1]);
};
const dataArg = arg("data");
const compare = arg("compare");
const metricsOn = process.argv.includes("--metrics");
const otherName = compare ? "--compare checkout" : "metrics on (this checkout)";

const spread = (xs: number[], digits = 0) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

export async function httpBench(): Promise<Row[]> {
  const dir = tempDir("idearepo-bench-http-");
  const dataDir = dataArg ?? join(dir, "data");
  const keyFile = join(dataDir, "bench-key.txt");
  let seedS: number | null = null;
  try {
    const reuse = dataArg !== null && existsSync(keyFile);
    const key = reuse
      ? readFileSync(keyFile, "utf8").trim()
      : (JSON.parse(
          Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "users", "create", "--email", "bench@example.com", "--plan", "pro"], {
            env: { ...process.env, IDEAREPO_DATA_DIR: dataDir },
          }).stdout.toString(),
        ).api_key as string);
    const headers = { "x-api-key": key };
    const serve = (root: string, data: string, log: string, env: Record<string, string> = {}) =>
      spawnServer(
        [BUN, join(root, "scripts/bench/app-server.ts"), "serve"],
        { IDEAREPO_DATA_DIR: data, IDEAREPO_PORT: "0", BENCH_PAUSE_PIPELINE: "1", ...env },
        join(dir, log),
      );
    if (!reuse) {
      const seeder = await serve(ROOT, dataDir, "seed.log");
      try {
        seedS = await seedIdeas(seeder.base, key, ideaTexts(ideas));
      } finally {
        await seeder.stop();
      }
      if (dataArg !== null) writeFileSync(keyFile, key);
    }
    // The other checkout gets its own copy: a data dir is served by one process at a time.
    const compareData = join(dir, "compare-data");
    if (compare || metricsOn) cpSync(dataDir, compareData, { recursive: true });
    type Child = Awaited<ReturnType<typeof spawnServer>>;
    const started: Child[] = [];
    try {
      const app = await serve(ROOT, dataDir, "server.log");
      started.push(app);
      const other = compare
        ? await serve(compare, compareData, "compare.log")
        : metricsOn ? await serve(ROOT, compareData, "metrics.log", { IDEAREPO_METRICS_ENABLED: "true" }) : null;
      if (other) started.push(other);

      const url = (c: Child) => `${c.base}/api/v1/ideas?limit=20`;
      const sample = await fetch(url(app), { headers });
      const bytes = await sample.arrayBuffer();
      if (sample.status !== 200) throw new Error(`list answered ${sample.status}`);
      if (other) {
        const theirs = new Uint8Array(await (await fetch(url(other), { headers })).arrayBuffer());
        const same = theirs.length === bytes.byteLength && theirs.every((b, i) => b === new Uint8Array(bytes)[i]);
        console.error(same ? "compare: both checkouts answer the same bytes" : "compare: THE CHECKOUTS ANSWER DIFFERENT BYTES");
      }
      const bodyFile = join(dir, "body.json");
      writeFileSync(bodyFile, new Uint8Array(bytes));
      const bare = await spawnServer([BUN, join(ROOT, "scripts/bench/bare-server.ts"), "json", bodyFile], {});
      started.push(bare);

      type Run = LoadResult & { cpuUs: number };
      const products: Run[] = [];
      const raws: Run[] = [];
      const others: Run[] = [];
      const line = (name: string, r: Run) => `${name} ${r.rps} req/s p50 ${r.p50} p99 ${r.p99} ms ${r.cpuUs.toFixed(0)} µs CPU/req`;
      for (let r = 0; r < rounds; r++) {
        raws.push(await measured(bare.proc.pid, { url: `${bare.base}/`, headers, connections, duration }));
        const p = await measured(app.proc.pid, { url: url(app), headers, connections, duration });
        if (p.non2xx || p.errors) throw new Error(`list: ${p.non2xx} non-2xx, ${p.errors} errors`);
        products.push(p);
        if (other) others.push(await measured(other.proc.pid, { url: url(other), headers, connections, duration }));
        if (!process.argv.includes("--json")) {
          console.error(
            `round ${r + 1}: ${line("bare", raws[r])} · ${line("product", p)} (${((p.rps / raws[r].rps) * 100).toFixed(1)}%)` +
              (other ? ` · ${line(compare ? "compare" : "metrics-on", others[r])} (${((others[r].rps / raws[r].rps) * 100).toFixed(1)}%)` : ""),
          );
        }
      }
      const ratios = products.map((p, i) => p.rps / raws[i].rps);
      const ratio = median(ratios);
      const p99 = median(products.map((p) => p.p99));
      const rawP99 = median(raws.map((p) => p.p99));
      const bareName = (xs: number[]) => `bare Bun.serve, same bytes (${spread(xs)})`;
      const rows = [
        row("http", `GET /ideas?limit=20 (${(bytes.byteLength / 1024).toFixed(1)} KB) over ${ideas} ideas, ${connections} conns, median of ${rounds} alternating rounds (product ${spread(products.map((p) => p.rps))})`, median(products.map((p) => p.rps)), "req/s", {
          baseline: { name: bareName(raws.map((p) => p.rps)), value: median(raws.map((p) => p.rps)) },
          ratio,
          target: `≥ 30% of bare (per-round ratios ${spread(ratios.map((x) => x * 100), 1)}%)`,
          ok: ratio >= 0.3,
        }),
        row("http", `GET /ideas p99 latency (${spread(products.map((p) => p.p99))})`, p99, "ms", {
          baseline: { name: bareName(raws.map((p) => p.p99)), value: rawP99 },
          ratio: rawP99 / Math.max(p99, 1),
          target: "< 10 ms",
          ok: p99 < 10,
        }),
        row("http", "GET /ideas p50 latency", median(products.map((p) => p.p50)), "ms", {
          baseline: { name: "bare Bun.serve, same bytes", value: median(raws.map((p) => p.p50)) },
        }),
        row("http", `server CPU per request (${spread(products.map((p) => p.cpuUs))})`, median(products.map((p) => p.cpuUs)), "µs", {
          baseline: { name: bareName(raws.map((p) => p.cpuUs)), value: median(raws.map((p) => p.cpuUs)) },
        }),
      ];
      if (other && metricsOn) {
        // Proof the metrics-on server counted the load: its request counter for the list route.
        const scraped = await (await fetch(`${other.base}/metrics`)).text();
        const counted = /idearepo_http_requests_total\{method="GET",route="\/api\/v1\/ideas",status="200"\} (\d+)/.exec(scraped)?.[1];
        console.error(`metrics-on server counted ${counted ?? "NOTHING"} list requests`);
        if (!counted) throw new Error("the metrics-on server did not count the list requests");
      }
      if (other) {
        const theirRatios = others.map((p, i) => p.rps / raws[i].rps);
        rows.push(
          row("http", `${otherName}: GET /ideas (${spread(others.map((p) => p.rps))}), p99 ${median(others.map((p) => p.p99))} ms`, median(others.map((p) => p.rps)), "req/s", {
            baseline: { name: "bare Bun.serve, same bytes", value: median(raws.map((p) => p.rps)) },
            ratio: median(theirRatios),
          }),
          row("http", `${otherName}: server CPU per request (${spread(others.map((p) => p.cpuUs))})`, median(others.map((p) => p.cpuUs)), "µs", {
            baseline: { name: "this checkout", value: median(products.map((p) => p.cpuUs)) },
          }),
        );
      }
      if (seedS !== null) rows.push(row("http", `seed: ${ideas} captures at 20 conns (pipeline paused)`, ideas / seedS, "ideas/s"));
      return rows;
    } finally {
      for (const c of started.reverse()) await c.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) report(await httpBench());
