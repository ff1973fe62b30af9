// The scopes an MCP token can carry. Only MCP tokens carry scopes; null scopes (keys, sessions) mean full access.
export const READ = "ideas:read";
export const WRITE = "ideas:write";
/** Account administration (keys, provider keys, profile edits) is never granted to a scoped token. */
export const ACCOUNT = "account:admin";

export type Scope = typeof READ | typeof WRITE | typeof ACCOUNT;

export function hasScope(scopes: string | null, needed: Scope | null): boolean {
  if (scopes === null || needed === null) return true;
  return scopes.split(/\s+/).includes(needed);
}
