// The public base URL of this instance as the client reached it: the request's own origin, or what a trusted proxy says.
import type { Config } from "../../config";

const first = (v: string | null) => v?.split(",")[0].trim() ?? "";
const HOST_RE = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * X-Forwarded-Proto/Host are believed only from an address in trusted_proxies (the same rule as the HTTPS check), so a
 * client talking to us directly cannot make the metadata point somewhere else. No trailing slash: the issuer must be
 * compared verbatim by clients.
 */
export function baseUrl(config: Readonly<Config>, request: Request, peer: string | undefined): string {
  // A configured public address wins: it is what people (and OAuth clients) use, whatever Host the proxy passes on.
  if (config.public_base_url) return config.public_base_url.replace(/\/+$/, "");
  const url = new URL(request.url);
  let proto = url.protocol.slice(0, -1);
  let host = url.host;
  if (peer !== undefined && config.trusted_proxies.includes(peer)) {
    const p = first(request.headers.get("x-forwarded-proto")).toLowerCase();
    if (p === "http" || p === "https") proto = p;
    const h = first(request.headers.get("x-forwarded-host"));
    if (HOST_RE.test(h)) host = h;
  }
  return `${proto}://${host}`;
}
