// The single executable: size, cold start to the first healthy response, idle and loaded RSS, each beside a compiled
// hello-world Bun.serve (the floor any Bun binary pays), measured in the same run.
//
//   bun scripts/bench/coldstart.ts [--runs 5] [--json]
//
// Each start is a fresh process on a data dir that already exists (the state after installation: one account,
// sqlite-vec already written out). "Cold start" runs from spawn until GET /api/v1/health answers 200, which in
// idearepo happens after migrations ran and the embedding model is loaded.
import { copyFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { buildBinary } from "../build.ts";
import { flag, ideaTexts, memOf, report, row, seedIdeas, tempDir, waitForDrain, type Row } from "./lib";

const runs = flag("runs", 5);

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Start { ms: number; proc: ReturnType<typeof Bun.spawn>; base: string }

/** Spawns `cmd` and polls the health URL every 2 ms until it answers 200. */
async function start(cmd: string[], cwd: string, env: Record<string, string>, healthPath: string): Promise<Start> {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, { cwd, env: { ...env, IDEAREPO_PORT: String(port), PORT: String(port) }, stdout: "ignore", stderr: "ignore" });
  for (;;) {
    try {
      const res = await fetch(base + healthPath);
      if (res.status === 200) return { ms: performance.now() - t0, proc, base };
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null) throw new Error(`${cmd[0]} exited with ${proc.exitCode}`);
    await Bun.sleep(2);
  }
}

async function stop(p: ReturnType<typeof Bun.spawn>): Promise<void> {
  p.kill("SIGTERM");
  await p.exited;
}

export async function coldstartBench(): Promise<Row[]> {
  const dir = tempDir("idearepo-bench-cold-");
  try {
    // The product binary, alone in its directory.
    const built = await buildBinary({ outfile: join(dir, "build", "idearepo") });
    const home = join(dir, "home");
    const bin = join(home, "idearepo");
    Bun.spawnSync(["mkdir", "-p", home]);
    copyFileSync(built.outfile, bin);
    Bun.spawnSync(["chmod", "+x", bin]);
    const env = { HOME: home, TMPDIR: home, PATH: "/usr/bin:/bin", IDEAREPO_DATA_DIR: join(home, "data"), IDEAREPO_LOG_LEVEL: "warn" };
    const created = Bun.spawnSync([bin, "users", "create", "--email", "bench@example.com", "--plan", "pro"], { cwd: home, env });
    const key = JSON.parse(created.stdout.toString()).api_key as string;

    // The floor: a compiled Bun.serve answering the same health path.
    const helloSrc = join(dir, "hello.ts");
    writeFileSync(helloSrc, `Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT), fetch: () => Response.json({ status: "ok" }) });\n`);
    const hello = join(dir, "hello");
    const helloBuild = await Bun.build({ entrypoints: [helloSrc], compile: { outfile: hello }, target: "bun", minify: true });
    if (!helloBuild.success) throw new Error("hello-world build failed");

    const appTimes: number[] = [];
    const helloTimes: number[] = [];
    let appIdle = 0;
    let helloIdle = 0;
    for (let i = 0; i < runs; i++) {
      const a = await start([bin, "serve"], home, env, "/api/v1/health");
      appTimes.push(a.ms);
      if (i === runs - 1) {
        await Bun.sleep(3000);
        appIdle = memOf(a.proc.pid).rssMb;
      }
      await stop(a.proc);
      const h = await start([hello], dir, { PATH: "/usr/bin:/bin" }, "/api/v1/health");
      helloTimes.push(h.ms);
      if (i === runs - 1) {
        await Bun.sleep(3000);
        helloIdle = memOf(h.proc.pid).rssMb;
      }
      await stop(h.proc);
    }

    // Loaded: 2,000 captures (embedded by the pipeline), then 5 s of list requests.
    const a = await start([bin, "serve"], home, env, "/api/v1/health");
    const headers = { "x-api-key": key };
    await seedIdeas(a.base, key, ideaTexts(2000));
    await waitForDrain(join(home, "data"));
    await autocannon({ url: `${a.base}/api/v1/ideas?limit=20`, headers, connections: 50, duration: 5 });
    const loaded = memOf(a.proc.pid);
    await stop(a.proc);

    const appMs = median(appTimes);
    const helloMs = median(helloTimes);
    const size = statSync(bin).size / 1024 / 1024;
    const helloSize = statSync(hello).size / 1024 / 1024;
    return [
      row("binary", "size", size, "MB", { baseline: { name: "compiled hello-world", value: helloSize }, ratio: helloSize / size }),
      row("binary", `cold start to healthy (median of ${runs})`, appMs, "ms", {
        baseline: { name: "compiled hello-world", value: helloMs },
        ratio: helloMs / appMs,
        target: "< 500 ms",
        ok: appMs < 500,
      }),
      row("binary", "cold start, slowest run", Math.max(...appTimes), "ms"),
      row("binary", "idle RSS (3 s after start; the model is released while idle)", appIdle, "MB", {
        baseline: { name: "compiled hello-world", value: helloIdle },
        ratio: helloIdle / appIdle,
        target: "< 150 MB",
        ok: appIdle < 150,
      }),
      row("binary", "RSS after 2,000 captures + 5 s of list load", loaded.rssMb, "MB"),
      row("binary", "peak RSS during that load", loaded.hwmMb, "MB"),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) report(await coldstartBench());
