// /ideas/duplicates routes: the pending listing, the per-idea summary, dismiss and merge. Static segments, so
// `/ideas/:id` never sees them.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { duplicateId, parseIdList } from "../../http/params";
import { IdParams, ListQuery, MAX_IDEA_IDS, SummaryQuery } from "./model";
import { createDuplicatesService } from "./service";
import { responses } from "../../http/responses";
import { DuplicateSummaries, Detections, REFUSED, REFUSED_BY_ID, Success } from "../../contract/responses";

export function duplicatesRoutes(deps: Deps, kit: AuthKit) {
  const duplicates = createDuplicatesService(deps);
  return new Elysia({ prefix: "/ideas/duplicates" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth, query }) => duplicates.list(auth.user.id, auth.plan, parseIdList(query.idea_ids, "idea_ids", MAX_IDEA_IDS)), {
      access: { scope: "ideas:read" },
      query: ListQuery,
      response: responses({ 200: Detections, ...REFUSED }),
    })
    .get("/summary", ({ auth, query }) => duplicates.summarize(auth.user.id, auth.plan, parseIdList(query.idea_ids, "idea_ids", MAX_IDEA_IDS)), {
      access: { scope: "ideas:read" },
      query: SummaryQuery,
      response: responses({ 200: DuplicateSummaries, ...REFUSED }),
    })
    .post("/:id/dismiss", ({ auth, params }) => duplicates.dismiss(auth.user.id, duplicateId(params.id)), { access: { scope: "ideas:write" }, params: IdParams, response: responses({ 200: Success, ...REFUSED_BY_ID }) })
    .post("/:id/merge", ({ auth, params }) => duplicates.merge(auth.user.id, duplicateId(params.id)), { access: { scope: "ideas:write" }, params: IdParams, response: responses({ 200: Success, ...REFUSED_BY_ID }) });
}
