// /ideas/duplicates routes: the pending listing, dismiss and merge. Static segments, so `/ideas/:id` never sees them.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { duplicateId } from "../../http/params";
import { createDuplicatesService } from "./service";

const IdParams = t.Object({ id: t.String() });

export function duplicatesRoutes(deps: Deps, kit: AuthKit) {
  const duplicates = createDuplicatesService(deps);
  return new Elysia({ prefix: "/ideas/duplicates" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth }) => duplicates.list(auth.user.id, auth.plan), { access: { scope: "ideas:read" } })
    .post("/:id/dismiss", ({ auth, params }) => duplicates.dismiss(auth.user.id, duplicateId(params.id)), { access: { scope: "ideas:write" }, params: IdParams })
    .post("/:id/merge", ({ auth, params }) => duplicates.merge(auth.user.id, duplicateId(params.id)), { access: { scope: "ideas:write" }, params: IdParams });
}
