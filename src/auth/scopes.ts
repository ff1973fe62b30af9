// Which scope a route needs. Only MCP tokens carry scopes; null scopes (keys, sessions) mean full access.
export const READ = "ideas:read";
export const WRITE = "ideas:write";
/** Account administration (keys, provider keys, profile edits) is never granted to a scoped token. */
export const ACCOUNT = "account:admin";

export function requiredScope(method: string, path: string): string | null {
  if (path.startsWith("/auth/")) return null; // signing out needs no scope
  if (path.startsWith("/admin/")) return ACCOUNT; // operator routes: never reachable with an MCP token
  if (path.startsWith("/user/")) {
    if (path === "/user/me" && method === "GET") return READ;
    if (/^\/user\/export(\/(csv|markdown))?\/?$/.test(path)) return READ; // exports only read ideas
    return ACCOUNT;
  }
  return method === "GET" || method === "HEAD" ? READ : WRITE;
}

export function hasScope(scopes: string | null, needed: string | null): boolean {
  if (scopes === null || needed === null) return true;
  return scopes.split(/\s+/).includes(needed);
}
