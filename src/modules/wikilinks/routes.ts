// /ideas/:id/wikilinks: what each [[link]] of an idea's body names, and the ideas whose links point at it.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { ideaId } from "../../http/params";
import { createWikilinks } from "./service";
import { responses } from "../../http/responses";
import { REFUSED_BY_ID, Wikilinks } from "../../contract/responses";

const byIdea = { params: t.Object({ id: t.String() }), transform: ({ params }: { params: { id: string } }) => void ideaId(params.id) };

export function wikilinksRoutes(deps: Deps, kit: AuthKit) {
  const wikilinks = createWikilinks(deps);
  return new Elysia({ prefix: "/ideas/:id/wikilinks" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth, params }) => wikilinks.view(auth.user.id, ideaId(params.id)), { ...byIdea, access: { scope: "ideas:read" }, response: responses({ 200: Wikilinks, ...REFUSED_BY_ID }) });
}
