// The Elysia plugin every authenticated module uses: credentials → rate limit → the route's declared access, before validation.
import { Elysia, type AnyElysia, type DocumentDecoration } from "elysia";
import type { Deps } from "../deps";
import { rateLimited, unauthorized } from "../errors";
import { checkAccess, type Access } from "./access";
import { createCredentialResolver, type AuthContext } from "./credentials";
import type { Ride } from "./credential-repo";
import { DAILY_REQUEST_LIMIT } from "./plans";
import { createRateLimiter, type RateLimiter } from "./rate-limiter";
import { ACCOUNT } from "./scopes";
import { recordRateLimitRefusal } from "../metrics/registry";

export const API_PREFIX = "/api/v1";

/** Where a route's `access` option is kept in its entry of the route table (`app.routes[i].hooks.detail`). */
export const ACCESS_DETAIL = "x-access";
/** Where its `ride` option is kept, beside it. */
const RIDE_DETAIL = "x-ride";

/**
 * A route's `ride` option: its first read as a Ride (auth/credential-repo.ts) made from the request as it came, before
 * the route's schema has checked it, or null when it cannot be (an unusual request reads the usual way). Where the
 * store counts in the credential's statement (PostgreSQL) the read runs there and the handler finds it in
 * `auth.ride`; the handler uses it only when its key is the one the checked request gives.
 */
export type RideOf = (request: Request) => Ride | null;

/** Fail closed: a route that declares nothing is out of every scoped token's reach and never silently open. */
const UNDECLARED: Access = { scope: ACCOUNT };

export interface AuthKit {
  resolver: ReturnType<typeof createCredentialResolver>;
  limiter: RateLimiter;
}

export function createAuthKit(deps: Deps): AuthKit {
  const limiter = createRateLimiter(deps.store);
  return { resolver: createCredentialResolver(deps, limiter), limiter };
}

/** Checks who may reach a group of routes; runs before the rate limit and scopes, so a refusal counts nothing. */
export type Admit = (auth: AuthContext) => void;

/** Runs the whole credential pipeline for one request; throws the spec's error bodies. */
export async function authenticate(deps: Deps, kit: AuthKit, request: Request, access: Access, admit?: Admit, ride?: RideOf): Promise<AuthContext> {
  const now = deps.clock();
  // Counted by the credential's own statement where the store allows (PostgreSQL): one round trip for both, and for
  // the route's first read when it declared one.
  const auth = await kit.resolver.resolve(request.headers, now, { count: true, ride: ride && kit.limiter.counting(now) ? ride(request) : null });
  if (!auth) throw unauthorized();
  try {
    admit?.(auth);
  } catch (e) {
    // A refusal counts nothing: a count the credential's statement took goes back.
    if (auth.counted !== undefined && auth.counted !== null) await kit.limiter.refund(auth.user.id, now);
    throw e;
  }
  // Cookie requests come from the web app and are exempt; every key and bearer call shares the user's one quota.
  if (auth.via !== "session-cookie" && !(await kit.limiter.hit(auth.user.id, DAILY_REQUEST_LIMIT[auth.plan], now, auth.counted))) {
    recordRateLimitRefusal();
    throw rateLimited();
  }
  checkAccess(auth, access, deps.config.upgrade_url);
  return auth;
}

interface Declared { access: Access; ride?: RideOf }

/** What each route of `app` declared, by "METHOD /path" as the module registered it (without API_PREFIX). */
function declaredAccess(app: AnyElysia): Map<string, Declared> {
  const table = new Map<string, Declared>();
  for (const route of app.routes) {
    const detail = route.hooks?.detail as Record<string, unknown> | undefined;
    const access = detail?.[ACCESS_DETAIL] as Access | undefined;
    if (access) table.set(`${route.method} ${route.path}`, { access, ride: detail?.[RIDE_DETAIL] as RideOf | undefined });
  }
  return table;
}

/** A declaration as an extension field of the route's document decoration, which Elysia keeps in the route table. */
const recorded = (field: string, value: unknown) => ({ [field]: value }) as DocumentDecoration;

/**
 * Authenticates every route of the module that uses it, and gives those routes the `access` option:
 * `.post("/map/relations", handler, { access: { scope: "ideas:write", gate: "relations" }, body: … })`.
 *
 * The check must run first among the module's transform hooks, before the routes' own (an id checked in transform,
 * the Free idea cap), and a hook a macro adds runs after those. So the macro only records the declaration in the
 * route's entry, and the derive, which runs first, finds it there by the matched route: a function plugin, because
 * it reads the route table of the module that uses it.
 */
export function authPlugin(deps: Deps, kit: AuthKit, admit?: Admit) {
  return (module: Elysia) => {
    // Built on the first request, when the module's route table is complete.
    let table: Map<string, Declared> | null = null;
    const declaredOf = (method: string, route: string): Declared => {
      table ??= declaredAccess(module);
      const path = route.startsWith(API_PREFIX) ? route.slice(API_PREFIX.length) : route;
      // A HEAD request is answered by the GET route.
      return table.get(`${method === "HEAD" ? "GET" : method} ${path}`) ?? table.get(`ALL ${path}`) ?? { access: UNDECLARED };
    };
    const plugin = new Elysia()
      .macro({
        access: (access: Access) => ({ detail: recorded(ACCESS_DETAIL, access) }),
        ride: (ride: RideOf) => ({ detail: recorded(RIDE_DETAIL, ride) }),
      })
      .derive({ as: "scoped" }, async ({ request, route }) => {
        const { access, ride } = declaredOf(request.method, route);
        return { auth: await authenticate(deps, kit, request, access, admit, ride) };
      });
    return module.use(plugin);
  };
}
