// How fast the compiled binary starts (issue 40): `--help`, `health`, `capture` against a running server, and `serve`
// until /health answers, each beside its raw baseline in the same run, alternating one product run with one baseline
// run: a compiled hello world (console.log) for the commands, curl doing capture's POST, and a compiled Bun.serve
// hello world for the server. `serve` is timed twice: until /health answers, and until the first API request
// (`GET /ideas` with a key) does, which needs the whole app. Then what the binary is made of (scripts/build.ts
// analyzeBinary).
//
//   bun scripts/bench/cli-start.ts [--runs 7] [--json] [--binary PATH] [--before PATH] [--no-size]
//
// PATH: an already built dist/idearepo. --before: an older build, run in the same rounds (before, this, baseline).
//
// Wall time is spawn to exit (to the first 200 of /health for servers); CPU and max RSS are the child's own
// (GNU time, /usr/bin/time, 10 ms CPU resolution). Medians of --runs.
import { copyFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBinary, buildBinary } from "../build.ts";
import { flag, hasFlag, median, report, row, tempDir, type Row } from "./lib";

const runs = flag("runs", 7);
const arg = (name: string) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : null);
const given = arg("binary");
const before = arg("before");

class Done {}

interface Run { ms: number; cpuMs: number; rssMb: number }

/**
 * Wall time from spawn to exit here; CPU and max RSS from GNU time around the command (wait4's figures for that one
 * child: Subprocess.resourceUsage reports the largest RSS of any child this process ever had).
 */
async function timed(cmd: string[], env: Record<string, string>): Promise<Run & { code: number }> {
  const t0 = performance.now();
  const p = Bun.spawn(["/usr/bin/time", "-f", "TIME %U %S %M", ...cmd], { env, stdout: "ignore", stderr: "pipe", stdin: "ignore" });
  const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  const ms = performance.now() - t0;
  const m = err.match(/TIME ([\d.]+) ([\d.]+) (\d+)/);
  if (!m) throw new Error(`no figures from /usr/bin/time: ${err}`);
  return { code, ms, cpuMs: (Number(m[1]) + Number(m[2])) * 1000, rssMb: Number(m[3]) / 1024 };
}

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** Spawns a server and polls `path` (/api/v1/health unless said) every 2 ms until it answers 200. */
async function serveUntilHealthy(cmd: string[], env: Record<string, string>, path = "/api/v1/health", headers: Record<string, string> = {}) {
  const port = freePort();
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, { env: { ...env, IDEAREPO_PORT: String(port), PORT: String(port) }, stdout: "ignore", stderr: "ignore" });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}${path}`, { headers })).status === 200) break;
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null) throw new Error(`${cmd.join(" ")} exited with ${proc.exitCode}`);
    await Bun.sleep(2);
  }
  return { ms: performance.now() - t0, proc, base: `http://127.0.0.1:${port}` };
}

async function stop(p: ReturnType<typeof Bun.spawn>): Promise<void> {
  p.kill("SIGTERM");
  await p.exited;
}

async function compile(dir: string, name: string, source: string): Promise<string> {
  const src = join(dir, `${name}.ts`);
  writeFileSync(src, source);
  const out = join(dir, name);
  const r = await Bun.build({ entrypoints: [src], compile: { outfile: out }, target: "bun", minify: true });
  if (!r.success) throw new Error(`${name} build failed`);
  return out;
}

const dir = tempDir("idearepo-bench-cli-");
const rows: Row[] = [];
try {
  const home = join(dir, "home");
  Bun.spawnSync(["mkdir", "-p", home]);
  const bin = join(home, "idearepo");
  copyFileSync(given ?? (await buildBinary({ outfile: join(dir, "build", "idearepo") })).outfile, bin);
  Bun.spawnSync(["chmod", "+x", bin]);
  const old = before ? join(home, "idearepo-before") : null;
  if (old && before) {
    copyFileSync(before, old);
    Bun.spawnSync(["chmod", "+x", old]);
  }
  const hello = await compile(dir, "hello", 'console.log("hello");\n');
  const helloServe = await compile(dir, "hello-serve", 'Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT), fetch: () => Response.json({ status: "ok" }) });\n');
  const env = { HOME: home, TMPDIR: home, PATH: "/usr/bin:/bin", IDEAREPO_DATA_DIR: join(home, "data"), IDEAREPO_LOG_LEVEL: "warn" };
  const created = Bun.spawnSync([bin, "users", "create", "--email", "bench@example.com", "--plan", "pro"], { env });
  const key = JSON.parse(created.stdout.toString()).api_key as string;

  // The client commands, against a running server (health and capture need one).
  const server = await serveUntilHealthy([bin, "serve"], env);
  const port = new URL(server.base).port;
  const clientEnv = { ...env, IDEAREPO_PORT: port, IDEAREPO_SERVER: server.base, IDEAREPO_API_KEY: key };
  const body = (i: number) => JSON.stringify({ title: `curl capture ${i}`, source: "cli" });
  // Each round runs the older build (--before) if given, this one, then the raw baseline.
  // Each build serves a data dir of its own (a newer build's migrations would make the older one refuse it).
  const ownData = (path: string) => {
    const e = { ...env, IDEAREPO_DATA_DIR: join(home, `data-${path === bin ? "this" : "before"}`) };
    const made = Bun.spawnSync([path, "users", "create", "--email", "bench@example.com", "--plan", "pro"], { env: e });
    return { env: e, key: JSON.parse(made.stdout.toString()).api_key as string };
  };
  const builds = [...(old ? [{ label: "before: ", path: old, ...ownData(old) }] : []), { label: "", path: bin, ...ownData(bin) }];
  const pairs: Array<{ name: string; product: (b: string, i: number) => string[]; baseline: (i: number) => string[]; baselineName: string }> = [
    { name: "--help", product: (b) => [b, "--help"], baseline: () => [hello], baselineName: "compiled hello world" },
    { name: "health", product: (b) => [b, "health"], baseline: () => [hello], baselineName: "compiled hello world" },
    {
      name: "capture",
      product: (b, i) => [b, "capture", `cli capture ${i}`],
      baseline: (i) => ["curl", "-sf", "-o", "/dev/null", "-X", "POST", "-H", `authorization: Bearer ${key}`, "-H", "content-type: application/json", "--data", body(i), `${server.base}/api/v1/ideas`],
      baselineName: "curl, the same POST",
    },
  ];
  for (const pair of pairs) {
    const mine: Run[][] = builds.map(() => []);
    const base: Run[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const a = [];
      for (const b of builds) a.push(await timed(pair.product(b.path, i), clientEnv));
      const c = await timed(pair.baseline(i), clientEnv);
      if (a.some((x) => x.code !== 0) || c.code !== 0) throw new Error(`${pair.name}: exit ${a.map((x) => x.code).join("/")} / baseline ${c.code}`);
      if (i === 0) continue; // the first round warms the page cache
      a.forEach((x, k) => mine[k].push(x));
      base.push(c);
    }
    const m = (xs: Run[], k: keyof Run) => median(xs.map((x) => x[k]));
    builds.forEach((b, k) => {
      const xs = mine[k];
      rows.push(row("cli-start", `${b.label}${pair.name}: wall time`, m(xs, "ms"), "ms", { baseline: { name: pair.baselineName, value: m(base, "ms") }, target: "≤ 100 ms", ok: m(xs, "ms") <= 100 }));
      rows.push(row("cli-start", `${b.label}${pair.name}: CPU`, m(xs, "cpuMs"), "ms", { baseline: { name: pair.baselineName, value: m(base, "cpuMs") }, ...(pair.name === "health" ? { target: "< 20 ms", ok: m(xs, "cpuMs") < 20 } : {}) }));
      rows.push(row("cli-start", `${b.label}${pair.name}: max RSS`, m(xs, "rssMb"), "MB", { baseline: { name: pair.baselineName, value: m(base, "rssMb") }, target: "≤ 50 MB", ok: m(xs, "rssMb") <= 50 }));
    });
  }
  await stop(server.proc);

  // serve until /health answers, and (another start) until the first API request does, existing data dir,
  // alternating with a compiled Bun.serve.
  const serveMs: number[][] = builds.map(() => []);
  const requestMs: number[][] = builds.map(() => []);
  const helloMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const [k, b] of builds.entries()) {
      const a = await serveUntilHealthy([b.path, "serve"], b.env);
      serveMs[k].push(a.ms);
      await stop(a.proc);
      const r = await serveUntilHealthy([b.path, "serve"], b.env, "/api/v1/ideas?limit=1", { authorization: `Bearer ${b.key}` });
      requestMs[k].push(r.ms);
      await stop(r.proc);
    }
    const h = await serveUntilHealthy([helloServe], env);
    helloMs.push(h.ms);
    await stop(h.proc);
  }
  builds.forEach((b, k) => {
    rows.push(row("cli-start", `${b.label}serve until /health answers (existing data dir)`, median(serveMs[k]), "ms", { baseline: { name: "compiled Bun.serve", value: median(helloMs) }, target: "≤ 200 ms", ok: median(serveMs[k]) <= 200 }));
    rows.push(row("cli-start", `${b.label}serve until the first GET /ideas answers`, median(requestMs[k]), "ms", { baseline: { name: "compiled Bun.serve", value: median(helloMs) } }));
  });

  // What the binary is made of (--no-size: skip, for a quick rerun).
  if (hasFlag("no-size")) throw new Done();
  const size = statSync(bin).size;
  const parts = await analyzeBinary();
  const listed = parts.reduce((n, p) => n + p.bytes, 0);
  rows.push(row("cli-start", "binary size", size / 1024 / 1024, "MB", { baseline: { name: "compiled hello world", value: statSync(hello).size / 1024 / 1024 } }));
  for (const p of parts) rows.push(row("binary", p.part, p.bytes / 1024 / 1024, "MB"));
  rows.push(row("binary", "bytecode and the executable's own tables (the rest)", (size - listed) / 1024 / 1024, "MB"));
} catch (e) {
  if (!(e instanceof Done)) throw e;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
report(rows);
