// The listener `serve` opens once the database is open and migrated, before the app is built: it answers GET /health
// itself, holds every other request until the app is ready, then becomes the app's listener (the socket never closes).
import type { Server } from "bun";
import type { Config } from "../config";
import type { Store } from "../db/store";
import { storeName } from "../db/store-name";
import { createHealthRepo } from "../modules/health/repo";
import type { Clock } from "../lib/time";
import { BASE_HEADERS } from "./security-headers";
import { checkTransport } from "./transport";

const HEALTH_PATH = "/api/v1/health";

/** What Bun.serve needs that cannot change after it listens (Elysia's listen() passes the same, and these defaults). */
export interface ListenOptions {
  hostname: string;
  port: number;
  tls?: { cert: string; key: string };
  maxRequestBodySize: number;
}

interface EarlyDeps {
  config: Readonly<Config>;
  store: Store;
  clock: Clock;
}

/**
 * Building the app (importing every route module, then Elysia's route table) is most of serve's start; the database
 * is not. So the socket opens first: /health answers from here with the database probe (the spec's fields, `database`,
 * and `starting: true`, since the embeddings, storage and mail blocks belong to parts not built yet), and any other
 * request waits for the app and is answered by it, as it would have been a moment later.
 */
export function listenEarly(deps: EarlyDeps, options: ListenOptions) {
  const probe = createHealthRepo(deps.store);
  let ready!: (fetch: (request: Request) => Response | Promise<Response>) => void;
  let failed!: (e: unknown) => void;
  const app = new Promise<(request: Request) => Response | Promise<Response>>((resolve, reject) => ((ready = resolve), (failed = reject)));
  app.catch(() => {}); // a failed build stops the server; a request held meanwhile gets Bun's 500

  async function health(): Promise<Response> {
    const headers = BASE_HEADERS;
    try {
      await probe.probe();
    } catch {
      return Response.json({ status: "error", error: "Database unavailable" }, { status: 503, headers });
    }
    return Response.json({ status: "ok", environment: deps.config.env, timestamp: deps.clock().toISOString(), database: storeName(deps.store), starting: true }, { headers });
  }

  const server = Bun.serve({
    ...options,
    // Elysia's own defaults for the options a reload cannot change (its listen() would pass the same).
    idleTimeout: 30,
    reusePort: true,
    development: (process.env.NODE_ENV ?? process.env.ENV) !== "production",
    async fetch(request, srv) {
      if (request.method === "GET" && new URL(request.url).pathname === HEALTH_PATH) {
        // The app's first check, so a plain-HTTP probe from elsewhere is refused here exactly as it will be there.
        const rejected = checkTransport(deps.config, request, srv.requestIP(request)?.address);
        return rejected ?? health();
      }
      return (await app)(request);
    },
  });
  return {
    server,
    /**
     * Hands the socket to the app: Elysia's listen() builds its Bun.serve options (native routes, WebSocket handlers)
     * and calls Bun.serve, which for that one call reloads this server instead of opening another. Requests held
     * meanwhile go to the app's fetch.
     */
    handOver(elysia: { listen(options: ListenOptions): unknown; fetch(request: Request): Response | Promise<Response> }, listen: ListenOptions) {
      const serve = Bun.serve;
      Bun.serve = ((opts: Parameters<typeof Bun.serve>[0]) => {
        server.reload(opts as never);
        return server;
      }) as typeof Bun.serve;
      try {
        elysia.listen(listen);
      } finally {
        Bun.serve = serve;
      }
      ready((request) => elysia.fetch(request));
    },
    /** The app could not be built: held requests fail, the socket closes. */
    async abandon(e: unknown) {
      failed(e);
      await server.stop(true);
    },
  };
}
