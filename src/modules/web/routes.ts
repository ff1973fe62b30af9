// Serves the web app at / (outside /api/v1): its files, and the app shell for every page URL so deep links work.
import type { Deps } from "../../deps";
import { json } from "../../errors";
import { PAGE_HEADERS } from "../../http/security-headers";
import { loadWebAssets, type WebAsset } from "./assets";
import { preloadLinks } from "./preload";

// Paths that belong to the API and the MCP integration: a miss there is the JSON 404 clients expect, never a page.
const NOT_PAGES = /^\/(api|mcp|\.well-known)(\/|$)/;

function respond(request: Request, asset: WebAsset, cache: string, extra: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { ...PAGE_HEADERS, "content-type": asset.type, "cache-control": cache, etag: asset.etag, vary: "accept-encoding", ...extra };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  const gzip = asset.gzip !== null && /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
  if (gzip) headers["content-encoding"] = "gzip";
  return new Response(request.method === "HEAD" ? null : (gzip ? asset.gzip! : asset.body), { headers });
}

/** `signedIn` says whether a request carries a valid session (the app's credential resolver). */
export function webHandler(deps: Deps, signedIn: (request: Request) => boolean) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname;
    if ((request.method !== "GET" && request.method !== "HEAD") || NOT_PAGES.test(path)) return json(404, { error: "Not found" });
    let assets: Map<string, WebAsset>;
    try {
      assets = await loadWebAssets();
    } catch (e) {
      deps.log.error("web app unavailable", { error: (e as Error).message });
      return json(500, { error: "Internal server error" });
    }
    const file = assets.get(path);
    if (file) return respond(request, file, file.immutable ? "public, max-age=31536000, immutable" : "no-cache");
    // A path that names a file we do not have is a missing file, not a page of the app.
    if (/\.[a-z0-9]{1,12}$/i.test(path)) return json(404, { error: "Not found" });
    const shell = assets.get("/index.html")!;
    return respond(request, shell, "no-cache", { link: preloadLinks(url, signedIn(request), shell.chunks) });
  };
}
