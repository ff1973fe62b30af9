// A real PostgreSQL for the store tests: Debian's server started from its own binaries in a temp folder, on loopback.
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";

/** The newest server Debian installed (postgresql-15 on Debian 12), or null. */
function binDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], "bin") : null;
}

/**
 * Why PostgreSQL cannot run here, or null when it can. In CI a missing server is a failure (.ci/run installs it); on a
 * person's machine the tests skip and print this.
 */
export function postgresMissing(): string | null {
  if (binDir() === null) return "PostgreSQL's server is not installed (Debian: apt-get install postgresql)";
  if (process.getuid!() === 0 && spawnSync("id", ["-u", "postgres"]).status !== 0) return "running as root and there is no postgres user to run the server as";
  return null;
}

/** Skips the file's tests with a message on a person's machine; in CI (process.env.CI) a missing PostgreSQL fails. */
export function requirePostgres(): boolean {
  const missing = postgresMissing();
  if (missing === null) return true;
  if (process.env.CI) throw new Error(`PostgreSQL is required in CI: ${missing}`);
  console.warn(`skipping the PostgreSQL tests: ${missing}`);
  return false;
}

/** The server refuses to run as root: as root its programs run as the package's `postgres` user. */
function owner(): { uid: number; gid: number } {
  if (process.getuid!() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"]).stdout.toString().trim());
  return { uid: id("-u"), gid: id("-g") };
}

export interface Cluster {
  port: number;
  dir: string;
  /** The superuser's password: it is in every URL, so a test can look for it where a secret must not be. */
  password: string;
  /** A URL for `database` (the superuser's, with its password). */
  url(database: string): string;
  /** `pg_ctl stop`; "immediate" is a crash as far as the server knows (recovery at the next start). */
  stop(mode?: "fast" | "immediate"): void;
  start(): void;
  /** `pg_ctl start` without blocking this thread, so requests go on (and meet a server starting up) while it runs. */
  startInBackground(): Promise<void>;
  /** How long `initdb` plus the first start took, in ms (docs/performance.md notes it). */
  startedInMs: number;
}

let cluster: Cluster | null = null;

/**
 * The one cluster of this test process (files run in one process), made on first use and stopped when the process
 * exits. Durability is the product's setting, not the test cluster's: fsync is off here, which a `pg_ctl -m immediate`
 * stop does not undo (the OS keeps what the server wrote).
 */
export function testCluster(): Cluster {
  return (cluster ??= makeCluster());
}

/**
 * IDEAREPO_PG_CLUSTER_DIR (scripts/bench/stores.ts --keep): the cluster lives in that folder and outlives the process,
 * made there on first use, started again by the next process (stopped, never removed, when this one ends), so a
 * benchmark's seeded databases can be used again. Unset: a temp folder, removed at exit.
 */
function makeCluster(): Cluster {
  const bin = binDir()!;
  const began = performance.now();
  const kept = process.env.IDEAREPO_PG_CLUSTER_DIR || null;
  const dir = kept ?? mkdtempSync(join(tmpdir(), "idearepo-pg-"));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o700);
  const who = owner();
  chownSync(dir, who.uid, who.gid);
  const data = join(dir, "data");
  const run = (cmd: string, args: string[]): SpawnSyncReturns<Buffer> => {
    const r = spawnSync(join(bin, cmd), args, { uid: who.uid, gid: who.gid, cwd: dir, env: { ...process.env, LC_ALL: "C.UTF-8" } });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr?.toString() ?? ""}${r.stdout?.toString() ?? ""}`);
    return r;
  };
  // A kept cluster's password is kept beside it (the folder is its owner's alone).
  const passwordFile = join(dir, "password");
  const existing = kept && existsSync(join(data, "PG_VERSION")) && existsSync(passwordFile);
  const password = existing ? readFileSync(passwordFile, "utf8").trim() : `pw-${crypto.randomUUID()}`;
  if (!existing) {
    rmSync(data, { recursive: true, force: true });
    const pwfile = join(dir, "pwfile");
    writeFileSync(pwfile, `${password}\n`);
    chownSync(pwfile, who.uid, who.gid);
    run("initdb", ["-D", data, "-U", "postgres", "--pwfile", pwfile, "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    rmSync(pwfile);
    if (kept) writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  }
  const chosen = pickPortSync();
  const options = [
    `-p ${chosen}`, "-c listen_addresses=127.0.0.1", `-c unix_socket_directories=${dir}`,
    // IDEAREPO_PG_DURABLE=1 (scripts/bench/stores.ts): the server's own durable defaults (fsync, full page writes,
    // Debian's 128 MB of shared buffers), so a capture benchmark compares power-safe with power-safe.
    ...(process.env.IDEAREPO_PG_DURABLE === "1" ? ["-c shared_buffers=128MB"] : ["-c fsync=off", "-c full_page_writes=off", "-c shared_buffers=32MB"]),
    "-c max_connections=400",
  ].join(" ");
  const log = join(dir, "server.log");
  const start = () => {
    const r = spawnSync(join(bin, "pg_ctl"), ["-D", data, "-l", log, "-o", options, "-w", "-t", "30", "start"], { uid: who.uid, gid: who.gid, cwd: dir });
    if (r.status !== 0) throw new Error(`pg_ctl start failed: ${r.stdout?.toString()}\n${existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : ""}`);
  };
  const startInBackground = () => new Promise<void>((resolve, reject) => {
    const p = spawn(join(bin, "pg_ctl"), ["-D", data, "-l", log, "-o", options, "-w", "-t", "30", "start"], { uid: who.uid, gid: who.gid, cwd: dir, stdio: "ignore" });
    p.once("error", reject);
    p.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl start failed (${code}): ${existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : ""}`))));
  });
  const stop = (mode: "fast" | "immediate" = "fast") => {
    spawnSync(join(bin, "pg_ctl"), ["-D", data, "-m", mode, "-w", "-t", "30", "stop"], { uid: who.uid, gid: who.gid, cwd: dir });
  };
  // A kept cluster left running by a process that was killed is stopped first: it listens on that process's port.
  if (kept && existsSync(join(data, "postmaster.pid"))) stop("fast");
  start();
  const startedInMs = performance.now() - began;
  process.once("exit", () => {
    stop(kept ? "fast" : "immediate");
    if (!kept) rmSync(dir, { recursive: true, force: true });
  });
  // bun test does not always run exit handlers, and a test process can be killed: a watchdog of the cluster's own
  // (running as its owner) stops it and removes its folder (a kept one stays) once this process is gone.
  const watchdog = `while [ -d /proc/${process.pid} ]; do sleep 1; done; "${join(bin, "pg_ctl")}" -D "${data}" -m ${kept ? "fast" : "immediate"} stop >/dev/null 2>&1;${kept ? "" : ` rm -rf "${dir}"`}`;
  spawn("sh", ["-c", watchdog], { uid: who.uid, gid: who.gid, cwd: "/", detached: true, stdio: "ignore" }).unref();
  return {
    port: chosen, dir, password, startedInMs,
    url: (database) => `postgres://postgres:${password}@127.0.0.1:${chosen}/${database}`,
    stop, start, startInBackground,
  };
}

/** A free port, found synchronously (the cluster is made in a sync call): a child process asks the OS for one. */
function pickPortSync(): number {
  const r = spawnSync(process.execPath, ["-e", "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"]);
  const port = Number(r.stdout.toString().trim());
  if (!Number.isInteger(port) || port <= 0) throw new Error("could not find a free port for PostgreSQL");
  return port;
}

const templates = new Map<string, Promise<void>>();
let made = 0;

/** psql on the cluster's own socket as the superuser (trust there): synchronous, for callers that cannot await. */
function psql(sql: string, database = "postgres"): string {
  const c = testCluster();
  const r = spawnSync(join(binDir()!, "psql"), ["-h", c.dir, "-p", String(c.port), "-U", "postgres", "-d", database, "-qAtX", "-v", "ON_ERROR_STOP=1", "-c", sql], {
    env: { ...process.env, PGCONNECT_TIMEOUT: "10" },
  });
  if (r.status !== 0) throw new Error(`psql failed (${sql}): ${r.stderr?.toString() ?? ""}`);
  return r.stdout.toString();
}

let migratedTemplate = false;

/**
 * The template every migrated database is cloned from: made once per test process, migrated by a child process
 * (this call cannot await), so apps and spawned servers alike start from this build's schema.
 */
function ensureMigratedTemplate(): void {
  if (migratedTemplate) return;
  psql("DROP DATABASE IF EXISTS template_migrated"); // a kept cluster's, from an earlier build's migrations
  psql("CREATE DATABASE template_migrated");
  const code = `const { migratePg } = await import(${JSON.stringify(join(import.meta.dir, "../../src/db/pg/migrate.ts"))}); await migratePg(process.env.TEMPLATE_URL);`;
  const r = spawnSync(process.execPath, ["-e", code], { env: { ...process.env, TEMPLATE_URL: testCluster().url("template_migrated") } });
  if (r.status !== 0) throw new Error(`migrating the PostgreSQL template failed: ${r.stderr?.toString() ?? ""}`);
  migratedTemplate = true;
}

/**
 * A migrated database of its own, made synchronously (a test app is made in a sync call): cloned from the template
 * file by file (FILE_COPY: no WAL written for it, about 40 ms).
 */
export function migratedDatabaseSync(): { url: string; name: string; clonedInMs: number } {
  ensureMigratedTemplate();
  const name = `t${process.pid}_${++made}`;
  const began = performance.now();
  psql(`CREATE DATABASE ${name} TEMPLATE template_migrated STRATEGY FILE_COPY`);
  return { url: testCluster().url(name), name, clonedInMs: performance.now() - began };
}

/**
 * Drops a database a test made, closing any connection left on it. Asynchronous: a test may make its next app while
 * the last one closes, and a synchronous wait here would stall that app's connections in this process meanwhile.
 */
export async function dropDatabase(name: string): Promise<void> {
  const c = testCluster();
  const proc = Bun.spawn([join(binDir()!, "psql"), "-h", c.dir, "-p", String(c.port), "-U", "postgres", "-d", "postgres", "-qAtX", "-c", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`], {
    stdout: "ignore", stderr: "pipe",
  });
  if ((await proc.exited) !== 0) throw new Error(`dropping ${name} failed: ${await new Response(proc.stderr).text()}`);
}

/**
 * The store the suites run on: IDEAREPO_TEST_STORE=postgres puts every test app, and every server or CLI process a
 * test starts, on a fresh PostgreSQL database; unset (or "sqlite"), SQLite as always. Asking for PostgreSQL where it
 * cannot run is an error, never a silent fall back to SQLite.
 */
export function testStore(): "sqlite" | "postgres" {
  const wanted = process.env.IDEAREPO_TEST_STORE ?? "sqlite";
  if (wanted === "sqlite" || wanted === "") return "sqlite";
  if (wanted !== "postgres") throw new Error(`IDEAREPO_TEST_STORE must be sqlite or postgres, not ${wanted}`);
  const missing = postgresMissing();
  if (missing !== null) throw new Error(`IDEAREPO_TEST_STORE=postgres, but ${missing}`);
  return "postgres";
}

const byDataDir = new Map<string, string>();

/** The database of a data directory: made on first use, then the same one for every app and process given that folder. */
export function databaseForDataDir(dataDir: string): string {
  let url = byDataDir.get(dataDir);
  if (url === undefined) {
    url = migratedDatabaseSync().url;
    byDataDir.set(dataDir, url);
  }
  return url;
}

/**
 * The environment a server or CLI process started on `dataDir` needs to use the test store: IDEAREPO_DATABASE_URL of
 * that folder's database on PostgreSQL, nothing on SQLite. Spread it before a test's own env, so a test that sets
 * the variable itself keeps its value.
 */
export function storeEnv(dataDir: string | undefined): Record<string, string> {
  if (dataDir === undefined || testStore() !== "postgres") return {};
  return { IDEAREPO_DATABASE_URL: databaseForDataDir(dataDir) };
}

/**
 * A database of its own for one suite, cloned (CREATE DATABASE … TEMPLATE) from a template that `prepare` fills once
 * per process under the name `template` (the store's migrations, so a clone starts migrated); without one, an empty
 * database. Returns its URL and how long the clone took.
 */
export async function freshDatabase(template?: { name: string; prepare: (url: string) => Promise<void> }): Promise<{ url: string; name: string; clonedInMs: number }> {
  const c = testCluster();
  const admin = new SQL({ url: c.url("postgres"), max: 1 });
  try {
    const from = template ? `template_${template.name}` : "template1";
    if (template && !templates.has(from)) {
      templates.set(from, (async () => {
        await admin.unsafe(`CREATE DATABASE ${from}`);
        await template.prepare(c.url(from));
      })());
    }
    await templates.get(from);
    const name = `t${process.pid}_${++made}`;
    const began = performance.now();
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${from}`);
    return { url: c.url(name), name, clonedInMs: performance.now() - began };
  } finally {
    await admin.close();
  }
}

/** A fresh database with the PostgreSQL store's migrations applied (cloned from a template migrated once per process). */
export const migratedDatabase = async () => migratedDatabaseSync();
