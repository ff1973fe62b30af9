// A cold load in a real browser: the shell's Link header names the boot requests and the page's chunks, Chromium
// uses those preloads (each API request goes out once, and nothing warns about an unused preload), and every page
// outside the first bundle opens from a cold load and from the navigation.
import { beforeAll, expect, test } from "bun:test";
import type { Page, Request } from "playwright-core";

declare const navigator: any;
import { api } from "../ops/harness";
import { describeBrowser, expectClean, openSignedIn, webScope, type WebServer } from "./harness";

/** Every request the page makes from now on, by path + query. */
function recordRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (r: Request) => {
    const u = new URL(r.url());
    seen.push(u.pathname + u.search);
  });
  return seen;
}

const modulePreloads = (link: string | null) => [...(link ?? "").matchAll(/<([^>]+)>; rel=modulepreload/g)].map((m) => m[1]);

describeBrowser("cold load", () => {
  const web = webScope("idearepo-web-load-");
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server();
  }, 30_000);

  test("the shell names the boot requests and the page's chunks; signed in, /ideas also names its first page", async () => {
    const out = await fetch(`${server.base}/ideas`);
    const link = out.headers.get("link") ?? "";
    expect(link).toContain("</api/v1/auth/session>; rel=preload; as=fetch; crossorigin");
    expect(link).toContain("</api/v1/setup>; rel=preload; as=fetch; crossorigin");
    expect(link).not.toContain("/api/v1/ideas?"); // nobody is signed in: the list would be a 401 nobody reads
    expect(modulePreloads(link)).toEqual([]); // the list is in the first bundle

    const tags = await fetch(`${server.base}/tags`);
    const chunks = modulePreloads(tags.headers.get("link"));
    expect(chunks.some((c) => /^\/assets\/tags-[a-z0-9]+\.js$/.test(c))).toBe(true);
    for (const c of chunks) {
      const r = await fetch(server.base + c);
      expect(r.status, c).toBe(200);
      expect(r.headers.get("content-type")).toContain("javascript");
      expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    // The map's page also names its view (sigma), which it imports as soon as it renders.
    expect(modulePreloads((await fetch(`${server.base}/map`)).headers.get("link")).some((c) => /^\/assets\/view-/.test(c))).toBe(true);
  });

  test("signed in, a cold load of /ideas asks each boot request once (the preloads are used) and warns about nothing", async () => {
    const o = await openSignedIn(web, server, "/ideas");
    const { page, key } = o;
    for (const title of ["First preloaded idea", "Second preloaded idea"]) expect((await api(server.base, key, "POST", "/ideas", { title })).status).toBe(201);
    const cookie = (await o.context.cookies()).find((c) => c.name === "svc_session")!;
    const shell = await fetch(`${server.base}/ideas`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    expect(shell.headers.get("link")).toContain("</api/v1/ideas?limit=50&offset=0>; rel=preload; as=fetch; crossorigin");

    const seen = recordRequests(page);
    await page.goto(`${server.base}/ideas`);
    await page.getByRole("link", { name: "Second preloaded idea", exact: true }).waitFor();
    // Had Chromium not used a preload, the app's own fetch would have gone out as a second request.
    const count = (p: string) => seen.filter((s) => s === p).length;
    expect({ session: count("/api/v1/auth/session"), setup: count("/api/v1/setup"), list: count("/api/v1/ideas?limit=50&offset=0") })
      .toEqual({ session: 1, setup: 1, list: 1 });
    // Chromium warns about a preload left unused a few seconds after the load event; the console guard fails on it.
    await page.waitForTimeout(3500);
    expectClean(o);
  }, 30_000);

  test("pages outside the first bundle open from a cold load and from the navigation, keyboard-first", async () => {
    const o = await openSignedIn(web, server, "/tags");
    const { page } = o;
    await page.getByRole("heading", { level: 1, name: "Tags" }).waitFor();
    // A cold load of a lazily loaded page (its chunk named in the Link header) …
    const seen = recordRequests(page);
    await page.goto(`${server.base}/settings`);
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    expect(seen.filter((s) => /^\/assets\/settings-/.test(s)).length).toBe(1);
    // … and from the navigation, by keyboard: focus on the link starts its chunk, Enter opens the page.
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Review" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Review" }).waitFor();
    await nav.getByRole("link", { name: "Capture" }).click();
    await page.getByRole("heading", { level: 1, name: "Capture an idea" }).waitFor();
    await nav.getByRole("link", { name: "Ideas" }).click();
    await page.getByRole("heading", { level: 1, name: "Ideas" }).waitFor();
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: "Capture an idea" }).waitFor();
    expectClean(o);
  }, 30_000);

  test("with the service worker serving the app, leaving for another site and coming back, or reloading, opens a lazy page", async () => {
    const o = await openSignedIn(web, server, "/settings");
    const { page } = o;
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
    await page.goto("about:blank");
    await page.goto(`${server.base}/settings#plan`);
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor({ timeout: 15_000 });
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor({ timeout: 15_000 });
    await page.goto(`${server.base}/tags`);
    await page.getByRole("heading", { level: 1, name: "Tags" }).waitFor({ timeout: 15_000 });
    expectClean(o);
  }, 60_000);
});
