// Transport rules applied before routing: HTTPS only (loopback and trusted proxies excepted) and body size limits.
import type { Config } from "../config";
import { json } from "../errors";
import { bodyLimitFor, limitUndeclaredBody } from "./body-limit";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export const isLoopback = (ip: string) => LOOPBACK.test(ip);

/** Returns a rejection Response, or null to let the request through. `ip` is undefined for in-process calls. */
export function checkTransport(cfg: Readonly<Config>, request: Request, ip: string | undefined): Response | null {
  const tls = cfg.tls_cert_file !== null;
  if (!tls && ip !== undefined) {
    const fromProxy = cfg.trusted_proxies.includes(ip);
    const httpsViaProxy = fromProxy && request.headers.get("x-forwarded-proto")?.split(",")[0].trim().toLowerCase() === "https";
    if (fromProxy ? !httpsViaProxy : !isLoopback(ip)) {
      return json(403, { error: "HTTPS required: plain HTTP is accepted only from loopback or a trusted proxy" });
    }
  }
  const len = request.headers.get("content-length");
  if (len !== null) {
    const limit = bodyLimitFor(cfg, new URL(request.url).pathname);
    if (!/^\d+$/.test(len)) return json(400, { error: "Invalid Content-Length" });
    if (Number(len) > limit) return json(413, { error: "Request body too large" });
  } else if (request.headers.has("transfer-encoding")) {
    // No length to check up front: the limit is counted while the body is read.
    limitUndeclaredBody(request, bodyLimitFor(cfg, new URL(request.url).pathname));
  }
  return null;
}
