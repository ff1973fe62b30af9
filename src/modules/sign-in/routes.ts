// /auth/login and /auth/logout: issue and end sign-in sessions (Bearer token and HTTP-only svc_session cookie);
// /auth/session (an addition): who is signed in, if anyone.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authenticate, authPlugin, type AuthKit } from "../../auth/plugin";
import { createUsersService } from "../users/service";
import { sessionCookie } from "./cookie";
import { createSignInService } from "./service";
import { LoginBody } from "./model";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, ErrorBody, PlanGateBody, SignedIn, Success, ValidationErrorBody, WhoIsSignedIn } from "../../contract/responses";

export function signInRoutes(deps: Deps, kit: AuthKit) {
  const signIn = createSignInService(deps);

  const login = new Elysia({ prefix: "/auth" }).post("/login", async ({ body, set }) => {
    const out = await signIn.login(body);
    set.headers["set-cookie"] = sessionCookie(deps.config, out.token);
    return out;
  }, { body: LoginBody, response: responses({ 200: SignedIn, 400: ValidationErrorBody, 401: ErrorBody, 429: ErrorBody }) });

  const logout = new Elysia({ prefix: "/auth" })
    .use(authPlugin(deps, kit))
    .post("/logout", async ({ auth, set }) => {
      set.headers["set-cookie"] = sessionCookie(deps.config, null);
      return await signIn.logout(auth.sessionHash);
    }, { access: { scope: null }, response: responses({ 200: Success, ...AUTH_ERRORS }) }); // signing out needs no scope

  // Public, so "nobody is signed in" is a 200 {user:null} rather than the 401 of GET /user/me, which browsers log as
  // an error on every signed-out visit. A credential that is present goes through the usual checks (quota, scope).
  const users = createUsersService(deps);
  const session = new Elysia({ prefix: "/auth" }).get("/session", async ({ request }) => {
    if (!(await kit.resolver.resolve(request.headers, deps.clock()))) return { user: null };
    return { user: await users.getMe((await authenticate(deps, kit, request, { scope: "ideas:read" })).user.id) };
  }, { response: responses({ 200: WhoIsSignedIn, 403: PlanGateBody, 429: ErrorBody }) }); // a present credential's scope and quota

  return new Elysia().use(login).use(logout).use(session);
}
