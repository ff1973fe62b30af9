// The signed-in shell in a real browser: every page of the main navigation can be seen and reached at phone width, and
// nothing in the navigation moves while a page loads (the review badge is in its first render).
// Functions passed to page.evaluate run in the browser, where these exist.
declare const Element: any, PerformanceObserver: any, requestAnimationFrame: any;
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api, waitForQuiescence } from "../ops/harness";
import { describeBrowser, expectClean, openSignedIn, VIEWPORTS, webScope, type WebServer } from "./harness";

describeBrowser("shell at phone width", () => {
  const web = webScope("idearepo-web-shell-");
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server();
  }, 30_000);

  test("every link of the main navigation is inside the screen at 390 and 320 px, the current page's too", async () => {
    const o = await openSignedIn(web, server, "/settings", { viewport: "phone" });
    const { page } = o;
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const width of [390, VIEWPORTS.phone.width, 320]) {
      await page.setViewportSize({ width, height: 844 });
      const outside: string[] = [];
      for (const link of await nav.getByRole("link").all()) {
        const box = (await link.boundingBox())!;
        if (box.x < 0 || box.x + box.width > width) outside.push(`${await link.innerText()} (${Math.round(box.x)}–${Math.round(box.x + box.width)} px)`);
      }
      expect({ width, outside }).toEqual({ width, outside: [] });
    }
    expect(await nav.getByRole("link").count()).toBeGreaterThanOrEqual(7);
    expect(await nav.getByRole("link", { name: "Settings" }).getAttribute("aria-current")).toBe("page");
    expectClean(o);
  });

  test("the review badge is in the navigation's first render: nothing in the navigation moves as a page loads, phone or desktop", async () => {
    const o = await openSignedIn(web, server, "/capture", { viewport: "phone" });
    const { page, key } = o;
    // 105 new connections to review: a three-digit badge, as on an account with a thousand pending duplicates.
    const ids: number[] = [];
    for (let i = 0; i < 15; i++) ids.push((await api(server.base, key, "POST", "/ideas", { title: `Garden plan number ${i}` })).body.id);
    // The background pass first (it may relate some of these itself), so the counts stay put while they are compared.
    await waitForQuiescence(server.dataDir);
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const made = await api(server.base, key, "POST", "/map/relations", { source_idea_id: ids[i], target_idea_id: ids[j], relation_type: "inspires" });
        expect([201, 409], made.text).toContain(made.status); // 409: the pass related the two already
      }
    }
    // The shell carries the same counts GET /review/counts answers.
    const cookie = (await o.context.cookies()).find((c) => c.name === "svc_session")!;
    const headers = { cookie: `${cookie.name}=${cookie.value}` };
    const html = await (await fetch(`${server.base}/capture`, { headers })).text();
    const inline = JSON.parse(/<script type="application\/json" id="boot-data">([^<]*)<\/script>/.exec(html)![1]);
    const counts = (await (await fetch(`${server.base}/api/v1/review/counts`, { headers })).json()) as { counts: { total: number } };
    expect(inline.review_counts).toEqual(counts);
    expect(counts.counts.total).toBeGreaterThanOrEqual(105);

    // Lighthouse's phone (412 px: the links wrap onto two rows), a small phone, and a desktop.
    for (const viewport of [{ width: 412, height: 823 }, { width: 320, height: 640 }, VIEWPORTS.desktop]) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.base}/capture`);
      await page.getByRole("link", { name: new RegExp(`^Review\\s*, ${counts.counts.total} to review$`) }).waitFor();
      expect({ viewport, shifts: await navShifts(page) }).toEqual({ viewport, shifts: [] });
    }
    expectClean(o);
  }, 60_000);
});

/** The layout shifts of this page load that moved something in the main navigation (after two more frames). */
function navShifts(page: Page): Promise<string[]> {
  return page.evaluate(() => new Promise<string[]>((resolve) => {
    type Rect = { x: number; y: number; width: number; height: number };
    type Shift = { startTime: number; value: number; sources: Array<{ node: any; previousRect: Rect; currentRect: Rect }> };
    const found: string[] = [];
    const seen = new PerformanceObserver((list: { getEntries(): Shift[] }) => {
      for (const e of list.getEntries()) {
        for (const s of e.sources) {
          const el = s.node instanceof Element ? s.node : s.node?.parentElement;
          if (!el?.closest("nav[aria-label='Main']")) continue;
          const r = (x: Rect) => `${Math.round(x.x)},${Math.round(x.y)} ${Math.round(x.width)}×${Math.round(x.height)}`;
          found.push(`at ${Math.round(e.startTime)} ms (score ${e.value.toFixed(4)}): "${el.textContent}" ${r(s.previousRect)} → ${r(s.currentRect)}`);
        }
      }
    });
    seen.observe({ type: "layout-shift", buffered: true });
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
      seen.disconnect();
      resolve(found);
    }, 0)));
  }));
}
