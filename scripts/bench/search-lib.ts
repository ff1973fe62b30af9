// Shared by the search benchmarks: an app on a database file with the pipeline, percentiles, request helpers.
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { noEngines, type Deps } from "../../src/deps";
import { createDurabilityBarrier } from "../../src/db/durable";
import { openDb } from "../../src/db/open";
import { pgStore } from "../../src/db/pg/store";
import { sqliteStore } from "../../src/db/sqlite-store";
import { createLogger } from "../../src/lib/log";
import type { ModelClient } from "../../src/ml/client";
import { createUsersService } from "../../src/modules/users/service";
import { createPipelineProcess, type PipelineProcess } from "../../src/pipeline/process";

export interface BenchApp {
  deps: Deps;
  handle(req: Request): Promise<Response>;
  pipeline: PipelineProcess | null;
  close(): Promise<void>;
}

/**
 * The real app on `dbFile` (":memory:" allowed); with a model, the pipeline service runs on it (no background loop).
 * `pgUrl` puts the store on that PostgreSQL database instead (the SQLite handle stays, empty, as in the tests);
 * `groupCommit` gives the SQLite file the server's power-safe group commit (answers wait for the WAL's sync).
 */
export async function benchApp(dbFile: string, model: ModelClient | null, opts: { pgUrl?: string; groupCommit?: boolean } = {}): Promise<BenchApp> {
  const config = loadConfig({ IDEAREPO_DATA_DIR: "/tmp/idearepo-bench-unused", IDEAREPO_ENV: "test" }, { log_level: "silent" });
  const db = openDb(opts.pgUrl ? ":memory:" : dbFile, "power-safe", { groupCommit: opts.groupCommit && !opts.pgUrl });
  const store = opts.pgUrl ? pgStore(opts.pgUrl) : sqliteStore(db);
  const durable = opts.groupCommit && !opts.pgUrl ? createDurabilityBarrier(db, `${dbFile}-wal`) : null;
  const deps: Deps = { config, db, store, clock: () => new Date(), log: createLogger("warn"), engines: { ...noEngines(), durable } };
  const { app, close } = createApp(deps);
  let pipeline: PipelineProcess | null = null;
  if (model) {
    pipeline = createPipelineProcess(deps, { models: model, autoStart: false });
    await pipeline.start(deps);
  }
  return {
    deps,
    handle: (req) => app.handle(req),
    pipeline,
    async close() {
      await pipeline?.stop();
      await close();
      await durable?.close();
      if (opts.pgUrl) await store.close();
      db.close();
    },
  };
}

export async function benchUser(deps: Deps, plan: "free" | "pro" = "pro"): Promise<{ id: string; key: string }> {
  const out = await createUsersService(deps).createUser({
    email: `bench-${Math.random().toString(36).slice(2)}@example.com`,
    plan,
    password: null,
  });
  return { id: out.user.id, key: out.api_key };
}

export async function request(app: BenchApp, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { "x-api-key": key };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await app.handle(
    new Request(`http://localhost/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  return { status: res.status, body: await res.json() };
}

/** As a client would time it: the request until the whole body arrived, without parsing it. */
export async function requestText(app: BenchApp, key: string, path: string): Promise<string> {
  const res = await app.handle(new Request(`http://localhost/api/v1${path}`, { headers: { "x-api-key": key } }));
  return res.text();
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 1)} ms`;

export async function timeEach<T>(items: T[], fn: (item: T) => Promise<unknown> | unknown): Promise<number[]> {
  const times: number[] = [];
  for (const item of items) {
    const t0 = performance.now();
    await fn(item);
    times.push(performance.now() - t0);
  }
  return times;
}

export function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}
