// /review routes: the queue, its counts (a static segment, an addition for badges) and the "keep" action.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { ideaId } from "../../http/params";
import { createReviewService } from "./service";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, REFUSED_BY_ID, ReviewCountsOnly, ReviewQueue, Success } from "../../contract/responses";

export function reviewRoutes(deps: Deps, kit: AuthKit) {
  const review = createReviewService(deps);
  return new Elysia({ prefix: "/review" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth }) => review.queue(auth.user.id, auth.plan), { access: { scope: "ideas:read" }, response: responses({ 200: ReviewQueue, ...AUTH_ERRORS }) })
    .get("/counts", ({ auth }) => review.counts(auth.user.id, auth.plan), { access: { scope: "ideas:read" }, response: responses({ 200: ReviewCountsOnly, ...AUTH_ERRORS }) })
    .post("/:ideaId/keep", ({ auth, params }) => review.keep(auth.user.id, ideaId(params.ideaId)), {
      access: { scope: "ideas:write" },
      params: t.Object({ ideaId: t.String() }),
      response: responses({ 200: Success, ...REFUSED_BY_ID }),
    });
}
