// Real server processes for operations tests: spawn `serve` (source or binary) on port 0, read the start-up line.
import { afterAll } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { dataDirStore, ROOT, tempDir } from "../cli";
import { storeEnv } from "../support/postgres";

export interface ServerProcess {
  proc: ReturnType<typeof Bun.spawn>;
  base: string;
  pid: number;
  /** Every stderr line so far (JSON log lines). */
  logs: string[];
  /** The parsed start-up log line. */
  started: Record<string, unknown>;
  /** Resolves with the exit code. */
  exited: Promise<number>;
  /** SIGTERM and wait; returns the exit code. */
  stop(): Promise<number>;
  kill9(): Promise<void>;
}

export interface SpawnOptions {
  dataDir: string;
  /** Command prefix; the source CLI by default, e.g. [binaryPath] for the compiled executable. */
  cmd?: string[];
  /** What follows cmd; ["serve"] by default ([] for a cmd that serves on its own, like `npm start`). */
  args?: string[];
  /** Its own process group, as a terminal gives a command (so a test can send the group a Ctrl-C). */
  detached?: boolean;
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export const sourceCmd = () => [process.execPath, join(ROOT, "src/main.ts")];

export async function startServer(opts: SpawnOptions): Promise<ServerProcess> {
  const proc = Bun.spawn([...(opts.cmd ?? sourceCmd()), ...(opts.args ?? ["serve"])], {
    cwd: opts.cwd ?? ROOT,
    detached: opts.detached,
    env: { ...process.env, ...storeEnv(opts.dataDir), IDEAREPO_DATA_DIR: opts.dataDir, IDEAREPO_PORT: "0", IDEAREPO_HOST: "127.0.0.1", IDEAREPO_LOG_LEVEL: "info", ...opts.env },
    stdout: "ignore",
    stderr: "pipe",
  });
  const logs: string[] = [];
  const listeners: Array<(line: string) => void> = [];
  (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        logs.push(line);
        for (const l of listeners) l(line);
      }
    }
    if (buf) logs.push(buf);
  })();
  const started = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join("\n")}`)), opts.timeoutMs ?? 20_000);
    const check = (line: string) => {
      try {
        const parsed = JSON.parse(line);
        if (parsed.msg === "idearepo started") {
          clearTimeout(timer);
          resolve(parsed);
        }
      } catch {
        // not a JSON line (e.g. a crash message); kept in logs
      }
    };
    for (const l of logs) check(l);
    listeners.push(check);
    proc.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before starting:\n${logs.join("\n")}`));
    });
  });
  const base = String(started.listen);
  return {
    proc,
    base,
    pid: proc.pid,
    logs,
    started,
    exited: proc.exited,
    async stop() {
      proc.kill("SIGTERM");
      return proc.exited;
    },
    async kill9() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
  };
}

/** Runs a CLI command (source or binary) to completion. */
export function runCommand(args: string[], opts: { dataDir: string; cmd?: string[]; cwd?: string; stdin?: string; env?: Record<string, string> }) {
  const out = Bun.spawnSync([...(opts.cmd ?? sourceCmd()), ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...storeEnv(opts.dataDir), IDEAREPO_DATA_DIR: opts.dataDir, ...opts.env },
    stdin: opts.stdin !== undefined ? Buffer.from(opts.stdin) : undefined,
  });
  return { code: out.exitCode, stdout: out.stdout.toString(), stderr: out.stderr.toString() };
}

/** Creates a user through the CLI; returns its API key. */
export function createUser(dataDir: string, email: string, plan: "free" | "pro" = "pro", cmd?: string[], cwd?: string): string {
  const out = runCommand(["users", "create", "--email", email, "--plan", plan], { dataDir, cmd, cwd });
  if (out.code !== 0) throw new Error(`users create failed: ${out.stderr}`);
  return JSON.parse(out.stdout).api_key;
}

export async function api(base: string, key: string | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (key) headers["x-api-key"] = key;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${base}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: json, text };
}

/** Every unarchived idea of the caller, page by page, as the API returns them. */
export async function listAllIdeas(base: string, key: string): Promise<any[]> {
  const all: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await api(base, key, "GET", `/ideas?limit=100&offset=${offset}`);
    if (page.status !== 200) throw new Error(`GET /ideas: ${page.status} ${page.text}`);
    all.push(...page.body.ideas);
    if (page.body.ideas.length < 100) return all;
  }
}

export interface Acked { id: number; title: string }

/** `streams` concurrent clients capture ideas back to back until `stop()`; returns every 201 they received. */
export function burst(base: string, key: string, streams: number, tags: string[] = ["burst"]) {
  const acked: Acked[] = [];
  let running = true;
  let failures = 0;
  let lastRefusal = "";
  let n = 0;
  const workers = Array.from({ length: streams }, async (_, w) => {
    while (running) {
      const title = `burst ${w}-${n++}`;
      try {
        const res = await api(base, key, "POST", "/ideas", { title, body: `body of ${title}`, tags });
        if (res.status === 201) acked.push({ id: res.body.id, title });
        else {
          lastRefusal = `${res.status} ${res.text}`;
          if (res.status >= 500) failures++;
        }
      } catch {
        // The connection died with the server: that request was never acknowledged.
        if (running) await Bun.sleep(5);
      }
    }
  });
  return {
    acked,
    failures: () => failures,
    /** Waits until `n` captures were acknowledged; fails fast with the server's answer if they are refused. */
    async waitForAcks(n: number) {
      const deadline = Date.now() + 20_000;
      while (acked.length < n) {
        if (Date.now() > deadline) throw new Error(`only ${acked.length} captures acknowledged; last refusal: ${lastRefusal}`);
        await Bun.sleep(5);
      }
    },
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

/**
 * Waits until background processing has nothing left to do: the jobs table is empty, or (with no pipeline
 * consuming it) unchanged and unlocked for a while. Read-only peek at the database file; asserts nothing.
 * Given the server's `base`, it also waits until GET /health says no idea waits for its vector, its re-scoring or its
 * account's subjects fit: those passes run outside the jobs table, so an empty table alone can come before them.
 * Both must stay quiet for a second: the pipeline completes a batch's last job and only then queues the account's
 * re-scoring pass (src/pipeline/runner.ts, queueRescores), and on PostgreSQL that gap was long enough to be read as
 * settled after an import, with its connections still to come (test/web/review-scale.test.ts).
 */
export async function waitForQuiescence(dataDir: string, timeoutMs = 60_000, base?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietSince: number | null = null;
  for (;;) {
    const hadJobs = await jobsQuiet(dataDir, Math.max(1, deadline - Date.now()));
    if (!base) return;
    if (hadJobs) quietSince = null;
    const e = (await api(base, null, "GET", "/health")).body?.embeddings ?? {};
    const busy = `pending ${e.pending}, rescoring ${e.rescoring ?? 0}, subjects_fitting ${e.subjects_fitting ?? 0}`;
    if (e.pending === 0 && !e.rescoring && !e.subjects_fitting) {
      quietSince ??= Date.now();
      if (Date.now() - quietSince >= 1000) return;
    } else quietSince = null;
    if (Date.now() > deadline) throw new Error(`the pipeline did not settle within ${timeoutMs} ms (${busy})`);
    await Bun.sleep(quietSince === null ? 100 : 250);
  }
}

/** Whether the jobs table had rows at all (false: it was empty at once). */
async function jobsQuiet(dataDir: string, timeoutMs: number): Promise<boolean> {
  const db = dataDirStore(dataDir, { readonly: true });
  try {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    let stableSince = Date.now();
    let seen = false;
    while (Date.now() < deadline) {
      const wall = new Date().toISOString().slice(0, 19).replace("T", " ");
      const row = (await db
        .query<{ n: number; locked: number; due: number }, [string]>(
          "SELECT count(*) AS n, count(locked_at) AS locked, count(CASE WHEN locked_at IS NULL AND run_after <= ?1 THEN 1 END) AS due FROM jobs",
        )
        .get(wall))!;
      if (row.n === 0) return seen;
      seen = true;
      const now = `${row.n}/${row.locked}`;
      if (now !== last) {
        last = now;
        stableSince = Date.now();
      } else if (row.locked === 0 && Date.now() - stableSince > (row.due > 0 ? 6000 : 1500)) return seen;
      // Jobs waiting for a later run_after (a retry's backoff) settle after 1.5 s unchanged; jobs already due are only
      // given up on after 6 s, since on a loaded machine the worker can take seconds to claim the next one.
      await Bun.sleep(100);
    }
    // What was left, by kind and holder: whether a live node's batch was waiting (on the subjects worker, a lock) or
    // a gone node's claims were never handed back.
    const left = await db
      .query<{ kind: string; locked_by: string | null; lease_until: string | null; n: number }, []>(
        "SELECT kind, locked_by, max(lease_until) AS lease_until, count(*) AS n FROM jobs GROUP BY kind, locked_by ORDER BY kind, locked_by",
      )
      .all();
    const by = left.map((r) => `${r.n} ${r.kind} held by ${r.locked_by ?? "nobody"}${r.lease_until ? ` until ${r.lease_until}` : ""}`).join("; ");
    throw new Error(`background jobs did not settle within ${timeoutMs} ms (${last}: ${by})`);
  } finally {
    await db.close();
  }
}

/**
 * Temp data dirs and server processes owned by one test file: everything it made is killed and removed after the
 * file's tests, whatever state they left behind.
 */
export function processScope(prefix: string) {
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  afterAll(() => {
    for (const s of servers) s.proc.kill("SIGKILL");
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  // Plain closures, not methods using `this`: callers destructure them (`const { newDir, serve } = processScope(…)`).
  async function serveWith(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
    const s = await startServer({ dataDir, env });
    servers.push(s);
    return s;
  }
  return {
    newDir(): string {
      const d = tempDir(prefix);
      dirs.push(d);
      return d;
    },
    serve: (dataDir: string) => serveWith(dataDir),
    serveWith,
  };
}
