// The service worker (served at /sw.js): keeps the app shell so the app starts offline. Nothing else.
//
// - Page loads are network-first: online, the server's current index.html is always used (and remembered); offline,
//   the remembered one. It can never pin an old shell whose hashed assets the server no longer has.
// - /assets/* are content-hashed, so cache-first is safe; the entry assets of each remembered shell are fetched with
//   it, chunks are kept as they are used, and assets of an older shell are dropped when the shell changes.
// - /api/, /mcp and everything not GET pass straight through and are never cached: captures made offline wait in
//   the page's IndexedDB outbox, not here.
// No imports: bundled on its own, the output is a plain classic script (the empty export only makes this a module for tsc).
export {};

interface SwExtendableEvent extends Event { waitUntil(p: Promise<unknown>): void }
interface SwFetchEvent extends SwExtendableEvent { request: Request; respondWith(r: Response | Promise<Response>): void }
interface SwScope {
  addEventListener(type: "install" | "activate", fn: (e: SwExtendableEvent) => void): void;
  addEventListener(type: "fetch", fn: (e: SwFetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
}

const sw = self as unknown as SwScope;
const CACHE = "idearepo-shell-v1";
const SHELL = "/";
const STATIC = /^\/(favicon\.svg|icon[\w-]*\.(svg|png)|manifest\.webmanifest)$/;
const NEVER = /^\/(api|mcp|\.well-known)(\/|$)|^\/sw\.js$/;
// The inline boot data's element: its JSON never holds "<" (the server writes it as \u003c).
const BOOT_DATA = /<script type="application\/json" id="boot-data">[^<]*<\/script>/;

const entryAssets = (html: string) => [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]))];
// The chunks of the page a shell was served for (the Link header's modulepreloads: src/modules/web/preload.ts).
const linkedAssets = (res: Response) => [...(res.headers.get("link") ?? "").matchAll(/<(\/assets\/[^>]+)>;\s*rel=modulepreload/g)].map((m) => m[1]);

/**
 * Remembers this shell and the assets it loads (its entry assets and the chunks of its page); forgets assets of the
 * shell it replaces. A new shell also brings the chunks of the page `/` opens (capture), so an offline start can
 * capture even where that page was not visited since the update.
 */
async function rememberShell(res: Response): Promise<void> {
  const cache = await caches.open(CACHE);
  // A signed-in shell carries its person's session and first page inline (src/modules/web/boot-data.ts): never kept,
  // so an offline start after a sign-out shows nobody's data (the app then asks, as any shell without it does).
  const html = (await res.clone().text()).replace(BOOT_DATA, "");
  const before = await cache.match(SHELL);
  const oldAssets = before ? entryAssets(await before.text()) : [];
  const assets = [...entryAssets(html), ...linkedAssets(res)];
  // Kept without its Link header: that named the requests of one page and one visitor, not of an offline start.
  const headers = new Headers(res.headers);
  for (const h of ["link", "content-encoding", "content-length"]) headers.delete(h); // the body is the decoded text
  await cache.put(SHELL, new Response(html, { status: res.status, headers }));
  if (oldAssets.join() !== entryAssets(html).join()) {
    const home = await fetch(SHELL, { cache: "no-cache", credentials: "same-origin" }).catch(() => null);
    if (home?.ok) assets.push(...linkedAssets(home));
    for (const req of await cache.keys()) {
      const path = new URL(req.url).pathname;
      if (path.startsWith("/assets/") && !assets.includes(path)) await cache.delete(req);
    }
  }
  for (const path of new Set(assets)) {
    if (await cache.match(path)) continue;
    const a = await fetch(path);
    if (a.ok) await cache.put(path, a);
  }
}

async function precache(): Promise<void> {
  const res = await fetch(SHELL, { cache: "no-cache", credentials: "same-origin" });
  if (res.ok) await rememberShell(res);
  const cache = await caches.open(CACHE);
  await Promise.all(["/favicon.svg", "/manifest.webmanifest"].map(async (p) => {
    const r = await fetch(p);
    if (r.ok) await cache.put(p, r);
  }));
}

async function page(e: SwFetchEvent): Promise<Response> {
  try {
    const res = await fetch(e.request);
    if (res.ok && (res.headers.get("content-type") ?? "").startsWith("text/html")) e.waitUntil(rememberShell(res.clone()).catch(() => {}));
    return res;
  } catch {
    const cached = await caches.match(SHELL);
    return cached ?? new Response("idearepo is offline and this browser has no copy of the app yet.", { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
}

async function asset(req: Request): Promise<Response> {
  const cached = await caches.match(req);
  if (cached) return cached;
  const res = await fetch(req);
  if (res.ok) {
    const copy = res.clone();
    void caches.open(CACHE).then((c) => c.put(req, copy)).catch(() => {});
  }
  return res;
}

async function staticFile(req: Request): Promise<Response> {
  try {
    const res = await fetch(req);
    if (res.ok) {
      const copy = res.clone();
      void caches.open(CACHE).then((c) => c.put(req, copy)).catch(() => {});
    }
    return res;
  } catch (err) {
    const cached = await caches.match(req);
    if (cached) return cached;
    throw err;
  }
}

sw.addEventListener("install", (e) => {
  e.waitUntil(precache().catch(() => {}).then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (e) => {
  e.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("idearepo-") && name !== CACHE) await caches.delete(name);
    await sw.clients.claim();
  })());
});

sw.addEventListener("fetch", (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== sw.location.origin || NEVER.test(url.pathname)) return;
  if (req.mode === "navigate") return e.respondWith(page(e));
  if (url.pathname.startsWith("/assets/")) return e.respondWith(asset(req));
  if (STATIC.test(url.pathname)) return e.respondWith(staticFile(req));
});
