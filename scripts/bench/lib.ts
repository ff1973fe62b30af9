// Shared by the benchmarks: server processes, load runs (with CPU per request), before/after rounds, result rows.
import autocannon from "autocannon";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stsbDir } from "./stsb-data";

export const ROOT = resolve(import.meta.dir, "../..");
export const BUN = process.execPath;

/** One figure beside its raw baseline, measured in the same run. */
export interface Row {
  bench: string;
  metric: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /** value / baseline (or the inverse for "lower is better" figures, so > 1 always means "closer to raw"). */
  ratio?: number;
  target?: string;
  ok?: boolean;
}

export function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

export const hasFlag = (name: string) => process.argv.includes(`--${name}`);

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function machine(): string {
  const mem = /MemTotal:\s+(\d+)/.exec(readFileSync("/proc/meminfo", "utf8"));
  const cpu = /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"));
  return `${navigator.hardwareConcurrency} cores (${cpu?.[1]?.trim() ?? "unknown CPU"}), ${mem ? Math.round(Number(mem[1]) / 1024 / 1024) : "?"} GB RAM, Bun ${Bun.version}`;
}

/** Resident set size and its peak of a process, in MB (Linux /proc). */
export function memOf(pid: number): { rssMb: number; hwmMb: number } {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
  return { rssMb: Math.round(kb("VmRSS") / 1024), hwmMb: Math.round(kb("VmHWM") / 1024) };
}

export interface Child {
  proc: ReturnType<typeof Bun.spawn>;
  base: string;
  stop(): Promise<void>;
}

/**
 * Spawns a server process and waits for it to report its address: idearepo's start-up log line on stderr
 * (`"listen":"http://…"`) or a bare server's `listening http://…` on stdout.
 */
export async function spawnServer(cmd: string[], env: Record<string, string>, logFile?: string): Promise<Child> {
  // The server's output goes straight to files, as a log shipper would take it: piped into this process, every
  // request's log line would be read and written by the same event loop that generates the load, slowing the load
  // generator for the product (which logs each request) and not for the bare server (which logs nothing).
  const errFile = logFile ?? join(tempDir("idearepo-bench-log-"), "server.log");
  const outFile = `${errFile}.out`;
  const proc = Bun.spawn(cmd, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: Bun.file(outFile),
    stderr: Bun.file(errFile),
  });
  let exited: number | null = null;
  proc.exited.then((code) => (exited = code));
  const read = (f: string) => (existsSync(f) ? readFileSync(f, "utf8") : "");
  const t0 = performance.now();
  let base: string | null = null;
  while (base === null) {
    const text = `${read(errFile)}\n${read(outFile)}`;
    const m = /"listen":"(http[^"]+)"|^listening (http\S+)/m.exec(text);
    if (m) base = m[1] ?? m[2];
    else if (exited !== null) throw new Error(`server exited with ${exited}:\n${text}`);
    else if (performance.now() - t0 > 120_000) {
      proc.kill("SIGKILL"); // never left running behind a benchmark that gave up on it
      throw new Error(`server did not start:\n${text}`);
    }
    else await Bun.sleep(50);
  }
  return {
    proc,
    base,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** One JSON request to the API with an API key (none for public routes); throws on a status of 300 or more. */
export async function apiJson(base: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { ...(key ? { "x-api-key": key } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(120_000),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export async function load(opts: {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Request bodies sent in turn (captures of distinct ideas); overrides `body`. */
  bodies?: string[];
  connections?: number;
  duration?: number;
  amount?: number;
}): Promise<LoadResult> {
  let next = 0;
  const bodies = opts.bodies;
  const run = (duration: number, amount?: number) =>
    autocannon({
      url: opts.url,
      method: opts.method ?? "GET",
      headers: opts.headers,
      body: opts.body,
      connections: opts.connections ?? 50,
      duration,
      amount,
      ...(bodies
        ? { requests: [{ method: opts.method ?? "POST", headers: opts.headers, setupRequest: (req: Record<string, unknown>) => ({ ...req, body: bodies[next++ % bodies.length] }) }] }
        : {}),
    });
  await run(1); // warm-up: JIT, caches, connection set-up
  const r = await run(opts.duration ?? 10, opts.amount);
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux): robust to a busy machine, unlike req/s. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** A load run plus the server's CPU time per answered request (µs). */
export async function measured(pid: number, opts: Parameters<typeof load>[0]): Promise<LoadResult & { cpuUs: number }> {
  const before = cpuSeconds(pid);
  const r = await load(opts);
  // load() includes a 1 s warm-up whose requests are not counted: subtract its share by counting only the main run.
  return { ...r, cpuUs: ((cpuSeconds(pid) - before) * 1e6) / (r.requests + r.rps) };
}

/** Waits until the pipeline has processed every queued job (read-only peek at the jobs table). */
export async function waitForDrain(dataDir: string, timeoutMs = 600_000): Promise<number> {
  const t0 = performance.now();
  const db = new Database(join(dataDir, "idearepo.db"), { readonly: true });
  try {
    while (performance.now() - t0 < timeoutMs) {
      if (db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs").get()!.n === 0) return performance.now() - t0;
      await Bun.sleep(200);
    }
    throw new Error("background jobs did not drain");
  } finally {
    db.close();
  }
}

/**
 * A revision's tree unpacked in `dir` (created), with this checkout's node_modules: the baseline of a before/after
 * benchmark (git archive: nothing in the worktree changes).
 */
export function revisionTree(rev: string, dir: string): string {
  mkdirSync(dir);
  const archive = Bun.spawnSync(["git", "archive", rev], { cwd: ROOT });
  if (archive.exitCode !== 0) throw new Error(`git archive ${rev}: ${archive.stderr}`);
  Bun.spawnSync(["tar", "-x", "-C", dir], { stdin: archive.stdout });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

export type Side = "product" | "baseline";

/**
 * `rounds` rounds of one run of each side: the product (this tree) and the baseline tree, alternating, the order
 * swapped each round (baseline first in the first), so a neighbour's burst of load does not fall on one side only.
 * The results in the order they ran.
 */
export async function alternating<R>(rounds: number, baseTree: string, run: (side: Side, tree: string) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let r = 0; r < rounds; r++) {
    const order: Array<[Side, string]> = r % 2 === 0 ? [["baseline", baseTree], ["product", ROOT]] : [["product", ROOT], ["baseline", baseTree]];
    for (const [side, tree] of order) out.push(await run(side, tree));
  }
  return out;
}

/** The middle value of `xs` (the mean of the two middle ones for an even count). */
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The p-quantile of `xs` by nearest rank (NaN when empty). */
export function quantile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? NaN;
}

/** A latency in ms as the tables print it: whole above 100, one decimal below. */
export const fmtMs = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

export function row(bench: string, metric: string, value: number, unit: string, extra: Partial<Row> = {}): Row {
  return { bench, metric, value, unit, ...extra };
}

export function printRows(rows: Row[]): void {
  const fmt = (v: number) => (Math.abs(v) >= 100 ? Math.round(v).toLocaleString("en-US") : String(Math.round(v * 100) / 100));
  console.log("| bench | metric | value | raw baseline | ratio | target | |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const base = r.baseline ? `${fmt(r.baseline.value)} ${r.unit} (${r.baseline.name})` : "";
    const ratio = r.ratio === undefined ? "" : `${(r.ratio * 100).toFixed(0)}%`;
    const ok = r.ok === undefined ? "" : r.ok ? "ok" : "MISSED";
    console.log(`| ${r.bench} | ${r.metric} | ${fmt(r.value)} ${r.unit} | ${base} | ${ratio} | ${r.target ?? ""} | ${ok} |`);
  }
}

/** `--json`: one JSON line for run.ts; otherwise a Markdown table for a human. */
export function report(rows: Row[]): void {
  if (hasFlag("json")) process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
  else printRows(rows);
}

/**
 * `n` distinct idea texts from real sentences (STS-B, the data the model benchmarks use): a title and a two-sentence
 * body from different pairs, so ideas read like notes and are neither identical nor near-duplicates of each other
 * (synthetic "idea 1, idea 2 …" text makes every idea a duplicate of every other and the pipeline's work explode).
 * Falls back to seeded word salad when the data set is not on this machine.
 */
export function ideaTexts(n: number): Array<{ title: string; body: string }> {
  const dir = stsbDir();
  let sentences: string[] = [];
  for (const f of ["sts-dev.csv", "sts-test.csv"]) {
    if (!dir || !existsSync(join(dir, f))) continue;
    for (const line of readFileSync(join(dir, f), "utf8").split("\n")) {
      const cols = line.split("\t");
      if (cols.length >= 7) sentences.push(cols[5].trim(), cols[6].trim());
    }
  }
  sentences = [...new Set(sentences.filter((s) => s.length > 10 && s.length <= 200))];
  let seed = 42;
  const rand = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
  if (sentences.length < 100) {
    const words = "garden solar bike lamp budget recipe travel music school robot paint river cloud market coffee book phone window tax sleep running chess camera kitchen forest letter planet bread code ocean".split(" ");
    sentences = Array.from({ length: 5000 }, () => Array.from({ length: 8 }, () => words[rand(words.length)]).join(" "));
  }
  return Array.from({ length: n }, (_, i) => ({
    title: sentences[i % sentences.length].slice(0, 200),
    body: `${sentences[rand(sentences.length)]} ${sentences[rand(sentences.length)]}`,
  }));
}

/** Captures `texts` through POST /ideas at `connections` concurrent clients; returns the wall time in seconds. */
export async function seedIdeas(base: string, key: string, texts: Array<{ title: string; body: string }>, connections = 20): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  const result = await autocannon({
    url: `${base}/api/v1/ideas`,
    connections,
    amount: texts.length,
    requests: [
      {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify({ ...texts[next++ % texts.length], tags: ["seed"] }) }),
      },
    ],
  });
  if (result.non2xx || result.errors) throw new Error(`seeding: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return (performance.now() - t0) / 1000;
}
