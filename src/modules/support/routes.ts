// GET /user/support-link: asks the configured support service for a single-use sign-in URL; 502 when it can't.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { badGateway } from "../../errors";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, ErrorBody, SupportLink } from "../../contract/responses";

export function supportRoutes(deps: Deps, kit: AuthKit) {
  return new Elysia({ prefix: "/user" })
    .use(authPlugin(deps, kit))
    .get("/support-link", async ({ auth }) => {
      const target = deps.config.support_url;
      if (!target) throw badGateway("Failed to generate support link");
      try {
        const res = await fetch(target, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ user_id: auth.user.id, email: auth.user.email, display_name: auth.user.display_name }),
          signal: AbortSignal.timeout(10_000),
        });
        const out = (await res.json()) as { url?: unknown };
        if (!res.ok || typeof out.url !== "string") throw new Error(`status ${res.status}`);
        return { url: out.url };
      } catch {
        throw badGateway("Failed to generate support link");
      }
    }, { access: { scope: "account:admin" }, response: responses({ 200: SupportLink, ...AUTH_ERRORS, 502: ErrorBody }) });
}
