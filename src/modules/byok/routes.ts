// /user/byok routes: save, delete and test provider keys (saving and testing are Pro), and the status summary.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createByokService } from "./service";
import { ProviderParams, SaveKeyBody } from "./model";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, ProviderKeyChanged, ProviderKeyTest, ProviderKeys, REFUSED, REFUSED_BY_ID } from "../../contract/responses";

export function byokRoutes(deps: Deps, kit: AuthKit) {
  const byok = createByokService(deps);
  return new Elysia({ prefix: "/user/byok" })
    .use(authPlugin(deps, kit))
    .get("/status", ({ auth }) => byok.status(auth.user.id), { access: { scope: "account:admin" }, response: responses({ 200: ProviderKeys, ...AUTH_ERRORS }) })
    .put("/:provider", ({ auth, params, body }) => byok.saveKey(auth.user.id, params.provider, body), {
      access: { scope: "account:admin", gate: "byok" },
      params: ProviderParams,
      body: SaveKeyBody,
      response: responses({ 200: ProviderKeyChanged, ...REFUSED }),
    })
    .delete("/:provider", ({ auth, params }) => byok.deleteKey(auth.user.id, params.provider), { access: { scope: "account:admin" }, params: ProviderParams, response: responses({ 200: ProviderKeyChanged, ...REFUSED_BY_ID }) })
    .post("/:provider/test", ({ auth, params }) => byok.testKey(auth.user.id, params.provider), { access: { scope: "account:admin", gate: "byok" }, params: ProviderParams, response: responses({ 200: ProviderKeyTest, ...REFUSED }) });
}
