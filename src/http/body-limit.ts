// The body limit for requests that do not declare their length (Transfer-Encoding: chunked), enforced while reading.
//
// A declared Content-Length is checked before routing (transport.ts). A chunked body has no length to check, and
// Bun's own maxRequestBodySize is one number for the whole server (the import limit) that it applies only after
// buffering: a 200 MB chunked PATCH /user/me was accepted and took the server from 94 to 486 MB. Here the request's
// body readers (text, json, arrayBuffer, bytes, blob, formData — what Elysia's parser, the import route and the MCP
// transport call) are replaced on that one request by readers that count bytes as chunks arrive and stop at the
// route's limit with the same JSON 413 a declared length gets, having held at most the limit in memory.
import type { Config } from "../config";
import { AppError } from "../errors";

export const tooLarge = () => new AppError(413, { error: "Request body too large" });

/** Per route: the import endpoint takes whole archives; everything else takes JSON documents. */
export const bodyLimitFor = (cfg: Readonly<Config>, pathname: string) =>
  pathname.endsWith("/user/import") ? cfg.import_body_limit_bytes : cfg.body_limit_bytes;

// Requests whose body went over the limit. Elysia swallows parse errors on routes with an optional body (and wraps
// them in a 400 "Invalid JSON body" elsewhere), so the overflow is remembered here and answered as a 413 by
// `assertBodyWithinLimit` (a transform hook, after parsing) and by the error handler.
const overflowed = new WeakSet<Request>();
export const bodyOverflowed = (request: Request) => overflowed.has(request);
export function assertBodyWithinLimit({ request }: { request: Request }): void {
  if (overflowed.has(request)) throw tooLarge();
}

const bodyOf = Object.getOwnPropertyDescriptor(Request.prototype, "body")!.get!;

async function readAtMost(request: Request, limit: number): Promise<Uint8Array> {
  const stream = bodyOf.call(request) as ReadableStream<Uint8Array> | null;
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      overflowed.add(request);
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** Installs the counting readers on a request whose body has no declared length. */
export function limitUndeclaredBody(request: Request, limit: number): void {
  let read: Promise<Uint8Array> | null = null;
  const bytes = () => (read ??= readAtMost(request, limit));
  const text = async () => new TextDecoder().decode(await bytes());
  const type = () => request.headers.get("content-type") ?? "";
  const readers: Record<string, () => Promise<unknown>> = {
    bytes,
    arrayBuffer: async () => {
      const b = await bytes();
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    },
    text,
    json: async () => JSON.parse(await text()),
    blob: async () => new Blob([await bytes()], { type: type() }),
    formData: async () => new Response(await bytes(), { headers: { "content-type": type() } }).formData(),
  };
  for (const [name, value] of Object.entries(readers)) Object.defineProperty(request, name, { value, configurable: true });
}
