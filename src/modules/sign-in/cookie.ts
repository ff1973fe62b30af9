// The svc_session cookie header: one definition for every route that signs a browser in or out.
import type { Config } from "../../config";
import { SESSION_COOKIE, SESSION_DAYS } from "../../auth/credentials";

/** Secure whenever the browser reaches us over HTTPS (our own TLS, or a trusted proxy terminating it). */
export function sessionCookie(config: Readonly<Config>, token: string | null): string {
  const secure = config.tls_cert_file !== null || config.trusted_proxies.length > 0;
  const maxAge = token === null ? 0 : SESSION_DAYS * 86_400;
  return `${SESSION_COOKIE}=${token ?? ""}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}
