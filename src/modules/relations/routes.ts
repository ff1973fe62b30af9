// Relation routes: the per-idea listing and relation editing on the map (Pro: each edit route's access names the gate).
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createRelationsService } from "./service";
import { CreateRelationBody, ForceQuery, UpdateRelationBody } from "./model";

const IdParam = t.Object({ id: t.String() });

export function relationsRoutes(deps: Deps, kit: AuthKit) {
  const relations = createRelationsService(deps);
  return new Elysia()
    .use(authPlugin(deps, kit))
    .get("/ideas/:id/relations", ({ auth, params }) => relations.list(auth.user.id, params.id), { access: { scope: "ideas:read" }, params: IdParam })
    .post("/map/relations", async ({ auth, body, query, set }) => {
      const out = await relations.create(auth.user.id, body, query.force === "true");
      set.status = 201;
      return out;
    }, { access: { scope: "ideas:write", gate: "relations" }, body: CreateRelationBody, query: ForceQuery })
    .patch("/map/relations/:id", ({ auth, params, body, query }) =>
      relations.update(auth.user.id, params.id, body, query.force === "true"),
    { access: { scope: "ideas:write", gate: "relations" }, params: IdParam, body: UpdateRelationBody, query: ForceQuery })
    .delete("/map/relations/:id", ({ auth, params }) => relations.remove(auth.user.id, params.id), { access: { scope: "ideas:write", gate: "relations" }, params: IdParam });
}
