// Runs the operator CLI as a real process against a data dir, as an operator would.
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { pgStore } from "../src/db/pg/store";
import { sqliteStore } from "../src/db/sqlite-store";
import type { Store } from "../src/db/store";
import { databaseForDataDir, storeEnv, testStore } from "./support/postgres";

export const ROOT = join(import.meta.dir, "..");

export function tempDir(prefix = "idearepo-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * The store that server and CLI processes on `dataDir` keep their data in: the folder's SQLite file, or with
 * IDEAREPO_TEST_STORE=postgres the folder's PostgreSQL database. For a test to check what a process wrote, or to set
 * up what the API cannot (backdating); close it afterwards.
 */
export function dataDirStore(dataDir: string, opts: { readonly?: boolean } = {}): Store {
  if (testStore() === "postgres") return pgStore(databaseForDataDir(dataDir), { max: 2 });
  const db = new Database(join(dataDir, "idearepo.db"), { readonly: opts.readonly ?? false });
  // A second connection beside a running server's: it waits for the server's write lock rather than failing at once.
  db.exec("PRAGMA busy_timeout = 5000");
  return sqliteStore(db);
}

export function runCli(args: string[], opts: { dataDir: string; stdin?: string; env?: Record<string, string> }) {
  const proc = Bun.spawnSync([process.execPath, join(ROOT, "src/main.ts"), ...args], {
    env: { ...process.env, ...storeEnv(opts.dataDir), IDEAREPO_DATA_DIR: opts.dataDir, ...opts.env },
    stdin: opts.stdin !== undefined ? Buffer.from(opts.stdin) : undefined,
    cwd: ROOT,
  });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

/** runCli without blocking this process: for commands that talk to a server running in it (a local model hub). */
export async function runCliAsync(args: string[], opts: { dataDir?: string; env?: Record<string, string> } = {}) {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...storeEnv(opts.dataDir), ...(opts.dataDir ? { IDEAREPO_DATA_DIR: opts.dataDir } : {}), ...opts.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** The run, or an error carrying its exit code and stderr (so a failed step says why). */
export function ok(r: ReturnType<typeof runCli>) {
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
  return r;
}

/** A data dir and a folder for files, both removed in afterAll; `cli(...args)` runs the CLI on that data dir. */
export function cliSandbox(prefix: string) {
  const dataDir = tempDir(`${prefix}-`);
  const work = tempDir(`${prefix}-files-`);
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });
  return { dataDir, work, cli: (...args: string[]) => runCli(args, { dataDir }) };
}
