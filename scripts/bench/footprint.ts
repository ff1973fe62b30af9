// The server's resident memory: idle, and right after a semantic search (model loaded), each split into anonymous and
// file-backed pages, beside a compiled hello-world Bun.serve measured the same way in the same rounds.
//
//   bun scripts/bench/footprint.ts [--rounds 3] [--json] [--binary PATH]
//
// Each round starts the product binary twice on a fresh data dir (one account): each time it waits 3 s after the first
// healthy answer (idle), captures 20 ideas, waits for the pipeline to embed them and 4 s more, then runs one semantic
// search and reads /proc at once. The first start keeps the default settings (the model stays loaded after the
// captures' work); the second releases the model 2 s after its last call, so the reading before the search is "idle
// after work" and the search loads the model again. The hello world is started, read after 3 s, asked once and read
// again, alternating with the product. Figures are medians over the rounds.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildBinary } from "../build.ts";
import { flag, report, row, tempDir, waitForDrain, type Row } from "./lib";

const rounds = flag("rounds", 3);
const binaryArg = process.argv.includes("--binary") ? process.argv[process.argv.indexOf("--binary") + 1] : null;

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

/** One product server on a fresh data dir: idle after start, 20 captures embedded, then one semantic search. */
async function productRun(bin: string, home: string, extra: Record<string, string>): Promise<{ idle: Mem; afterWork: Mem; search: Mem }> {
  mkdirSync(home, { recursive: true });
  const env = { HOME: home, TMPDIR: home, PATH: "/usr/bin:/bin", IDEAREPO_DATA_DIR: join(home, "data"), IDEAREPO_LOG_LEVEL: "warn", ...extra };
  const created = Bun.spawnSync([bin, "users", "create", "--email", "bench@example.com", "--plan", "pro"], { cwd: home, env });
  const key = JSON.parse(created.stdout.toString()).api_key as string;
  const headers = { "x-api-key": key, "content-type": "application/json" };
  const app = await start([bin, "serve"], home, env);
  try {
    await Bun.sleep(3000);
    const idle = memOf(app.proc.pid);
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${app.base}/api/v1/ideas`, { method: "POST", headers, body: JSON.stringify({ title: `Idea ${i}: a rain barrel sensor for the garden, version ${i}` }) });
      if (res.status !== 201) throw new Error(`capture answered ${res.status}`);
    }
    await waitForDrain(join(home, "data"));
    await Bun.sleep(4000);
    const afterWork = memOf(app.proc.pid);
    const search = await fetch(`${app.base}/api/v1/ideas/search?mode=semantic&q=${encodeURIComponent("watering plants automatically")}`, { headers });
    const body = (await search.json()) as { search_type?: string };
    if (search.status !== 200 || body.search_type !== "semantic") throw new Error(`search answered ${search.status} ${JSON.stringify(body)}`);
    return { idle, afterWork, search: memOf(app.proc.pid) };
  } finally {
    await app.stop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const medianMem = (ms: Mem[]): Mem => ({ rss: median(ms.map((m) => m.rss)), anon: median(ms.map((m) => m.anon)), file: median(ms.map((m) => m.file)) });
const split = (m: Mem) => `${m.anon} MB anonymous + ${m.file} MB file-backed`;

export async function footprintBench(): Promise<Row[]> {
  const dir = tempDir("idearepo-bench-footprint-");
  try {
    const bin = join(dir, "idearepo");
    copyFileSync(binaryArg ?? (await buildBinary({ outfile: join(dir, "build", "idearepo") })).outfile, bin);
    Bun.spawnSync(["chmod", "+x", bin]);
    const helloSrc = join(dir, "hello.ts");
    writeFileSync(helloSrc, `Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT), fetch: () => Response.json({ status: "ok" }) });\n`);
    const hello = join(dir, "hello");
    if (!(await Bun.build({ entrypoints: [helloSrc], compile: { outfile: hello }, target: "bun", minify: true })).success) throw new Error("hello-world build failed");

    const idle: Mem[] = [], keptSearch: Mem[] = [], afterWork: Mem[] = [], afterSearch: Mem[] = [], helloIdle: Mem[] = [], helloAsked: Mem[] = [];
    for (let r = 0; r < rounds; r++) {
      // Default settings: the model stays loaded for model_idle_unload_seconds (300 s) after the captures' work.
      const kept = await productRun(bin, join(dir, `kept-${r}`), {});
      idle.push(kept.idle);
      keptSearch.push(kept.search);
      // Released 2 s after its last call, so "idle after work" is reached within the run; the search loads it again.
      const released = await productRun(bin, join(dir, `released-${r}`), { IDEAREPO_MODEL_IDLE_UNLOAD_SECONDS: "2" });
      afterWork.push(released.afterWork);
      afterSearch.push(released.search);

      const h = await start([hello], dir, { PATH: "/usr/bin:/bin" });
      await Bun.sleep(3000);
      helloIdle.push(memOf(h.proc.pid));
      await (await fetch(`${h.base}/api/v1/health`)).text();
      helloAsked.push(memOf(h.proc.pid));
      await h.stop();
    }

    const [i, k, w, s, hi, ha] = [idle, keptSearch, afterWork, afterSearch, helloIdle, helloAsked].map(medianMem);
    const base = (m: Mem) => ({ name: `compiled hello-world Bun.serve (${split(m)})`, value: m.rss });
    return [
      row("footprint", `idle RSS, 3 s after start (${split(i)})`, i.rss, "MB", { baseline: base(hi), ratio: hi.rss / i.rss, target: "≤ 100 MB", ok: i.rss <= 100 }),
      row("footprint", `RSS right after a semantic search, model loaded since 20 captures (default settings; ${split(k)})`, k.rss, "MB", { baseline: base(ha), ratio: ha.rss / k.rss, target: "≤ 180 MB", ok: k.rss <= 180 }),
      row("footprint", `idle RSS after 20 captures embedded, model released (${split(w)})`, w.rss, "MB", { baseline: base(hi), ratio: hi.rss / w.rss }),
      row("footprint", `RSS right after a semantic search that loaded the model (${split(s)})`, s.rss, "MB", { baseline: base(ha), ratio: ha.rss / s.rss, target: "≤ 180 MB", ok: s.rss <= 180 }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) report(await footprintBench());
