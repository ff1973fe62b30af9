// /ideas/:id/links routes: list, add, remove.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { ideaId, linkId } from "../../http/params";
import { createLinksService } from "./service";
import { CreateLinkBody } from "./model";
import { responses } from "../../http/responses";
import { LinkList, OneLink, REFUSED_BY_ID, Success } from "../../contract/responses";

const IdeaParams = t.Object({ id: t.String() });
// Ids are checked in transform, before body validation, so a bad id always answers its own 400.
const byIdea = { params: IdeaParams, transform: ({ params }: { params: { id: string } }) => void ideaId(params.id) };

export function linksRoutes(deps: Deps, kit: AuthKit) {
  const links = createLinksService(deps);
  return new Elysia({ prefix: "/ideas/:id/links" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth, params }) => links.list(auth.user.id, ideaId(params.id)), { ...byIdea, access: { scope: "ideas:read" }, response: responses({ 200: LinkList, ...REFUSED_BY_ID }) })
    .post("/", async ({ auth, params, body, set }) => {
      const out = await links.create(auth.user.id, ideaId(params.id), body);
      set.status = 201;
      return out;
    }, { ...byIdea, access: { scope: "ideas:write" }, body: CreateLinkBody, response: responses({ 201: OneLink, ...REFUSED_BY_ID }) })
    .delete("/:linkId", ({ auth, params }) => links.remove(auth.user.id, ideaId(params.id), linkId(params.linkId)), {
      access: { scope: "ideas:write" },
      params: t.Object({ id: t.String(), linkId: t.String() }),
      response: responses({ 200: Success, ...REFUSED_BY_ID }),
    });
}
