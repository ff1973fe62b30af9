// `serve`: opens the data dir, starts background services, listens (TLS when configured), shuts down gracefully.
import { readFileSync } from "node:fs";
import { loadConfig, type Config } from "./config";
import { openDb } from "./db/open";
import type { Deps } from "./deps";
import { createApp } from "./app";
import { createLogger } from "./lib/log";
import { systemClock } from "./lib/time";
import { dbPath } from "./cli/context";
import { SERVICE_FACTORIES, type BackgroundService } from "./services";
import pkg from "../package.json" with { type: "json" };

export async function startServer(config: Readonly<Config> = loadConfig()) {
  const log = createLogger(config.log_level);
  const db = openDb(dbPath(config));
  const deps: Deps = { config, db, clock: systemClock, log, engines: {} };
  const services: BackgroundService[] = [];
  for (const make of SERVICE_FACTORIES) {
    const s = make(deps);
    await s.start(deps);
    services.push(s);
  }
  const { app, close } = createApp(deps);
  const tls = config.tls_cert_file && config.tls_key_file
    ? { cert: readFileSync(config.tls_cert_file, "utf8"), key: readFileSync(config.tls_key_file, "utf8") }
    : undefined;
  app.listen({
    hostname: config.host,
    port: config.port,
    tls,
    // Hard stop for bodies without Content-Length; the JSON 413 for declared sizes happens in the transport check.
    maxRequestBodySize: Math.max(config.body_limit_bytes, config.import_body_limit_bytes),
  });
  const port = app.server!.port;
  log.info("idearepo started", {
    version: pkg.version,
    data_dir: config.data_dir,
    embed_model: config.embed_model,
    rerank_model: config.rerank_model,
    listen: `${tls ? "https" : "http"}://${config.host}:${port}`,
  });

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      log.info("shutting down");
      await app.server?.stop(false); // stop accepting, let in-flight requests finish
      for (const s of services.reverse()) {
        try {
          await s.stop();
        } catch (e) {
          log.error("service stop failed", { service: s.name, error: (e as Error).message });
        }
      }
      close();
      db.close();
      log.info("stopped");
    })());
  return { app, port, deps, stop };
}
