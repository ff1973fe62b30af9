// Every page of the app with its URL, and the main navigation. The URL → page table is src/web/route-table.ts
// (plain data the server reads too); here each page module gets its loader: the ideas list is in the first bundle,
// every other page is its own chunk (src/web/lib/lazy-page.tsx).
import { IdeasPage } from "./pages/ideas";
import { NotFoundPage } from "./pages/not-found";
import { lazyPage, type LazyPage, type PageComponent } from "./lib/lazy-page";
import { HOME, PAGE_ROUTES, routeOf, type PageModule } from "./route-table";

// One literal import() per page, so the bundler makes each its own chunk; typed by the table, so none is missing.
const LAZY: Record<PageModule, LazyPage> = {
  "pages/capture.tsx": lazyPage(() => import("./pages/capture").then((m) => m.CapturePage)),
  "pages/idea.tsx": lazyPage(() => import("./pages/idea").then((m) => m.IdeaPage)),
  "pages/search.tsx": lazyPage(() => import("./pages/search").then((m) => m.SearchPage)),
  "pages/map.tsx": lazyPage(() => import("./pages/map").then((m) => m.MapPage)),
  "pages/review.tsx": lazyPage(() => import("./pages/review").then((m) => m.ReviewPage)),
  "pages/ask.tsx": lazyPage(() => import("./pages/ask").then((m) => m.AskPage as PageComponent)),
  "pages/tags.tsx": lazyPage(() => import("./pages/tags").then((m) => m.TagsPage)),
  "pages/settings.tsx": lazyPage(() => import("./pages/settings").then((m) => m.SettingsPage)),
  "pages/admin.tsx": lazyPage(() => import("./pages/admin").then((m) => m.AdminPage)),
};

export interface RouteDef { path: string; page: PageComponent }

export const ROUTES: RouteDef[] = PAGE_ROUTES.map((r) => ({ path: r.path, page: r.module ? LAZY[r.module].page : IdeasPage }));

export const FALLBACK = NotFoundPage;

/** Starts loading the chunk of the page at `path`, if it has one (no-op for the list and unknown paths). */
export function preloadPage(path: string): void {
  const module = routeOf(path === "/" ? HOME : path)?.module;
  if (module) LAZY[module].preload().catch(() => {}); // the page itself shows a failed load
}

/** A link's page starts loading when the pointer or keyboard focus reaches the link, before the click. */
export function preloadOnIntent(): void {
  const onIntent = (e: Event) => {
    const a = (e.target as Element | null)?.closest?.("a");
    if (!a || !a.href) return;
    const url = new URL(a.href, location.href);
    if (url.origin === location.origin) preloadPage(url.pathname);
  };
  document.addEventListener("pointerover", onIntent, { passive: true });
  document.addEventListener("focusin", onIntent);
}

export const NAV: Array<{ href: string; label: string; operatorOnly?: boolean }> = [
  { href: "/capture", label: "Capture" },
  { href: "/ideas", label: "Ideas" },
  { href: "/review", label: "Review" },
  { href: "/ask", label: "Ask" },
  { href: "/map", label: "Map" },
  { href: "/tags", label: "Tags" },
  { href: "/settings", label: "Settings" },
  { href: "/admin", label: "Operator", operatorOnly: true },
];
