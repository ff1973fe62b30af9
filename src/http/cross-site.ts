// Cross-site request forgery guard for browser requests: unsafe methods must come from this instance's own pages.
//
// The session cookie makes a browser an authenticated client, so a page on another site could submit a form or fire a
// fetch at /api/v1 with it. Browsers say where a request comes from: Sec-Fetch-Site (every current browser) and Origin.
// An unsafe request is refused when either says "another site"; requests with neither header are not from a browser
// page (curl, scripts, the CLI) and carry no ambient credential to abuse. The same rule as Go's CrossOriginProtection.
import type { Config } from "../config";
import { json } from "../errors";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export function checkCrossSite(cfg: Readonly<Config>, request: Request): Response | null {
  if (SAFE.has(request.method)) return null;
  return crossSiteRefusal(cfg, request);
}

/**
 * The same rule for any method: a WebSocket upgrade is a GET, yet one made with the session cookie acts for the person
 * from then on (the agent socket checks its cookie upgrades with this; browsers always send Origin on an upgrade).
 */
export function crossSiteRefusal(cfg: Readonly<Config>, request: Request): Response | null {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none" ? null : refused();
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return refused(); // "null" (sandboxed frames, file: pages) or garbage
  }
  const hosts = [request.headers.get("host"), new URL(request.url).host];
  if (cfg.public_base_url) hosts.push(new URL(cfg.public_base_url).host);
  return hosts.includes(originHost) ? null : refused();
}

const refused = () => json(403, { error: "Cross-site request refused" });
