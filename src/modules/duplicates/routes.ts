// /ideas/duplicates routes: the pending listing, dismiss and merge. Static segments, so `/ideas/:id` never sees them.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { duplicateId, parseIdList } from "../../http/params";
import { createDuplicatesService } from "./service";

const IdParams = t.Object({ id: t.String() });
// An addition to the spec's listing: `idea_ids` restricts it to the detections that pair those ideas (at most 100).
const ListQuery = t.Object({
  idea_ids: t.Optional(t.String({
    description: "Comma-separated idea ids (at most 100): only the detections where either idea is one of them. An addition to the spec's listing, for badging a page of ideas.",
    examples: ["12,13,40"],
  })),
});
export const MAX_IDEA_IDS = 100;

export function duplicatesRoutes(deps: Deps, kit: AuthKit) {
  const duplicates = createDuplicatesService(deps);
  return new Elysia({ prefix: "/ideas/duplicates" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth, query }) => duplicates.list(auth.user.id, auth.plan, parseIdList(query.idea_ids, "idea_ids", MAX_IDEA_IDS)), {
      access: { scope: "ideas:read" },
      query: ListQuery,
    })
    .post("/:id/dismiss", ({ auth, params }) => duplicates.dismiss(auth.user.id, duplicateId(params.id)), { access: { scope: "ideas:write" }, params: IdParams })
    .post("/:id/merge", ({ auth, params }) => duplicates.merge(auth.user.id, duplicateId(params.id)), { access: { scope: "ideas:write" }, params: IdParams });
}
