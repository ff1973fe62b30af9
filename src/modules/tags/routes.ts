// /tags routes: list with counts, similar tags, create, update, delete.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { tagId } from "../../http/params";
import { createTagsService } from "./service";
import { CreateTagBody, SimilarQuery, UpdateTagBody } from "./model";

const byId = { params: t.Object({ id: t.String() }), transform: ({ params }: { params: { id: string } }) => void tagId(params.id) };

export function tagsRoutes(deps: Deps, kit: AuthKit) {
  const tags = createTagsService(deps);
  return new Elysia({ prefix: "/tags" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth }) => tags.list(auth.user.id), { access: { scope: "ideas:read" } })
    .get("/similar", ({ auth, query }) => tags.similar(auth.user.id, query), { access: { scope: "ideas:read" }, query: SimilarQuery })
    .post("/", async ({ auth, body, set }) => {
      const out = await tags.create(auth.user.id, body);
      set.status = 201;
      return out;
    }, { access: { scope: "ideas:write" }, body: CreateTagBody })
    .patch("/:id", ({ auth, params, body }) => tags.update(auth.user.id, tagId(params.id), body), { ...byId, access: { scope: "ideas:write" }, body: UpdateTagBody })
    .delete("/:id", ({ auth, params }) => tags.remove(auth.user.id, tagId(params.id)), { ...byId, access: { scope: "ideas:write" } });
}
