// POST /ideas/:id/develop: turn one idea into a spec with the caller's own AI provider key; GET: the last one made
// (404 before the first); GET /ideas/:id/spec: the same, answering `spec: null` before the first (what the web app asks).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createDevelopService } from "./service";
import { responses } from "../../http/responses";
import { DevelopRefused, DevelopedSpec, ErrorBody, REFUSED_BY_ID, SpecOrNone, StoredSpec } from "../../contract/responses";

export function developRoutes(deps: Deps, kit: AuthKit) {
  const develop = createDevelopService(deps);
  return new Elysia({ prefix: "/ideas" })
    .use(authPlugin(deps, kit))
    .post("/:id/develop", ({ auth, params }) => develop.develop(auth.user.id, params.id), { access: { scope: "ideas:write" }, response: responses({ 200: DevelopedSpec, ...REFUSED_BY_ID, 400: DevelopRefused, 502: ErrorBody }) })
    .get("/:id/develop", ({ auth, params }) => develop.lastSpec(auth.user.id, params.id), { access: { scope: "ideas:read" }, response: responses({ 200: StoredSpec, ...REFUSED_BY_ID }) })
    .get("/:id/spec", ({ auth, params }) => develop.specOrNone(auth.user.id, params.id), { access: { scope: "ideas:read" }, response: responses({ 200: SpecOrNone, ...REFUSED_BY_ID }) });
}
