// Relation routes: the per-idea listing and relation editing on the map (Pro gate and scopes are enforced centrally).
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
    .get("/ideas/:id/relations", ({ auth, params }) => relations.list(auth.user.id, params.id), { params: IdParam })
    .post("/map/relations", ({ auth, body, query, set }) => {
      const out = relations.create(auth.user.id, body, query.force === "true");
      set.status = 201;
      return out;
    }, { body: CreateRelationBody, query: ForceQuery })
    .patch("/map/relations/:id", ({ auth, params, body, query }) =>
      relations.update(auth.user.id, params.id, body, query.force === "true"),
    { params: IdParam, body: UpdateRelationBody, query: ForceQuery })
    .delete("/map/relations/:id", ({ auth, params }) => relations.remove(auth.user.id, params.id), { params: IdParam });
}
