// /user/byok routes: save, delete and test provider keys (saving and testing are Pro), and the status summary.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createByokService } from "./service";
import { ProviderParams, SaveKeyBody } from "./model";

export function byokRoutes(deps: Deps, kit: AuthKit) {
  const byok = createByokService(deps);
  return new Elysia({ prefix: "/user/byok" })
    .use(authPlugin(deps, kit))
    .get("/status", ({ auth }) => byok.status(auth.user.id), { access: { scope: "account:admin" } })
    .put("/:provider", ({ auth, params, body }) => byok.saveKey(auth.user.id, params.provider, body), {
      access: { scope: "account:admin", gate: "byok" },
      params: ProviderParams,
      body: SaveKeyBody,
    })
    .delete("/:provider", ({ auth, params }) => byok.deleteKey(auth.user.id, params.provider), { access: { scope: "account:admin" }, params: ProviderParams })
    .post("/:provider/test", ({ auth, params }) => byok.testKey(auth.user.id, params.provider), { access: { scope: "account:admin", gate: "byok" }, params: ProviderParams });
}
