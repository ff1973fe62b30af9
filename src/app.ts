// createApp(deps): the error mapping, transport rules and every module; no listen(), so tests call app.handle().
import { Elysia } from "elysia";
import type { Deps } from "./deps";
import { errorHandler } from "./http/error-handler";
import { createStorageMonitor } from "./db/storage";
import { checkTransport } from "./http/transport";
import { assertBodyWithinLimit } from "./http/body-limit";
import { assertJsonBody, strictJsonBody } from "./http/json-body";
import { checkCrossSite } from "./http/cross-site";
import { BASE_HEADERS } from "./http/security-headers";
import { compressJson } from "./http/compression";
import { json } from "./errors";
import { API_PREFIX, createAuthKit } from "./auth/plugin";
import { healthRoutes } from "./modules/health/routes";
import { embeddingsHealth } from "./pipeline/health";
import { signInRoutes } from "./modules/sign-in/routes";
import { usersRoutes } from "./modules/users/routes";
import { apiKeysRoutes } from "./modules/api-keys/routes";
import { supportRoutes } from "./modules/support/routes";
import { openapiRoutes } from "./modules/openapi/routes";
import { byokRoutes } from "./modules/byok/routes";
import { developRoutes } from "./modules/develop/routes";
import { digestRoutes } from "./modules/digest/routes";
import { agentRoutes, type OpenSockets } from "./modules/agent/routes";
import { billingRoutes } from "./modules/billing/routes";
import { relationsRoutes } from "./modules/relations/routes";
import { searchRoutes } from "./modules/search/routes";
import { ideasRoutes } from "./modules/ideas/routes";
import { mapRoutes } from "./modules/map/routes";
import { mapPositionsRoutes } from "./modules/map-positions/routes";
import { exportRoutes } from "./modules/export/routes";
import { tagsRoutes } from "./modules/tags/routes";
import { linksRoutes } from "./modules/links/routes";
import { versionsRoutes } from "./modules/versions/routes";
import { wikilinksRoutes } from "./modules/wikilinks/routes";
import { reviewRoutes } from "./modules/review/routes";
import { duplicatesRoutes } from "./modules/duplicates/routes";
import { importRoutes } from "./modules/import/routes";
import { adminRoutes } from "./modules/admin/routes";
import { oauthRoutes } from "./modules/oauth/routes";
import { mcpRoutes } from "./modules/mcp/routes";
import { setupRoutes } from "./modules/setup/routes";
import { webHandler } from "./modules/web/routes";
import { createBootData } from "./modules/web/boot-data";
import { mailCaptureRoutes } from "./modules/mail-capture/routes";
import { vaultRoutes } from "./modules/vault/routes";
import { mailCaptureHealth } from "./mail/capture-reader";
import { metricsRoutes } from "./modules/metrics/routes";
import { loadMetrics, recordRequest } from "./metrics/registry";
import { durableAnswer } from "./http/durable-answer";
import { keepUndecodableSegments } from "./http/params";
import { workerRefusal } from "./node-role";

const started = new WeakMap<Request, number>();

// The REST API's bodies are JSON objects; the import route reads its own upload (any file, JSON arrays included), and
// the billing webhook its raw body (its signature covers the bytes as sent).
const wantsStrictJson = (path: string) => path.startsWith(API_PREFIX + "/") && !path.endsWith("/user/import") && !path.endsWith("/billing/webhook");

/** What the request log reads; `auth` exists only on routes behind the auth plugin. */
interface AfterResponse {
  request: Request;
  route: string;
  set: { status?: number | string };
  responseValue?: unknown;
  auth?: { user: { id: string } };
}

// The logged status is the one the client saw: a returned Response carries its own, otherwise set.status applies.
function statusOf(ctx: { set: { status?: number | string }; responseValue?: unknown }): number {
  if (ctx.responseValue instanceof Response) return ctx.responseValue.status;
  return typeof ctx.set.status === "number" ? ctx.set.status : 200;
}

/** What createApp returns: the app, its auth kit, and what shutdown calls. */
export interface BuiltApp {
  app: Elysia<any, any, any, any, any, any, any>;
  kit: ReturnType<typeof createAuthKit>;
  closeSockets(): void;
  close(): Promise<void>;
}

/** Builds the app in one go (tests, benches). */
export function createApp(deps: Deps): BuiltApp {
  const steps = appSteps(deps);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Builds the app with `turn()` awaited between its modules: `serve` turns the event loop there, so the early listener
 * answers /health while the app is built instead of after it (building is synchronous work of 100–200 ms).
 */
export async function createAppInSteps(deps: Deps, turn: () => Promise<void>): Promise<BuiltApp> {
  const steps = appSteps(deps);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await turn();
  }
}

/** The app's construction; each `yield` is a point where the caller may let other work run. */
function* appSteps(deps: Deps): Generator<void, BuiltApp> {
  const kit = createAuthKit(deps);
  const agentSockets: OpenSockets = new Set();
  // A signed-in browser's shell carries its boot data inline (the session, /ideas's first page).
  const web = webHandler(deps, createBootData(deps, kit));

  const storage = createStorageMonitor(deps.config.data_dir, deps.log);
  // Power-safe group commit (src/db/durable.ts): null where each commit is as durable as promised when it returns.
  const durable = deps.engines.durable;
  durable?.reportTo(storage);
  const settle = durable ? (request: Request) => durableAnswer(durable, request, started.get(request) ?? 0) : null;
  // A write refused while a failed WAL sync is repaired: /health says so even if some other change went through.
  const storageHealth = () => {
    const h = storage.health();
    const refusing = durable?.refusing();
    return refusing && h.writable ? { ...h, writable: false, error: refusing } : h;
  };
  // Off: the request path pays one boolean test (docs/performance.md has both figures), and prom-client is never
  // loaded. On: loaded now (the server awaited it already; records made before it is in wait in its backlog).
  const metricsOn = deps.config.metrics.enabled;
  if (metricsOn) void loadMetrics();
  const api = new Elysia({ prefix: API_PREFIX });
  // One module per step (see createAppInSteps); `use` registers in place.
  const modules = [
    () => healthRoutes(deps, async () => ({ ...(await embeddingsHealth(deps.store, deps.config.models_dir)), storage: storageHealth(), mail_capture: mailCaptureHealth(deps) })),
    () => setupRoutes(deps),
    () => signInRoutes(deps, kit),
    () => usersRoutes(deps, kit),
    () => apiKeysRoutes(deps, kit),
    () => supportRoutes(deps, kit),
    () => openapiRoutes(),
    () => byokRoutes(deps, kit),
    () => developRoutes(deps, kit),
    () => digestRoutes(deps, kit),
    () => agentRoutes(deps, kit, agentSockets),
    () => billingRoutes(deps, kit),
    () => relationsRoutes(deps, kit),
    () => searchRoutes(deps, kit),
    () => ideasRoutes(deps, kit),
    () => mapRoutes(deps, kit),
    () => mapPositionsRoutes(deps, kit),
    () => exportRoutes(deps, kit),
    () => tagsRoutes(deps, kit),
    () => linksRoutes(deps, kit),
    () => versionsRoutes(deps, kit),
    () => wikilinksRoutes(deps, kit),
    () => reviewRoutes(deps, kit),
    () => duplicatesRoutes(deps, kit),
    () => importRoutes(deps, kit),
    () => adminRoutes(deps, kit),
    () => mailCaptureRoutes(deps, kit),
    () => vaultRoutes(deps, kit),
  ];
  for (const make of modules) {
    api.use(make());
    yield;
  }
  // Feature modules register above (one line each).
  const oauth = oauthRoutes(deps, kit);
  yield;
  const mcp = mcpRoutes(deps, kit);
  yield;

  const app = new Elysia()
    .use(errorHandler(deps.log, storage, settle))
    .onRequest(({ request, server, set }) => {
      started.set(request, performance.now());
      const rejected = workerRefusal(deps.config.role, request) ?? checkTransport(deps.config, request, server?.requestIP(request)?.address) ?? checkCrossSite(deps.config, request);
      if (rejected) {
        // Answered before routing, so the after-response log below never sees it; refusals belong in the log too.
        deps.log.info("request", { method: request.method, route: new URL(request.url).pathname, status: rejected.status, refused: true });
        // No route was matched: one fixed label, whatever path was asked for.
        if (metricsOn) recordRequest(request.method, "(refused before routing)", rejected.status, undefined);
        return rejected;
      }
      Object.assign(set.headers, BASE_HEADERS);
      if (request.method !== "GET" && request.method !== "HEAD" && wantsStrictJson(new URL(request.url).pathname)) strictJsonBody(request);
    })
    // After parsing: a chunked body that went over its limit is a 413 even where Elysia swallowed the read error.
    .onTransform({ as: "global" }, assertBodyWithinLimit)
    // After parsing: malformed or non-object JSON is a 400 even where Elysia swallowed it (src/http/json-body.ts).
    .onTransform({ as: "global" }, assertJsonBody)
    // A path segment that does not decode is refused with the route's own message (src/http/params.ts).
    .onTransform({ as: "global" }, keepUndecodableSegments)
    // Power-safe: no answer leaves before the commits made ahead of it are synced (one shared fdatasync, group commit).
    // First: Elysia runs the mapResponse hooks until one returns something, so this one (undefined unless the sync
    // failed) goes before compression. Async on purpose: Elysia awaits a hook only when it is an async function.
    .mapResponse({ as: "global" }, settle ? async ({ request }) => await settle(request) : () => undefined)
    // JSON answers above 1 KB go out Brotli- or gzip-compressed when the client accepts it; never where a secret sits
    // in the body (BREACH: src/http/compression.ts).
    .mapResponse({ as: "global" }, compressJson as never)
    // Destructured on purpose: Elysia parses cookies, query and body only for hooks that read them, and a hook taking
    // the whole context counts as reading everything (measured: 5–8 µs per request).
    .onAfterResponse({ as: "global" }, (({ request, route, set, responseValue, auth }: AfterResponse) => {
      const t0 = started.get(request);
      const status = statusOf({ set, responseValue });
      if (metricsOn) recordRequest(request.method, route, status, t0 === undefined ? undefined : (performance.now() - t0) / 1000);
      // A change that went through proves the disk has room again (see src/db/storage.ts).
      if (status < 400 && request.method !== "GET" && request.method !== "HEAD") storage.succeeded();
      deps.log.info("request", {
        method: request.method,
        route,
        status,
        duration_ms: t0 === undefined ? undefined : Math.round((performance.now() - t0) * 100) / 100,
        user_id: auth?.user.id,
      });
    }) as never)
    .use(api)
    .use(oauth)
    .use(mcp)
    .use(metricsRoutes(deps, { health: storageHealth }))
    // Everything else is the web app: its files, or its shell for a page URL (API paths still get the JSON 404).
    .all("*", ({ request }) => web(request));

  return {
    app,
    kit,
    /** Closes every agent socket (1001, going away): a running turn stops as on cancel and keeps what was said. */
    closeSockets() {
      for (const ws of [...agentSockets]) ws.close(1001, "Server shutting down");
    },
    /** Flushes in-memory counters; the caller awaits it, then closes the database. */
    close(): Promise<void> {
      return kit.limiter.close();
    },
  };
}
export type App = ReturnType<typeof createApp>["app"];
