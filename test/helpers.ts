// Test fixtures: an in-memory app with the real migrations, users created through the real service, request helpers.
import { dirname } from "node:path";
import { loadConfig, type Config } from "../src/config";
import { openDb, type Db } from "../src/db/open";
import { sqliteStore } from "../src/db/sqlite-store";
import { pgStore } from "../src/db/pg/store";
import type { Store } from "../src/db/store";
import { noEngines, type Deps } from "../src/deps";
import { createApp } from "../src/app";
import { createLogger } from "../src/lib/log";
import { createUsersService } from "../src/modules/users/service";
import { databaseForDataDir, dropDatabase, migratedDatabaseSync, testStore } from "./support/postgres";

export interface TestApp {
  deps: Deps;
  /** The Elysia app itself, for tests that need a real listener (WebSockets: `app.listen`). */
  app: ReturnType<typeof createApp>["app"];
  handle: (req: Request) => Promise<Response>;
  /** Flushes the counters, then closes the database: await it when the database is read afterwards. */
  close: () => Promise<void>;
  /** Moves the injectable clock; every rule that reads time in the app sees it. */
  clock: { now: Date; set(d: Date | string): void; advance(ms: number): void };
}

export type TestClock = TestApp["clock"];

/** A clock that stands still until a test moves it (share one between apps to simulate a restart). */
export function makeClock(now: Date | string | number = Date.now()): TestClock {
  return {
    now: new Date(now),
    set(d: Date | string) {
      this.now = new Date(d);
    },
    advance(ms: number) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
}

export interface MakeAppOptions {
  config?: Partial<Config>;
  now?: string;
  clock?: TestClock;
  logs?: string[];
  /**
   * A database file (migrated on open, as serve or a CLI command opens it) instead of a fresh in-memory one; data_dir
   * is its folder. On PostgreSQL (IDEAREPO_TEST_STORE) the folder's database, which every app and process given the
   * same folder shares, as they share the file.
   */
  dbFile?: string;
  /** The store, when a test compares the two itself; otherwise the run's (IDEAREPO_TEST_STORE). */
  store?: "sqlite" | "postgres";
  /** With store "postgres": this existing database (one `idearepo store copy` filled) instead of a fresh one, kept at close. */
  pgUrl?: string;
}

/**
 * The store of a test app: SQLite's over `db`, or with IDEAREPO_TEST_STORE=postgres a PostgreSQL database of its own
 * (cloned from a migrated template; dropped when the app closes) or the data folder's. `db` stays beside it for what
 * still reads the SQLite handle.
 */
function testAppStore(db: Db, dbFile: string | undefined, which = testStore(), pgUrl?: string): { store: Store; drop: (() => Promise<void>) | null } {
  if (which !== "postgres") return { store: sqliteStore(db), drop: null };
  if (pgUrl) return { store: pgStore(pgUrl), drop: null };
  if (dbFile) return { store: pgStore(databaseForDataDir(dirname(dbFile))), drop: null };
  const { url, name } = migratedDatabaseSync();
  return { store: pgStore(url), drop: () => dropDatabase(name) };
}

export function makeApp(opts: MakeAppOptions = {}): TestApp {
  const dataDir = opts.dbFile ? dirname(opts.dbFile) : "/tmp/idearepo-test-unused";
  // Password hashes at the suite's cost (test/preload.ts), read as the servers and CLIs the tests start read it.
  const env = { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_ENV: "test", IDEAREPO_PASSWORD_MEMORY_KIB: process.env.IDEAREPO_PASSWORD_MEMORY_KIB };
  const config = loadConfig(env, { log_level: "silent", ...opts.config });
  const clock = opts.clock ?? makeClock(opts.now);
  const db = openDb(opts.dbFile ?? ":memory:", config.durability);
  // IDEAREPO_TEST_LOG=error (or warn, info, debug) shows an app's log on stderr: what a 500 hid, say.
  const shown = process.env.IDEAREPO_TEST_LOG as "error" | "warn" | "info" | "debug" | undefined;
  const log = opts.logs
    ? createLogger("debug", (l) => opts.logs!.push(l))
    : createLogger(shown ?? "silent", (l) => process.stderr.write(`${l}\n`));
  const { store, drop } = testAppStore(db, opts.dbFile, opts.store, opts.pgUrl);
  const deps: Deps = { config, db, store, clock: () => clock.now, log, engines: noEngines() };
  const created = createApp(deps);
  return {
    deps,
    app: created.app,
    handle: (req) => created.app.handle(req),
    close: async () => {
      await created.close();
      if (store.dialect === "postgres") await store.close();
      await drop?.();
      db.close();
    },
    clock,
  };
}

export interface TestUser { id: string; email: string; key: string }

let seq = 0;
export async function makeUser(t: TestApp, opts: { plan?: "free" | "pro"; email?: string; password?: string } = {}): Promise<TestUser> {
  const email = opts.email ?? `user${++seq}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const out = await createUsersService(t.deps).createUser({ email, plan: opts.plan ?? "free", password: opts.password ?? null });
  return { id: out.user.id, email, key: out.api_key };
}

/** Sends a JSON request as a client would; `auth` is an API key sent in X-API-Key unless headers say otherwise. */
export async function call(
  t: TestApp,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers["x-api-key"] = opts.key;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  const res = await t.handle(new Request(`http://localhost/api/v1${path}`, { method, headers, body }));
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // non-JSON bodies (CSV, ZIP) are returned as text
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}

export const STAMP_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
