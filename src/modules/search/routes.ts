// GET /ideas/search: keyword (FTS5/BM25) and semantic (sqlite-vec KNN + second stage) search over the caller's ideas.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { SearchQuery } from "./model";
import { createSearchService } from "./service";
import { responses } from "../../http/responses";
import { REFUSED, SearchResults } from "../../contract/responses";

export function searchRoutes(deps: Deps, kit: AuthKit) {
  const search = createSearchService(deps);
  return new Elysia({ prefix: "/ideas" })
    .use(authPlugin(deps, kit))
    .get("/search", ({ auth, query }) => search.search(auth, query), { access: { scope: "ideas:read" }, query: SearchQuery, response: responses({ 200: SearchResults, ...REFUSED }) });
}
