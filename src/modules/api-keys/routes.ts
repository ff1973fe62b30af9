// /user/api-keys and /user/mcp-tokens: list, create (Pro, gated centrally), revoke.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createApiKeysService } from "./service";
import { CreateKeyBody } from "./model";

export function apiKeysRoutes(deps: Deps, kit: AuthKit) {
  const keys = createApiKeysService(deps);
  return new Elysia({ prefix: "/user" })
    .use(authPlugin(deps, kit))
    .get("/api-keys", ({ auth }) => keys.list(auth.user.id))
    .post("/api-keys", ({ auth, body, set }) => {
      set.status = 201;
      return keys.mint(auth.user.id, body?.label ?? "default", null, "manual");
    }, { body: CreateKeyBody })
    .delete("/api-keys/:id", ({ auth, params }) => keys.revoke(auth.user.id, params.id))
    .get("/mcp-tokens", ({ auth }) => keys.listMcp(auth.user.id));
}
