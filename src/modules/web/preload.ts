// The Link header of the app shell: what a cold load will ask for, named before the browser has even parsed the HTML,
// so those requests start alongside the first bundle instead of after it has run (docs/web.md, "Cold load").
//   - the chunks of the page the URL opens (modulepreload; the ideas list is in the first bundle and needs none);
//   - for nobody signed in, the boot requests that load makes (GET /auth/session and GET /setup, src/web/boot.ts).
//     A signed-in browser's shell carries the session's answer (and /ideas's first page) inline instead
//     (src/modules/web/boot-data.ts), so it names no request.
// Each `as=fetch; crossorigin` preload matches the app's own fetch (same URL, CORS mode, same-origin credentials), so
// Chromium hands that answer to it; a preload nobody uses would log a console warning.
import { ALSO_PRELOAD, BOOT_REQUESTS, HOME, routeOf, type PageModule } from "../../web/route-table";

export function preloadLinks(url: URL, signedIn: boolean, chunks: Record<string, string[]>): string {
  const links: string[] = [];
  const module = routeOf(url.pathname === "/" ? HOME : url.pathname)?.module;
  if (module) {
    const files = new Set([module, ...(ALSO_PRELOAD[module as PageModule] ?? [])].flatMap((m) => chunks[m] ?? []));
    for (const f of files) links.push(`<${f}>; rel=modulepreload`);
  }
  if (!signedIn) for (const r of BOOT_REQUESTS) links.push(`<${r}>; rel=preload; as=fetch; crossorigin`);
  return links.join(", ");
}
