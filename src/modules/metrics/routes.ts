// GET /metrics: the Prometheus text format, off by default; when on, loopback only or with the configured bearer token.
import { Elysia } from "elysia";
import { createHash, timingSafeEqual } from "node:crypto";
import type { Deps } from "../../deps";
import type { StorageMonitor } from "../../db/storage";
import { json } from "../../errors";
import { isLoopback } from "../../http/transport";
import { scrapeMetrics } from "../../metrics/scrape";

const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
const digest = (s: string) => createHash("sha256").update(s).digest();

/**
 * Loopback means the scraper runs on this machine: a peer on 127.0.0.1 that is not a proxy relaying someone else
 * (a reverse proxy on the same host connects from loopback too, and says so with X-Forwarded-For / Forwarded).
 */
function fromLocalScraper(deps: Deps, request: Request, ip: string | undefined): boolean {
  if (ip === undefined || !isLoopback(ip) || deps.config.trusted_proxies.includes(ip)) return false;
  return !request.headers.has("x-forwarded-for") && !request.headers.has("forwarded");
}

function bearerMatches(expected: string, request: Request): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  // Compared as digests: constant time, and the lengths always agree.
  return m !== null && timingSafeEqual(digest(m[1]), digest(expected));
}

export function metricsRoutes(deps: Deps, storage: Pick<StorageMonitor, "health">) {
  const { enabled, token } = deps.config.metrics;
  return new Elysia().get("/metrics", async ({ request, server }) => {
    if (!enabled) return json(404, { error: "Not found" });
    const ip = server?.requestIP(request)?.address;
    if (!(token !== null && bearerMatches(token, request)) && !fromLocalScraper(deps, request, ip)) {
      if (token !== null) return json(401, { error: "Unauthorized" }, { "www-authenticate": 'Bearer realm="metrics"' });
      return json(403, { error: "Metrics are served to loopback only; set metrics.token (IDEAREPO_METRICS_TOKEN) to scrape from elsewhere" });
    }
    return new Response(await scrapeMetrics(deps, storage), { headers: { "content-type": CONTENT_TYPE, "cache-control": "no-store" } });
  });
}
