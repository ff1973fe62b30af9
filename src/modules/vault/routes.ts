// /vault routes: the account's folder state for Settings, and choosing or disconnecting a folder under the
// operator's root (vaults_dir). Without a root, PUT and DELETE answer 403: only the operator binds folders.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, ErrorBody, REFUSED, VaultState } from "../../contract/responses";
import { createVaultFolders } from "./folder";
import { ChooseFolderBody } from "./model";

export function vaultRoutes(deps: Deps, kit: AuthKit) {
  const folders = createVaultFolders(deps);
  return new Elysia({ prefix: "/vault" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth }) => folders.state(auth.user.id), { access: { scope: "ideas:read" }, response: responses({ 200: VaultState, ...AUTH_ERRORS }) })
    .put("/", ({ auth, body }) => folders.choose(auth.user.id, body.folder), {
      access: { scope: "account:admin" },
      body: ChooseFolderBody,
      response: responses({ 200: VaultState, ...REFUSED, 409: ErrorBody }),
    })
    .delete("/", ({ auth }) => folders.disconnect(auth.user.id), { access: { scope: "account:admin" }, response: responses({ 200: VaultState, ...AUTH_ERRORS }) });
}
