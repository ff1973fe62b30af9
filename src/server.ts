// `serve`: opens the data dir, listens (TLS when configured), builds the app, then starts the background processes;
// shuts down gracefully.
import { mkdirSync, readFileSync } from "node:fs";
import { ConfigError, loadConfig, type Config } from "./config";
import { GROUP_COMMIT, openDb } from "./db/open";
import { openStore } from "./db/open-store";
import { createDurabilityBarrier } from "./db/durable";
import { noEngines, type Deps } from "./deps";
import { loadMetrics } from "./metrics/registry";
import { createLogger } from "./lib/log";
import { systemClock } from "./lib/time";
import { dbPath } from "./cli/context";
import type { BackgroundProcess } from "./background-process";
import { DataDirBusyError, liveServerPid, removePidFile, writePidFile } from "./lib/pid-file";
import { startCheckpointer } from "./db/checkpointer";
import { raiseNativeHeaderLimit } from "./http/transport";
import { listenEarly, type ListenOptions } from "./http/early-listener";
import { loadApp } from "./http/app-loader";
import type { BuiltApp } from "./app";
import { billingSettings } from "./modules/billing/settings";
import { loadWebAssets, webAppEmbedded } from "./modules/web/assets";
import pkg from "../package.json" with { type: "json" };
import { checkRole } from "./node-role";
import { NODE_ID } from "./lib/node-id";

/** How long shutdown waits for in-flight requests, then for each background process, before cutting them off. */
const DRAIN_MS = 10_000;

/** Resolves true when `work` settles in time, false after `ms`; the timer never holds the process open. */
function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref?.();
  });
  return Promise.race([work.then(() => true), late]).finally(() => clearTimeout(timer));
}

export async function startServer(config: Readonly<Config> = loadConfig()) {
  const t0 = performance.now();
  const log = createLogger(config.log_level);
  // Half a TLS configuration would serve plain HTTP while the HTTPS rule believes TLS is on.
  if ((config.tls_cert_file === null) !== (config.tls_key_file === null)) {
    throw new ConfigError("tls_cert_file and tls_key_file must be set together (IDEAREPO_TLS_CERT_FILE, IDEAREPO_TLS_KEY_FILE)");
  }
  // Half a billing configuration would take payments it cannot turn into Pro (or offer an Upgrade that cannot work).
  billingSettings(config);
  // web and worker split one instance over several processes: PostgreSQL only.
  checkRole(config);
  let tls: { cert: string; key: string } | undefined;
  try {
    tls = config.tls_cert_file && config.tls_key_file
      ? { cert: readFileSync(config.tls_cert_file, "utf8"), key: readFileSync(config.tls_key_file, "utf8") }
      : undefined;
  } catch (e) {
    throw new ConfigError(`Cannot read the TLS certificate or key: ${(e as Error).message}`);
  }
  const other = liveServerPid(config.data_dir);
  if (other !== null) throw new DataDirBusyError(`Another idearepo server (pid ${other}) is serving ${config.data_dir}; stop it first`);
  // On PostgreSQL (database.url) the data directory's SQLite file is neither opened nor made: `db` is an empty
  // in-memory handle that no part reads (every statement goes through the store), and durability is PostgreSQL's.
  const onPg = config.database.url !== null;
  // The data directory still holds the pid file, the master key and the models: made here when no file database makes it.
  if (onPg) mkdirSync(config.data_dir, { recursive: true });
  const groupCommit = !onPg && GROUP_COMMIT.enabled && config.durability === "power-safe";
  const db = openDb(onPg ? ":memory:" : dbPath(config), config.durability, { groupCommit });
  const store = await openStore(config, db).catch((e: unknown) => {
    db.close();
    throw e;
  });
  // WAL checkpoints are the SQLite file's upkeep; a PostgreSQL server checkpoints itself.
  const checkpointer = store.sqlite ? startCheckpointer(store.sqlite, dbPath(config), log) : null;
  const durable = groupCommit ? createDurabilityBarrier(db, `${dbPath(config)}-wal`) : null;
  const deps: Deps = { config, db, store, clock: systemClock, log, engines: { ...noEngines(), durable } };
  // The background processes start once the app is built (below); until then a request that needs one of their
  // engines (the models behind semantic search and similar tags) waits on this instead of finding it missing.
  let started!: () => void;
  deps.engines.started = new Promise<void>((resolve) => (started = resolve));
  const processes: BackgroundProcess[] = [];
  raiseNativeHeaderLimit();
  const listen: ListenOptions = {
    hostname: config.host,
    port: config.port,
    tls,
    // Hard stop for bodies without Content-Length; the JSON 413 for declared sizes happens in the transport check.
    // A margin above the largest route limit, so the counting reader (src/http/body-limit.ts) answers the JSON 413
    // before Bun's own empty one does.
    maxRequestBodySize: Math.max(config.body_limit_bytes, config.import_body_limit_bytes) + 1024 * 1024,
  };
  // /health answers from here on; every other request waits the few tens of milliseconds until the app is built.
  let early: ReturnType<typeof listenEarly>;
  try {
    early = listenEarly(deps, listen);
  } catch (e) {
    // Port taken, address not on this machine, bad certificate …: one clear line, not a stack trace.
    throw new ConfigError(`Cannot listen on ${config.host}:${config.port}: ${(e as Error).message}`);
  }
  const port = early.server.port!;
  writePidFile(config.data_dir);
  const listeningMs = Math.round(performance.now() - t0);
  // The app and everything its routes import (most of the program) load only now, after the socket is open, in slices
  // with the event loop turned between them so /health answers meanwhile (src/http/app-loader.ts).
  let built: BuiltApp;
  try {
    // prom-client only when metrics are on (docs/performance.md, "Server footprint"); in before the first event.
    if (config.metrics.enabled) await loadMetrics();
    built = await loadApp(deps);
    early.handOver(built.app, { ...listen, port });
  } catch (e) {
    await early.abandon(e);
    removePidFile(config.data_dir);
    await durable?.close();
    await checkpointer?.stop();
    db.close();
    throw e;
  }
  const { app, close, closeSockets } = built;
  const readyMs = Math.round(performance.now() - t0);
  // Shutdown order: stop accepting and let in-flight requests answer (every acknowledged write is committed, since
  // handlers commit before they respond), then stop background processes (they finish or release their jobs, which
  // stay durable in the jobs table either way), then flush counters and close the database.
  let stopping: Promise<void> | null = null;
  const stop = (reason = "stop") =>
    (stopping ??= (async () => {
      log.info("shutting down", { reason });
      const server = app.server;
      // An open WebSocket would hold the graceful stop for the whole drain period: the agent's sockets go first.
      closeSockets();
      if (server && !(await within(DRAIN_MS, server.stop(false)))) {
        log.warn("in-flight requests still open after the drain period; closing them", { drain_ms: DRAIN_MS });
        await server.stop(true);
      }
      // Elysia writes request logs from setImmediate after each response; let the last ones run before closing.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      for (const s of processes.reverse()) {
        try {
          if (!(await within(DRAIN_MS, Promise.resolve(s.stop())))) log.warn("background process did not stop in time", { process: s.name });
        } catch (e) {
          log.error("background process stop failed", { process: s.name, error: (e as Error).message });
        }
      }
      try {
        await close();
      } catch (e) {
        log.error("flushing the request counters failed", { error: (e as Error).message });
      }
      await durable?.close(); // the answers are out; closing the database below checkpoints and syncs the rest
      await checkpointer?.stop(); // closing the last connection below checkpoints everything that is left
      try {
        db.exec("PRAGMA optimize");
      } catch {
        // Only a planner hint; never a reason to skip closing.
      }
      if (onPg) {
        try {
          await store.close();
        } catch (e) {
          log.error("closing the PostgreSQL connections failed", { error: (e as Error).message });
        }
      }
      db.close();
      removePidFile(config.data_dir);
      log.info("stopped");
    })());

  // Logged as soon as the listener is up (and before "idearepo started", so whoever waits for that line has it too).
  // First run: whoever opens the web app needs this code (from the log, i.e. the machine's owner) to claim the instance.
  const { createSetupService } = await import("./modules/setup/service");
  const setupCode = await createSetupService(deps).currentCode(true);
  if (setupCode) {
    log.warn("first run: open the web app and enter this setup code to create the owner account", {
      url: `${tls ? "https" : "http"}://${config.host}:${port}/`,
      setup_code: setupCode,
    });
  }

  // The model worker, the pipeline, the IMAP reader, the scheduler and the master-key check: /health has answered
  // since the listener opened, and requests that need none of them are served meanwhile. A process that cannot
  // start (a bad master key) still stops the boot, as it did when they started first.
  try {
    const { BACKGROUND_PROCESSES } = await import("./background");
    for (const make of BACKGROUND_PROCESSES) {
      const s = make(deps);
      await s.start(deps);
      processes.push(s);
    }
  } catch (e) {
    await stop("a background process failed to start");
    throw e;
  } finally {
    started();
  }
  // The embedded web app is parsed now rather than on the first page request (a checkout bundles on demand).
  if (webAppEmbedded()) void loadWebAssets().catch((e: Error) => log.error("web app unreadable", { error: e.message }));

  log.info("idearepo started", {
    version: pkg.version,
    pid: process.pid,
    data_dir: config.data_dir,
    role: config.role,
    node: NODE_ID,
    embed_model: config.embed_model,
    rerank_model: config.rerank_model,
    listen: `${tls ? "https" : "http"}://${config.host}:${port}`,
    listening_ms: listeningMs,
    ready_ms: readyMs,
    startup_ms: Math.round(performance.now() - t0),
  });

  return { app, port, deps, stop };
}
