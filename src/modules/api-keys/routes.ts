// /user/api-keys and /user/mcp-tokens: list, create (Pro: its access names the gate), revoke.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createApiKeysService } from "./service";
import { CreateKeyBody } from "./model";
import { responses } from "../../http/responses";
import { ApiKeys, AUTH_ERRORS, CreatedApiKey, ErrorBody, McpTokens, REFUSED, Success } from "../../contract/responses";

export function apiKeysRoutes(deps: Deps, kit: AuthKit) {
  const keys = createApiKeysService(deps);
  return new Elysia({ prefix: "/user" })
    .use(authPlugin(deps, kit))
    .get("/api-keys", ({ auth }) => keys.list(auth.user.id), { access: { scope: "account:admin" }, response: responses({ 200: ApiKeys, ...AUTH_ERRORS }) })
    .post("/api-keys", ({ auth, body, set }) => {
      set.status = 201;
      return keys.mint(auth.user.id, body?.label ?? "default", null, "manual");
    }, { access: { scope: "account:admin", gate: "api_keys" }, body: CreateKeyBody, response: responses({ 201: CreatedApiKey, ...REFUSED }) })
    .delete("/api-keys/:id", ({ auth, params }) => keys.revoke(auth.user.id, params.id), { access: { scope: "account:admin" }, response: responses({ 200: Success, ...AUTH_ERRORS, 404: ErrorBody }) })
    .get("/mcp-tokens", ({ auth }) => keys.listMcp(auth.user.id), { access: { scope: "account:admin" }, response: responses({ 200: McpTokens, ...AUTH_ERRORS }) });
}
