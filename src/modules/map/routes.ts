// GET /map: the whole graph for every plan, no pagination.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createMapService } from "./service";
import { MapQuery } from "./model";

export function mapRoutes(deps: Deps, kit: AuthKit) {
  const map = createMapService(deps);
  return new Elysia({ prefix: "/map" })
    .use(authPlugin(deps, kit))
    .get("/", ({ auth, query }) => map.graph(auth.user.id, query), { access: { scope: "ideas:read" }, query: MapQuery });
}
