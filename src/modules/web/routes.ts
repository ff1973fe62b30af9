// Serves the web app at / (outside /api/v1): its files, and the app shell for every page URL so deep links work.
import type { Deps } from "../../deps";
import { json } from "../../errors";
import { PAGE_HEADERS } from "../../http/security-headers";
import { loadWebAssets, type WebAsset } from "./assets";

// Paths that belong to the API and the MCP integration: a miss there is the JSON 404 clients expect, never a page.
const NOT_PAGES = /^\/(api|mcp|\.well-known)(\/|$)/;

function respond(request: Request, asset: WebAsset, cache: string): Response {
  const headers: Record<string, string> = { ...PAGE_HEADERS, "content-type": asset.type, "cache-control": cache, etag: asset.etag, vary: "accept-encoding" };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  const gzip = asset.gzip !== null && /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
  if (gzip) headers["content-encoding"] = "gzip";
  return new Response(request.method === "HEAD" ? null : (gzip ? asset.gzip! : asset.body), { headers });
}

export function webHandler(deps: Deps) {
  return async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
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
    return respond(request, assets.get("/index.html")!, "no-cache");
  };
}
