// The Elysia plugin every authenticated module uses: credentials → rate limit → scope → Pro gate, all before validation.
import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { planGate, rateLimited, scopeError, unauthorized } from "../errors";
import { createCredentialResolver, type AuthContext } from "./credentials";
import { DAILY_REQUEST_LIMIT, findGate } from "./plans";
import { createRateLimiter, type RateLimiter } from "./rate-limiter";
import { hasScope, requiredScope } from "./scopes";

export const API_PREFIX = "/api/v1";

export interface AuthKit {
  resolver: ReturnType<typeof createCredentialResolver>;
  limiter: RateLimiter;
}

export function createAuthKit(deps: Deps): AuthKit {
  return { resolver: createCredentialResolver(deps), limiter: createRateLimiter(deps.db) };
}

/** Checks who may reach a group of routes; runs before the rate limit and scopes, so a refusal counts nothing. */
export type Admit = (auth: AuthContext) => void;

/** Runs the whole credential pipeline for one request; throws the spec's error bodies. */
export function authenticate(deps: Deps, kit: AuthKit, request: Request, path: string, admit?: Admit): AuthContext {
  const now = deps.clock();
  const auth = kit.resolver.resolve(request.headers, now);
  if (!auth) throw unauthorized();
  admit?.(auth);
  // Cookie requests come from the web app and are exempt; every key and bearer call shares the user's one quota.
  if (auth.via !== "session-cookie" && !kit.limiter.hit(auth.user.id, DAILY_REQUEST_LIMIT[auth.plan], now)) {
    throw rateLimited();
  }
  const route = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
  const scope = requiredScope(request.method, route);
  if (scope !== null && !hasScope(auth.scopes, scope)) throw scopeError(scope);
  const gate = findGate(request.method, route);
  if (gate && auth.plan !== "pro") throw planGate(gate.label, gate.feature, deps.config.upgrade_url);
  return auth;
}

export function authPlugin(deps: Deps, kit: AuthKit, admit?: Admit) {
  return new Elysia().derive({ as: "scoped" }, ({ request, path }) => ({
    auth: authenticate(deps, kit, request, path, admit),
  }));
}
