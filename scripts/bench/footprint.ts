// The server's resident memory: idle, and right after a semantic search (model loaded), each split into anonymous and
// file-backed pages, beside a compiled hello-world Bun.serve measured the same way in the same rounds.
//
//   bun scripts/bench/footprint.ts [--rounds 3] [--json] [--binary PATH] [--compare PATH] [--searches 30]
//
// Each round starts the product binary twice on a fresh data dir (one account): each time it waits 3 s after the first
// healthy answer (idle), fetches the /ideas shell and the files it names as a browser would (gzip) and reads
// again 1 s later (idle after a page view: a real server has served its web app), captures 20 ideas, waits for the pipeline to embed them and 4 s more, then runs one semantic
// search and reads /proc at once. The first start keeps the default settings (the model stays loaded after the
// captures' work); the second releases the model 2 s after its last call, so the reading before the search is "idle
// after work" and the search loads the model again. The hello world is started, read after 3 s, asked once and read
// again, alternating with the product. Figures are medians over the rounds. `--compare PATH` measures another binary
// (e.g. the session's starting build) the same way in the same rounds, alternating with this one. After the memory
// reading of the default-settings start, each binary answers --searches more semantic searches (distinct queries, one
// at a time): their latency p50/p95 over all rounds, the server's CPU time per search (from /proc), and the first
// search of the released start (which loads the model), are printed too. Binaries are fsync'd after copying: an installed binary's pages are clean in the page
// cache, and dirty ones could not be dropped by the model worker's MADV_PAGEOUT (src/ml/page-out.ts).
import { closeSync, copyFileSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../build.ts";
import { flag, report, row, tempDir, waitForDrain, type Row } from "./lib";

const rounds = flag("rounds", 3);
const argOf = (name: string) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : null);
const binaryArg = argOf("binary");
const compareArg = argOf("compare");
const searches = flag("searches", 30);

interface Mem { rss: number; anon: number; file: number }

function memOf(pid: number): Mem {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (k: string) => Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN) / 1024);
  return { rss: mb("VmRSS"), anon: mb("RssAnon"), file: mb("RssFile") };
}

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

async function start(cmd: string[], cwd: string, env: Record<string, string>) {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn(cmd, { cwd, env: { ...env, IDEAREPO_PORT: String(port), PORT: String(port) }, stdout: "ignore", stderr: "ignore" });
  const t0 = performance.now();
  for (;;) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null) throw new Error(`${cmd[0]} exited with ${proc.exitCode}`);
    if (performance.now() - t0 > 60_000) throw new Error(`${cmd[0]} did not answer within 60 s`);
    await Bun.sleep(5);
  }
  return { proc, base, stop: async () => { proc.kill("SIGTERM"); await proc.exited; } };
}

const searchUrl = (base: string, q: string) => `${base}/api/v1/ideas/search?mode=semantic&q=${encodeURIComponent(q)}`;

interface RunResult { idle: Mem; pageView: Mem; afterWork: Mem; search: Mem; firstSearchMs: number; latencies: number[]; cpuMsPerSearch: number | null }

/** The process's CPU time so far (user + system, all threads), in ms: unlike latency, hardly moved by other load. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/**
 * One product server on a fresh data dir: idle after start, 20 captures embedded, then one semantic search (memory read
 * at once), then `more` semantic searches timed one by one.
 */
async function productRun(bin: string, home: string, extra: Record<string, string>, more = 0): Promise<RunResult> {
  mkdirSync(home, { recursive: true });
  const env = { HOME: home, TMPDIR: home, PATH: "/usr/bin:/bin", IDEAREPO_DATA_DIR: join(home, "data"), IDEAREPO_LOG_LEVEL: "warn", ...extra };
  const created = Bun.spawnSync([bin, "users", "create", "--email", "bench@example.com", "--plan", "pro"], { cwd: home, env });
  const key = JSON.parse(created.stdout.toString()).api_key as string;
  const headers = { "x-api-key": key, "content-type": "application/json" };
  const app = await start([bin, "serve"], home, env);
  try {
    await Bun.sleep(3000);
    const idle = memOf(app.proc.pid);
    // A person opens the web app: the shell of /ideas and the files it loads, as a browser asks them (gzip).
    const shell = await (await fetch(`${app.base}/ideas`, { headers: { "accept-encoding": "gzip" } })).text();
    for (const path of new Set([...shell.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]))) {
      await (await fetch(`${app.base}${path}`, { headers: { "accept-encoding": "gzip" } })).arrayBuffer();
    }
    await Bun.sleep(1000);
    const pageView = memOf(app.proc.pid);
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${app.base}/api/v1/ideas`, { method: "POST", headers, body: JSON.stringify({ title: `Idea ${i}: a rain barrel sensor for the garden, version ${i}` }) });
      if (res.status !== 201) throw new Error(`capture answered ${res.status}`);
    }
    await waitForDrain(join(home, "data"));
    await Bun.sleep(4000);
    const afterWork = memOf(app.proc.pid);
    const t0 = performance.now();
    const search = await fetch(searchUrl(app.base, "watering plants automatically"), { headers });
    const body = (await search.json()) as { search_type?: string };
    const firstSearchMs = performance.now() - t0;
    if (search.status !== 200 || body.search_type !== "semantic") throw new Error(`search answered ${search.status} ${JSON.stringify(body)}`);
    const afterSearch = memOf(app.proc.pid);
    const latencies: number[] = [];
    const cpu0 = cpuMs(app.proc.pid);
    for (let i = 0; i < more; i++) {
      const t = performance.now();
      const res = await fetch(searchUrl(app.base, `a sensor that waters plant number ${i} when the soil is dry`), { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`search answered ${res.status}`);
      latencies.push(performance.now() - t);
    }
    const cpuMsPerSearch = more > 0 ? (cpuMs(app.proc.pid) - cpu0) / more : null;
    return { idle, pageView, afterWork, search: afterSearch, firstSearchMs, latencies, cpuMsPerSearch };
  } finally {
    await app.stop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const medianMem = (ms: Mem[]): Mem => ({ rss: median(ms.map((m) => m.rss)), anon: median(ms.map((m) => m.anon)), file: median(ms.map((m) => m.file)) });
const split = (m: Mem) => `${m.anon} MB anonymous + ${m.file} MB file-backed`;

/** Copies a binary into the bench dir, executable and flushed to disk (see the header). */
function install(src: string, dest: string): string {
  copyFileSync(src, dest);
  Bun.spawnSync(["chmod", "+x", dest]);
  const fd = openSync(dest, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return dest;
}

interface Series { idle: Mem[]; pageView: Mem[]; keptSearch: Mem[]; afterWork: Mem[]; afterSearch: Mem[]; firstSearchMs: number[]; latencies: number[]; cpuMs: number[] }

async function measure(bin: string, home: string, s: Series): Promise<void> {
  // Default settings: the model stays loaded for model_idle_unload_seconds (300 s) after the captures' work.
  const kept = await productRun(bin, `${home}-kept`, {}, searches);
  s.idle.push(kept.idle);
  s.pageView.push(kept.pageView);
  s.keptSearch.push(kept.search);
  s.latencies.push(...kept.latencies);
  if (kept.cpuMsPerSearch !== null) s.cpuMs.push(kept.cpuMsPerSearch);
  // Released 2 s after its last call, so "idle after work" is reached within the run; the search loads it again.
  const released = await productRun(bin, `${home}-released`, { IDEAREPO_MODEL_IDLE_UNLOAD_SECONDS: "2" });
  s.afterWork.push(released.afterWork);
  s.afterSearch.push(released.search);
  s.firstSearchMs.push(released.firstSearchMs);
}

const emptySeries = (): Series => ({ idle: [], pageView: [], keptSearch: [], afterWork: [], afterSearch: [], firstSearchMs: [], latencies: [], cpuMs: [] });
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

function memoryRows(label: string, s: Series, hi: Mem, ha: Mem): Row[] {
  const [i, v, k, w, a] = [s.idle, s.pageView, s.keptSearch, s.afterWork, s.afterSearch].map(medianMem);
  const base = (m: Mem) => ({ name: `compiled hello-world Bun.serve (${split(m)})`, value: m.rss });
  return [
    row("footprint", `${label}idle RSS, 3 s after start (${split(i)})`, i.rss, "MB", { baseline: base(hi), ratio: hi.rss / i.rss, target: "≤ 100 MB", ok: i.rss <= 100 }),
    row("footprint", `${label}idle RSS after a page view (the /ideas shell and its files, gzip; ${split(v)})`, v.rss, "MB", { baseline: base(hi), ratio: hi.rss / v.rss, target: "≤ 100 MB", ok: v.rss <= 100 }),
    row("footprint", `${label}RSS right after a semantic search, model loaded since 20 captures (default settings; ${split(k)})`, k.rss, "MB", { baseline: base(ha), ratio: ha.rss / k.rss, target: "≤ 180 MB", ok: k.rss <= 180 }),
    row("footprint", `${label}idle RSS after 20 captures embedded, model released (${split(w)})`, w.rss, "MB", { baseline: base(hi), ratio: hi.rss / w.rss }),
    row("footprint", `${label}RSS right after a semantic search that loaded the model (${split(a)})`, a.rss, "MB", { baseline: base(ha), ratio: ha.rss / a.rss, target: "≤ 180 MB", ok: a.rss <= 180 }),
  ];
}

export async function footprintBench(): Promise<Row[]> {
  const dir = tempDir("idearepo-bench-footprint-");
  try {
    const bin = install(binaryArg ?? (await buildBinary({ outfile: join(dir, "build", "idearepo") })).outfile, join(dir, "idearepo"));
    const other = compareArg ? install(compareArg, join(dir, "idearepo-compare")) : null;
    const helloSrc = join(dir, "hello.ts");
    writeFileSync(helloSrc, `Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT), fetch: () => Response.json({ status: "ok" }) });\n`);
    const hello = join(dir, "hello");
    if (!(await Bun.build({ entrypoints: [helloSrc], compile: { outfile: hello }, target: "bun", minify: true })).success) throw new Error("hello-world build failed");

    const mine = emptySeries(), theirs = emptySeries();
    const helloIdle: Mem[] = [], helloAsked: Mem[] = [], loads: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // Alternating which binary goes first, so neither always meets the machine in the same state.
      const order: Array<[string, Series, string]> = [[bin, mine, "this"], ...(other ? [[other, theirs, "compare"] as [string, Series, string]] : [])];
      if (r % 2 === 1) order.reverse();
      for (const [b, series, name] of order) {
        loads.push(loadavg()[0]);
        await measure(b, join(dir, `${name}-${r}`), series);
      }

      const h = await start([hello], dir, { PATH: "/usr/bin:/bin" });
      await Bun.sleep(3000);
      helloIdle.push(memOf(h.proc.pid));
      await (await fetch(`${h.base}/api/v1/health`)).text();
      helloAsked.push(memOf(h.proc.pid));
      await h.stop();
    }

    const [hi, ha] = [helloIdle, helloAsked].map(medianMem);
    const rows = memoryRows(other ? "this build: " : "", mine, hi, ha);
    if (other) rows.push(...memoryRows("compared build: ", theirs, hi, ha));
    const latency = (label: string, xs: number[], p: number, vs: number[] | null) =>
      row("footprint", `${label} (${xs.length} searches, one at a time)`, Math.round(pct(xs, p) * 10) / 10, "ms", vs ? { baseline: { name: "compared build", value: Math.round(pct(vs, p) * 10) / 10 }, ratio: pct(vs, p) / pct(xs, p) } : {});
    const vs = other ? theirs.latencies : null;
    rows.push(latency("semantic search p50, model loaded", mine.latencies, 50, vs), latency("semantic search p95, model loaded", mine.latencies, 95, vs));
    if (mine.cpuMs.length) {
      const [m, t] = [median(mine.cpuMs), other ? median(theirs.cpuMs) : 0];
      rows.push(row("footprint", "server CPU time per semantic search, model loaded (median of the rounds)", Math.round(m * 10) / 10, "ms", other ? { baseline: { name: "compared build", value: Math.round(t * 10) / 10 }, ratio: t / m } : {}));
    }
    rows.push(row("footprint", "first semantic search after the model was released (loads it again), median", Math.round(median(mine.firstSearchMs)), "ms", other ? { baseline: { name: "compared build", value: Math.round(median(theirs.firstSearchMs)) }, ratio: median(theirs.firstSearchMs) / median(mine.firstSearchMs) } : {}));
    console.error(`load average (1 min) at each start: ${loads.map((l) => l.toFixed(1)).join(", ")}`);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) report(await footprintBench());
