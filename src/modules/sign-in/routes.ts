// /auth/login and /auth/logout: issue and end sign-in sessions (Bearer token and HTTP-only svc_session cookie).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { sessionCookie } from "./cookie";
import { createSignInService } from "./service";
import { LoginBody } from "./model";

export function signInRoutes(deps: Deps, kit: AuthKit) {
  const signIn = createSignInService(deps);

  const login = new Elysia({ prefix: "/auth" }).post("/login", async ({ body, set }) => {
    const out = await signIn.login(body);
    set.headers["set-cookie"] = sessionCookie(deps.config, out.token);
    return out;
  }, { body: LoginBody });

  const logout = new Elysia({ prefix: "/auth" })
    .use(authPlugin(deps, kit))
    .post("/logout", ({ auth, set }) => {
      set.headers["set-cookie"] = sessionCookie(deps.config, null);
      return signIn.logout(auth.sessionHash);
    }, { access: { scope: null } }); // signing out needs no scope

  return new Elysia().use(login).use(logout);
}
