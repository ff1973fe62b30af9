// Serves the web app at / (outside /api/v1): its files, and the app shell for every page URL so deep links work.
import type { Deps } from "../../deps";
import { json } from "../../errors";
import { pickEncoding } from "../../http/compression";
import { PAGE_HEADERS } from "../../http/security-headers";
import { loadWebAssets, type WebAsset, type WebAssets } from "./assets";
import { BOOT_ELEMENT_ID, type BootData } from "./boot-data";
import { preloadLinks } from "./preload";

// Paths that belong to the API and the MCP integration: a miss there is the JSON 404 clients expect, never a page.
const NOT_PAGES = /^\/(api|mcp|\.well-known)(\/|$)/;

/** gzip only where the client takes it: "gzip;q=0" refuses it (a regex for "gzip" sent it anyway). */
const acceptsGzip = (request: Request) => pickEncoding(request.headers.get("accept-encoding"), ["gzip"]) === "gzip";

function respond(request: Request, asset: WebAsset, cache: string, extra: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { ...PAGE_HEADERS, "content-type": asset.type, "cache-control": cache, etag: asset.etag, vary: "accept-encoding", ...extra };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  const gzip = asset.gzip !== null && acceptsGzip(request);
  if (gzip) headers["content-encoding"] = "gzip";
  return new Response(request.method === "HEAD" ? null : (gzip ? asset.gzip! : asset.body), { headers });
}

/** The shell's bytes before and after its boot data: everything but the data is spliced as bytes. */
interface ShellParts {
  head: Uint8Array;
  tail: Uint8Array;
}

const encoder = new TextEncoder();
/** Per shell asset (one per build, made on its first request): cut once, at its first `</body>`. */
const cutShells = new WeakMap<WebAsset, ShellParts | null>();

/** null: a shell with no `</body>` (never made by the bundler) goes out as it is. */
function shellParts(shell: WebAsset): ShellParts | null {
  let parts = cutShells.get(shell);
  if (parts === undefined) {
    const html = new TextDecoder().decode(shell.body);
    const at = html.indexOf("</body>");
    parts = at < 0 ? null : {
      head: encoder.encode(`${html.slice(0, at)}<script type="application/json" id="${BOOT_ELEMENT_ID}">`),
      tail: encoder.encode(`</script>${html.slice(at)}`),
    };
    cutShells.set(shell, parts);
  }
  return parts;
}

/** The shell with `json` inline, before `</body>`. */
function withBootData(shell: WebAsset, json: string): Uint8Array<ArrayBuffer> {
  const parts = shellParts(shell);
  if (!parts) return new Uint8Array(shell.body);
  const data = encoder.encode(json);
  const out = new Uint8Array(parts.head.length + data.length + parts.tail.length);
  out.set(parts.head);
  out.set(data, parts.head.length);
  out.set(parts.tail, parts.head.length + data.length);
  return out;
}

/**
 * A signed-in browser's shell: the boot data inline, before the app's script (which runs deferred, after parsing).
 * Per person, so never stored by any cache (`no-store`, and no ETag to revalidate against). Gzipped per answer: it
 * holds the account's profile and ideas but no credential (no session or key, no capture address), so BREACH has
 * no secret to find in it (src/http/compression.ts).
 */
function signedInShell(request: Request, shell: WebAsset, boot: BootData, link: string): Response {
  const headers: Record<string, string> = { ...PAGE_HEADERS, "content-type": shell.type, "cache-control": "no-store", vary: "accept-encoding, cookie" };
  if (link) headers.link = link;
  const body = withBootData(shell, boot.json);
  const gzip = acceptsGzip(request);
  if (gzip) headers["content-encoding"] = "gzip";
  return new Response(request.method === "HEAD" ? null : (gzip ? Bun.gzipSync(body, { level: 6 }) : body), { headers });
}

/** `boot` gives a signed-in browser session's boot data, or null (src/modules/web/boot-data.ts). */
export function webHandler(deps: Deps, boot: (request: Request, url: URL) => Promise<BootData | null>) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname;
    if ((request.method !== "GET" && request.method !== "HEAD") || NOT_PAGES.test(path)) return json(404, { error: "Not found" });
    let assets: WebAssets;
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
    const data = await boot(request, url);
    if (data) return signedInShell(request, shell, data, preloadLinks(url, true, shell.chunks));
    return respond(request, shell, "no-cache", { link: preloadLinks(url, false, shell.chunks) });
  };
}
