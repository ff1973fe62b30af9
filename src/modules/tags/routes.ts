// /tags routes: list with counts, similar tags, create, update, delete.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { tagId } from "../../http/params";
import { createTagsService } from "./service";
import { CreateTagBody, SimilarQuery, UpdateTagBody } from "./model";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, ErrorBody, OneTag, REFUSED, REFUSED_BY_ID, SimilarTags, Success, TagList } from "../../contract/responses";

const byId = { params: t.Object({ id: t.String() }), transform: ({ params }: { params: { id: string } }) => void tagId(params.id) };

export function tagsRoutes(deps: Deps, kit: AuthKit) {
  const tags = createTagsService(deps);
  return new Elysia({ prefix: "/tags" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth }) => tags.list(auth.user.id), { access: { scope: "ideas:read" }, response: responses({ 200: TagList, ...AUTH_ERRORS }) })
    .get("/similar", ({ auth, query }) => tags.similar(auth.user.id, query), { access: { scope: "ideas:read" }, query: SimilarQuery, response: responses({ 200: SimilarTags, ...REFUSED, 404: ErrorBody }) })
    .post("/", async ({ auth, body, set }) => {
      const out = await tags.create(auth.user.id, body);
      set.status = 201;
      return out;
    }, { access: { scope: "ideas:write" }, body: CreateTagBody, response: responses({ 201: OneTag, ...REFUSED, 409: ErrorBody }) })
    .patch("/:id", ({ auth, params, body }) => tags.update(auth.user.id, tagId(params.id), body), { ...byId, access: { scope: "ideas:write" }, body: UpdateTagBody, response: responses({ 200: OneTag, ...REFUSED_BY_ID, 409: ErrorBody }) })
    .delete("/:id", ({ auth, params }) => tags.remove(auth.user.id, tagId(params.id)), { ...byId, access: { scope: "ideas:write" }, response: responses({ 200: Success, ...REFUSED_BY_ID }) });
}
