// /review routes: the queue, its counts (a static segment, an addition for badges) and the "keep" action.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { ideaId } from "../../http/params";
import { createReviewService } from "./service";

export function reviewRoutes(deps: Deps, kit: AuthKit) {
  const review = createReviewService(deps);
  return new Elysia({ prefix: "/review" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth }) => review.queue(auth.user.id, auth.plan), { access: { scope: "ideas:read" } })
    .get("/counts", ({ auth }) => review.counts(auth.user.id, auth.plan), { access: { scope: "ideas:read" } })
    .post("/:ideaId/keep", ({ auth, params }) => review.keep(auth.user.id, ideaId(params.ideaId)), {
      access: { scope: "ideas:write" },
      params: t.Object({ ideaId: t.String() }),
    });
}
