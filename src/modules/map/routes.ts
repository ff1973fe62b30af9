// GET /map: the whole graph for every plan, no pagination.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createMapService } from "./service";
import { MapQuery } from "./model";
import { responses } from "../../http/responses";
import { MapGraph, REFUSED } from "../../contract/responses";

export function mapRoutes(deps: Deps, kit: AuthKit) {
  const map = createMapService(deps);
  return new Elysia({ prefix: "/map" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth, query }) => map.graph(auth.user.id, query), { access: { scope: "ideas:read" }, query: MapQuery, response: responses({ 200: MapGraph, ...REFUSED }) });
}
