// sigma (WebGL) taking the mind map over from its first view, in a real browser (docs/web.md, "The first view is a
// plain 2D canvas"): sigma takes the graph in over several tasks and its layers come into the page only once the GPU has
// finished its first frame (docs/performance.md, "The mind map, the hand-over to WebGL"). What a person sees after the
// swap is sigma's own frame: every idea drawn where the first view drew it, the first view's canvas gone. Read from a
// screenshot, decoded by the page itself (a WebGL canvas cannot be read back once shown). sigma's WebGL set-up is made a
// piece per task (docs/performance.md, "sigma's WebGL set-up, a piece per task"): read from the page's own WebGL calls.
// Functions passed to page.evaluate and addInitScript run in the browser, where these exist.
declare const document: any, Image: any, getComputedStyle: any, window: any, HTMLCanvasElement: any, WebGLRenderingContext: any, WebGL2RenderingContext: any;
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { describeBrowser, expectClean, webScope, type WebServer } from "./harness";
import { openMap, smallMapAccount } from "./map-fixtures";

describeBrowser("mind map hand-over to WebGL", () => {
  const web = webScope("idearepo-web-map-handover-");
  let server: WebServer;

  beforeAll(async () => {
    server = await web.server();
  }, 60_000);

  /** The RGB of each page point in a screenshot of the page as it is on screen now. */
  const pixels = async (page: Page, points: Array<{ x: number; y: number }>): Promise<number[][]> => {
    const png = (await page.screenshot({ type: "png" })).toString("base64");
    return page.evaluate(async ([data, pts]) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext("2d", { willReadFrequently: true });
      ctx.drawImage(img, 0, 0);
      const ratio = img.width / document.documentElement.clientWidth;
      return pts.map((p: { x: number; y: number }) => Array.from(ctx.getImageData(Math.round(p.x * ratio), Math.round(p.y * ratio), 1, 1).data).slice(0, 3) as number[]);
    }, [png, points] as const);
  };

  test("after the hand-over every idea is drawn by sigma where the first view drew it; the graph was taken in over several tasks", async () => {
    const { email, ids } = await smallMapAccount(server, "h");
    const opened = await openMap(web, server, email);
    const { page } = opened;
    const firstView = await Promise.all(ids.map((id) => page.evaluate((i) => document.querySelector(".map-canvas").idearepoMap.positionOf(i) as { x: number; y: number }, id)));

    // Pointing at the map hands it to sigma.
    const box = (await page.locator(".map-canvas").boundingBox())!;
    await page.mouse.move(box.x + 4, box.y + 4);
    await page.waitForFunction(() => document.querySelector(".map-canvas").idearepoMap.drawnBy() === "webgl", null, { timeout: 30_000 });
    expect(await page.locator("canvas.map-preview").count(), "the first view's canvas is gone").toBe(0);
    const shown = await page.evaluate(() => ["nodes", "edges", "mouse"].map((l) => getComputedStyle(document.querySelector(`canvas.sigma-${l}`)).display));
    expect(shown, "sigma's layers are in the page").not.toContain("none");

    const marks = await page.evaluate(() => performance.getEntriesByType("mark").map((m: any) => m.name as string));
    const order = ["map:set-graph", "map:sigma-reduced", "map:sigma-processed", "map:sigma-rendered", "map:webgl-drawn"].map((m) => marks.indexOf(m));
    expect(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1])), `marks: ${marks.join(", ")}`).toBe(true);

    // Each idea is where the first view put it, and sigma's frame has it there: its centre is not the stage's colour.
    const now = await Promise.all(ids.map((id) => page.evaluate((i) => document.querySelector(".map-canvas").idearepoMap.positionOf(i) as { x: number; y: number }, id)));
    now.forEach((p, i) => expect(Math.hypot(p.x - firstView[i].x, p.y - firstView[i].y), `idea ${ids[i]} moved`).toBeLessThan(0.5));
    const stage = { x: box.x + 3, y: box.y + box.height - 3 };
    const [bg, ...centres] = await pixels(page, [stage, ...now]);
    centres.forEach((c, i) => {
      const diff = Math.abs(c[0] - bg[0]) + Math.abs(c[1] - bg[1]) + Math.abs(c[2] - bg[2]);
      expect(diff, `idea ${ids[i]} at ${JSON.stringify(now[i])}: pixel ${c} against the stage's ${bg}`).toBeGreaterThan(30);
    });
    expectClean(opened);
  }, 90_000);

  test("sigma's WebGL contexts are made one per run of script, and no program's link is waited for in the run that asked for it", async () => {
    const { email } = await smallMapAccount(server, "g");
    // Each WebGL context made, program linked and link status asked for, with the run of script it happened in: a run
    // ends when the script returns to the event loop (its microtasks done), so calls in one synchronous stretch share one.
    const opened = await openMap(web, server, email, { init: () => {
      const log: Array<{ kind: string; run: number }> = [];
      let run = 0, open = false;
      const note = (kind: string) => {
        if (!open) {
          run++;
          open = true;
          queueMicrotask(() => { open = false; });
        }
        log.push({ kind, run });
      };
      window.__glCalls = log;
      const getContext = HTMLCanvasElement.prototype.getContext;
      const made = new WeakSet();
      HTMLCanvasElement.prototype.getContext = function (this: object, type: string, ...rest: unknown[]) {
        const ctx = getContext.call(this, type, ...rest);
        if (ctx && type.includes("webgl") && !made.has(this)) {
          made.add(this);
          note("context");
        }
        return ctx;
      };
      for (const C of [WebGLRenderingContext, WebGL2RenderingContext]) {
        const link = C.prototype.linkProgram, param = C.prototype.getProgramParameter;
        C.prototype.linkProgram = function (p: unknown) { note("link"); return link.call(this, p); };
        C.prototype.getProgramParameter = function (this: { LINK_STATUS: number }, p: unknown, name: number) {
          if (name === this.LINK_STATUS) note("link-status");
          return param.call(this, p, name);
        };
      }
    } });
    const { page } = opened;
    const box = (await page.locator(".map-canvas").boundingBox())!;
    await page.mouse.move(box.x + 4, box.y + 4);
    await page.waitForFunction(() => document.querySelector(".map-canvas").idearepoMap.drawnBy() === "webgl", null, { timeout: 30_000 });
    const calls: Array<{ kind: string; run: number }> = await page.evaluate(() => window.__glCalls);
    const said = JSON.stringify(calls);

    const contexts = calls.filter((c) => c.kind === "context");
    expect(contexts.length, `sigma's three WebGL layers: ${said}`).toBe(3);
    expect(new Set(contexts.map((c) => c.run)).size, `each context in a run of its own: ${said}`).toBe(3);
    const links = calls.filter((c) => c.kind === "link"), checks = calls.filter((c) => c.kind === "link-status");
    expect(links.length, `sigma's programs were linked: ${said}`).toBeGreaterThan(0);
    expect(checks.length, `every link was checked: ${said}`).toBeGreaterThanOrEqual(links.length);
    const linkRuns = new Set(links.map((c) => c.run));
    expect(checks.filter((c) => linkRuns.has(c.run)), `no link status asked for in a run that linked: ${said}`).toEqual([]);
    expectClean(opened);
  }, 90_000);
});
