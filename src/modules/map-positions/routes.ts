// /map/positions: the mind map's remembered node positions for the signed-in account (every plan, like GET /map).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createMapPositionsService } from "./service";
import { SavePositionsBody } from "./model";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, Positions, REFUSED, SavedPositions, Success } from "../../contract/responses";

export function mapPositionsRoutes(deps: Deps, kit: AuthKit) {
  const positions = createMapPositionsService(deps);
  return new Elysia({ prefix: "/map/positions" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth }) => positions.list(auth.user.id), { access: { scope: "ideas:read" }, response: responses({ 200: Positions, ...AUTH_ERRORS }) })
    .put("/", ({ auth, body }) => positions.save(auth.user.id, body), { access: { scope: "ideas:write" }, body: SavePositionsBody, response: responses({ 200: SavedPositions, ...REFUSED }) })
    .delete("/", ({ auth }) => positions.clear(auth.user.id), { access: { scope: "ideas:write" }, response: responses({ 200: Success, ...AUTH_ERRORS }) });
}
