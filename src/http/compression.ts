// Compresses the REST API's JSON answers (Brotli or gzip, as the client accepts) above 1 KB, except where BREACH applies.
//
// BREACH: a compressed body's length leaks how well a secret in it compresses against text an attacker put next to
// it, so responses that carry a secret (a session or API key, the capture address, a billing or support URL, an
// invitation) are never compressed. Those live under a few path prefixes (NEVER below, docs/performance.md lists
// them); every other API route answers with the account's own content and no credential.
import { brotliCompressSync, constants } from "node:zlib";

/** Bodies smaller than this go out as they are: the framing would eat the gain. */
export const COMPRESS_MIN_BYTES = 1024;

// /user/* carries the capture address (GET /user/shortcuts), keys, BYOK, billing and support URLs; its export is the
// exception (ideas, tags and the profile, no credential). /auth, /setup and /admin mint sessions, keys and invitations.
const NEVER = /^\/api\/v1\/(auth|setup|admin|billing|user(?!\/export$))(\/|$)/;
const API = /^\/api\/v1\//;

/** True when a JSON answer on this path may be compressed (API routes, minus the ones carrying secrets). */
export const mayCompress = (path: string) => API.test(path) && !NEVER.test(path);

/**
 * The encoding to use for an Accept-Encoding header, among `offered` (Brotli first, then gzip); null for none. A coding
 * given q=0 is refused even where `*` would match it (RFC 9110 §12.5.3: `gzip;q=0, *` is "anything but gzip").
 */
export function pickEncoding(accept: string | null, offered: ReadonlyArray<"br" | "gzip"> = ["br", "gzip"]): "br" | "gzip" | null {
  if (!accept) return null;
  const allowed = new Set<string>();
  const refused = new Set<string>();
  for (const part of accept.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    (q && Number(q.slice(2)) === 0 ? refused : allowed).add(name.trim());
  }
  const named = offered.find((c) => allowed.has(c));
  if (named) return named;
  return allowed.has("*") && offered.includes("gzip") && !refused.has("gzip") ? "gzip" : null;
}

/** Brotli at quality 4 compresses a 360 KB list in ~2 ms, close to gzip's speed and smaller; 11 would take 100× as long. */
function compress(body: Uint8Array<ArrayBuffer>, encoding: "br" | "gzip"): Uint8Array<ArrayBuffer> {
  if (encoding === "gzip") return Bun.gzipSync(body, { level: 6 });
  return new Uint8Array(brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
}

const isJsonType = (type: string | null) => type !== null && /^application\/json\b/i.test(type);
const isPlainJson = (v: unknown) => v !== null && typeof v === "object" && (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype);

interface MapContext {
  request: Request;
  path: string;
  responseValue: unknown;
  set: { status?: number | string; headers: Record<string, string | number> };
}

/**
 * Elysia mapResponse hook: returns a compressed Response, or undefined to let the answer go out as it is. Plain
 * objects are serialized here as Elysia would (a string the route marked as JSON is taken as it is); a JSON Response is read whole, except a streamed export, which is
 * piped through gzip so it keeps streaming.
 */
export async function compressJson({ request, path, responseValue, set }: MapContext): Promise<Response | undefined> {
  if (request.method === "HEAD" || !API.test(path)) return undefined;
  // Every API answer says it varies by Accept-Encoding, compressed or not, so a route that never compresses (e.g.
  // /admin/* for a non-operator) answers with exactly the headers of a missing route and gives nothing away.
  set.headers["vary"] = "accept-encoding";
  if (!mayCompress(path)) return undefined;
  const encoding = pickEncoding(request.headers.get("accept-encoding"));
  if (!encoding) return undefined;
  if (responseValue instanceof Response) {
    const res = responseValue;
    if (!isJsonType(res.headers.get("content-type")) || res.headers.has("content-encoding") || !res.body) return undefined;
    const headers = new Headers(res.headers);
    headers.set("vary", "accept-encoding");
    if (path === "/api/v1/user/export") {
      // Streamed (memory stays flat for 10,000 ideas): gzip as a stream, the one encoding a CompressionStream offers.
      if (pickEncoding(request.headers.get("accept-encoding"), ["gzip"]) === null) return undefined;
      headers.set("content-encoding", "gzip");
      headers.delete("content-length");
      return new Response(res.body.pipeThrough(new CompressionStream("gzip")), { status: res.status, headers });
    }
    const body = new Uint8Array(await res.arrayBuffer());
    if (body.length < COMPRESS_MIN_BYTES) return new Response(body, { status: res.status, headers });
    headers.set("content-encoding", encoding);
    headers.delete("content-length");
    return new Response(compress(body, encoding), { status: res.status, headers });
  }
  // A string is JSON when the route said so (the ideas list sends the text SQLite wrote); plain objects are serialized.
  const jsonText = typeof responseValue === "string" && isJsonType(String(set.headers["content-type"] ?? ""));
  if (!jsonText && !isPlainJson(responseValue)) return undefined;
  const text = jsonText ? (responseValue as string) : JSON.stringify(responseValue);
  // Short answers: Elysia's own mapping sends them (same bytes, same headers).
  if (text.length < COMPRESS_MIN_BYTES) return undefined;
  const body = new TextEncoder().encode(text);
  const status = typeof set.status === "number" ? set.status : 200;
  return new Response(compress(body, encoding), {
    status,
    headers: { "content-type": "application/json;charset=utf-8", "content-encoding": encoding, vary: "accept-encoding" },
  });
}
