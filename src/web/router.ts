// A small history router: every page has its own URL, links are plain <a href>, back/forward and reload just work.
import { useEffect, useState } from "preact/hooks";

export interface Location { path: string; query: URLSearchParams }

const listeners = new Set<() => void>();
const current = (): Location => ({ path: window.location.pathname, query: new URLSearchParams(window.location.search) });

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (to === window.location.pathname + window.location.search) return;
  if (opts.replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  if (!opts.replace) window.scrollTo(0, 0);
  for (const fn of listeners) fn();
}

/** Re-renders the caller whenever the URL changes. */
export function useLocation(): Location {
  const [loc, setLoc] = useState(current);
  useEffect(() => {
    const update = () => setLoc(current());
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return loc;
}

export { matchPath } from "./route-table";

/** Same-origin <a href> clicks navigate in place; modified clicks, downloads and other tabs keep browser behaviour. */
export function interceptLinks(): void {
  document.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.("a");
    if (!a || a.target || a.hasAttribute("download") || a.dataset.native !== undefined) return;
    const url = new URL(a.href, window.location.href);
    if (url.origin !== window.location.origin || url.pathname.startsWith("/api/")) return;
    e.preventDefault();
    navigate(url.pathname + url.search);
  });
}

/** Sets the query string of the current page without a new history entry (filters, search terms). */
export function setQuery(params: Record<string, string | undefined | null>): void {
  const q = new URLSearchParams(window.location.search);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "") q.delete(k);
    else q.set(k, v);
  }
  const s = q.toString();
  navigate(window.location.pathname + (s ? `?${s}` : ""), { replace: true });
}
