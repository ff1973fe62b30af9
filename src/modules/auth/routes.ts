// /auth/login and /auth/logout: issue and end sign-in sessions (Bearer token and HTTP-only svc_session cookie).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { SESSION_COOKIE, SESSION_DAYS } from "../../auth/credentials";
import { createAuthService } from "./service";
import { LoginBody } from "./model";

export function authRoutes(deps: Deps, kit: AuthKit) {
  const auth = createAuthService(deps);
  const secure = deps.config.tls_cert_file !== null || deps.config.trusted_proxies.length > 0;
  const cookie = (value: string, maxAge: number) =>
    `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;

  const login = new Elysia({ prefix: "/auth" }).post("/login", async ({ body, set }) => {
    const out = await auth.login(body);
    set.headers["set-cookie"] = cookie(out.token, SESSION_DAYS * 86_400);
    return out;
  }, { body: LoginBody });

  const logout = new Elysia({ prefix: "/auth" })
    .use(authPlugin(deps, kit))
    .post("/logout", ({ auth: who, set }) => {
      set.headers["set-cookie"] = cookie("", 0);
      return auth.logout(who.sessionHash);
    });

  return new Elysia().use(login).use(logout);
}
