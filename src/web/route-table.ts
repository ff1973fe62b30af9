// Which page module each URL opens, as plain data: the web app loads every page but the ideas list on demand
// (src/web/routes.tsx), and the server reads this table to name the current page's chunk and first requests in the
// HTML's Link header (src/modules/web/preload.ts), so both sides agree on one list.

/** Pages in the first bundle (the list, the usual cold load) have no module here; all others are their own chunk. */
export const PAGE_ROUTES = [
  { path: "/capture", module: "pages/capture.tsx" },
  { path: "/ideas", module: null },
  { path: "/ideas/:id", module: "pages/idea.tsx" },
  { path: "/search", module: "pages/search.tsx" },
  { path: "/map", module: "pages/map.tsx" },
  { path: "/review", module: "pages/review.tsx" },
  { path: "/ask", module: "pages/ask.tsx" },
  { path: "/tags", module: "pages/tags.tsx" },
  { path: "/settings", module: "pages/settings.tsx" },
  { path: "/admin", module: "pages/admin.tsx" },
] as const;

export type PageModule = NonNullable<(typeof PAGE_ROUTES)[number]["module"]>;

/** Chunks a page always imports as soon as it renders (the map's view), named beside the page's own. */
export const ALSO_PRELOAD: Partial<Record<PageModule, string[]>> = { "pages/map.tsx": ["pages/map/view.ts"] };

/** Where a signed-in person lands from `/` (src/web/app.tsx). */
export const HOME = "/capture";

/** The API requests the first page of the list makes on a cold load (src/web/boot.ts prefetches exactly this). */
export const IDEAS_FIRST_PAGE = "/api/v1/ideas?limit=50&offset=0";
/** Asked by every cold load (src/web/boot.ts): who is signed in, and whether the instance needs setup. */
export const BOOT_REQUESTS = ["/api/v1/auth/session", "/api/v1/setup"] as const;

/** `/ideas/:id` against `/ideas/12` → `{id:"12"}`; null when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split("/").filter(Boolean);
  const s = path.split("/").filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(":")) {
      try {
        params[p[i].slice(1)] = decodeURIComponent(s[i]);
      } catch {
        return null; // a malformed escape is no page of ours
      }
    } else if (p[i] !== s[i]) return null;
  }
  return params;
}

/** The route a URL path opens, or null (the not-found page). */
export function routeOf(path: string): (typeof PAGE_ROUTES)[number] | null {
  return PAGE_ROUTES.find((r) => matchPath(r.path, path) !== null) ?? null;
}
