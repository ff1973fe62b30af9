// Relation routes: the per-idea listing and relation editing on the map (Pro: each edit route's access names the gate).
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createRelationsService } from "./service";
import { CreateRelationBody, ForceQuery, UpdateRelationBody } from "./model";
import { responses } from "../../http/responses";
import { CreatedRelations, ErrorBody, UpdatedRelation, REFUSED_BY_ID, RelationLists, Success } from "../../contract/responses";

const IdParam = t.Object({ id: t.String() });

export function relationsRoutes(deps: Deps, kit: AuthKit) {
  const relations = createRelationsService(deps);
  return new Elysia()
    .use(authPlugin(deps, kit))
    .get("/ideas/:id/relations", ({ auth, params }) => relations.list(auth.user.id, params.id), { access: { scope: "ideas:read" }, params: IdParam, response: responses({ 200: RelationLists, ...REFUSED_BY_ID }) })
    .post("/map/relations", async ({ auth, body, query, set }) => {
      const out = await relations.create(auth.user.id, body, query.force === "true");
      set.status = 201;
      return out;
    }, { access: { scope: "ideas:write", gate: "relations" }, body: CreateRelationBody, query: ForceQuery, response: responses({ 201: CreatedRelations, ...REFUSED_BY_ID, 409: ErrorBody }) })
    .patch("/map/relations/:id", ({ auth, params, body, query }) =>
      relations.update(auth.user.id, params.id, body, query.force === "true"),
    { access: { scope: "ideas:write", gate: "relations" }, params: IdParam, body: UpdateRelationBody, query: ForceQuery, response: responses({ 200: UpdatedRelation, ...REFUSED_BY_ID, 409: ErrorBody }) })
    .delete("/map/relations/:id", ({ auth, params }) => relations.remove(auth.user.id, params.id), { access: { scope: "ideas:write", gate: "relations" }, params: IdParam, response: responses({ 200: Success, ...REFUSED_BY_ID }) });
}
