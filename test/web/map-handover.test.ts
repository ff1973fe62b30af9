// sigma (WebGL) taking the mind map over from its first view, in a real browser (docs/web.md, "The first view is a
// plain 2D canvas"): sigma takes the graph in over several tasks and its layers come into the page only once the GPU has
// finished its first frame (docs/performance.md, "The mind map, the hand-over to WebGL"). What a person sees after the
// swap is sigma's own frame: every idea drawn where the first view drew it, the first view's canvas gone. Read from a
// screenshot, decoded by the page itself (a WebGL canvas cannot be read back once shown).
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any, Image: any, getComputedStyle: any;
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
});
