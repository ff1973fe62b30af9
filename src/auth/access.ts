// What a route or an MCP tool asks of its caller, declared next to its handler: the scope and the Pro feature gate.
import { planGate, scopeError } from "../errors";
import type { AuthContext } from "./credentials";
import { PRO_FEATURES, type ProFeature } from "./plans";
import { hasScope, type Scope } from "./scopes";

/**
 * A REST route states it as the route option `access` (the auth plugin's macro, src/auth/plugin.ts); an MCP tool as
 * its `access` field (src/modules/mcp/tools.ts). test/foundation/access.test.ts fails for a route or tool without one.
 */
export interface Access {
  /** The scope an MCP token must carry; null when any credential will do (signing out). */
  scope: Scope | null;
  /** A Pro-only feature: a Free caller gets the plan-gate 403 naming it. */
  gate?: ProFeature;
}

/** Scope first, then the plan: a read-only token hears about its scope even on a Pro route (the spec's order). */
export function checkAccess(auth: Pick<AuthContext, "scopes" | "plan">, access: Access, upgradeUrl: string): void {
  if (!hasScope(auth.scopes, access.scope)) throw scopeError(access.scope!);
  if (access.gate && auth.plan !== "pro") throw planGate(PRO_FEATURES[access.gate], access.gate, upgradeUrl);
}
