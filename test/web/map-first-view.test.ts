// The mind map's first view in a real browser (docs/web.md, "The mind map's first view"): the map is drawn on a 2D
// canvas before sigma (WebGL) exists, every node where sigma will draw it; what a person does first works before sigma
// is there (a click or a tap selects, a press or a finger held becomes a drag once sigma takes it over, a wheel turn or
// a pinch zooms once it can), and sigma replaces the first view without moving anything. Sigma's chunk is held back on the network for as long as the test
// needs (as a slow connection would), so "before sigma" is a state the test controls, not a race it hopes to win.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any, window: any;
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api } from "../ops/harness";
import { describeBrowser, expectClean, webScope, type WebServer } from "./harness";
import { expectConnectDialog, openMap, pressAndMoveTo, smallMapAccount } from "./map-fixtures";

describeBrowser("mind map first view", () => {
  const web = webScope("idearepo-web-map-first-");
  let server: WebServer;

  beforeAll(async () => {
    server = await web.server();
  }, 60_000);

  /** A Pro account with a small connected map (map-fixtures.ts); answers its key, email and idea ids. */
  const account = () => smallMapAccount(server, "f");

  /** Opens /map signed in, with sigma's chunk held until `release()`; waits for the first view (layout settled). */
  const openHeld = (email: string, touch = false) => openMap(web, server, email, { holdSigma: true, touch });
  const drawnBy = (page: Page) => page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.drawnBy() as string | null);
  const positionOf = (page: Page, id: number) =>
    page.evaluate((i) => document.querySelector(".map-canvas").idearepoMap.positionOf(i) as { x: number; y: number }, id);
  const waitWebgl = (page: Page) =>
    page.waitForFunction(() => document.querySelector(".map-canvas").idearepoMap.drawnBy() === "webgl", null, { timeout: 20_000 });

  test("every node is drawn before sigma exists, where sigma then draws it; a click before sigma selects the idea", async () => {
    const { email, ids } = await account();
    const opened = await openHeld(email);
    const { page } = opened;
    expect(await drawnBy(page)).toBe("preview");
    expect(await page.locator("canvas.sigma-nodes").count(), "no WebGL layer before sigma is made").toBe(0);

    // Each node's centre on the first view's canvas is painted in a colour (the background is the page's surface).
    await page.evaluate(() => document.querySelector(".map-canvas").scrollIntoView({ block: "end" }));
    const before = new Map<number, { x: number; y: number }>();
    for (const id of ids) before.set(id, await positionOf(page, id));
    const painted = await page.evaluate((points) => {
      const canvas = document.querySelector("canvas.map-preview");
      const box = canvas.getBoundingClientRect();
      const dpr = canvas.width / box.width;
      // One read of the whole canvas (Chromium warns about repeated small reads).
      const all = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
      return points.map(([id, p]: [number, { x: number; y: number }]) => {
        const at = (Math.round((p.y - box.top) * dpr) * canvas.width + Math.round((p.x - box.left) * dpr)) * 4;
        return { id, r: all[at], g: all[at + 1], b: all[at + 2], a: all[at + 3] };
      });
    }, [...before]);
    for (const px of painted) expect(px.a, `node ${px.id} is not painted on the first view: ${JSON.stringify(px)}`).toBe(255);
    const labels = await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.labelBoxes().length as number);
    expect(labels, "the first view has labels").toBeGreaterThan(0);

    // A click on a node while sigma is still on its way opens the side panel.
    const at = before.get(ids[2])!;
    await page.mouse.click(at.x, at.y);
    const panel = page.getByRole("complementary", { name: "Selected idea" });
    await panel.getByRole("heading", { name: /Seed library/ }).waitFor();
    const until = Date.now() + 10_000;
    while (!opened.asked() && Date.now() < until) await Bun.sleep(50);
    expect(opened.asked(), "pointing at the map asked for sigma").toBe(true);
    expect(await drawnBy(page)).toBe("preview");

    // Sigma arrives and takes over: the first view is gone and no node moved.
    opened.release();
    await waitWebgl(page);
    expect(await page.locator("canvas.map-preview").count()).toBe(0);
    for (const id of ids) {
      const p = await positionOf(page, id), q = before.get(id)!;
      expect(Math.hypot(p.x - q.x, p.y - q.y), `idea ${id} moved when sigma took over: ${JSON.stringify([q, p])}`).toBeLessThan(0.5);
    }
    expectClean(opened);
  }, 90_000);

  test("a press made before sigma is ready becomes a drag once it is; a wheel turn before it zooms once it can, and does not scroll the page", async () => {
    const { email, key, ids } = await account();
    const opened = await openHeld(email);
    const { page } = opened;
    await page.evaluate(() => document.querySelector(".map-canvas").scrollIntoView({ block: "end" }));

    // The wheel over the map while sigma is held: the page stays where it is.
    const box = (await page.locator(".map-canvas").boundingBox())!;
    const scrolled = await page.evaluate(() => window.scrollY as number);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.scrollY as number), "the page did not scroll under the map").toBe(scrolled);

    // A press on a node, held while sigma arrives, then moved: the node is dragged and its new place remembered.
    const from = await positionOf(page, ids[4]);
    const graphBefore = (await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.positions())) as Record<string, { x: number; y: number }>;
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    expect(await drawnBy(page)).toBe("preview");
    opened.release();
    await waitWebgl(page);
    // The wheel turn made before sigma was there has zoomed in.
    const ratio = await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.zoomRatio() as number);
    expect(ratio, "the wheel turn reached sigma").toBeLessThan(1);
    const start = await positionOf(page, ids[4]);
    await page.mouse.move(start.x + 40, start.y + 30, { steps: 6 });
    await page.mouse.move(start.x + 80, start.y + 60, { steps: 6 });
    await page.mouse.up();
    const graphAfter = (await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.positions())) as Record<string, { x: number; y: number }>;
    const moved = graphAfter[String(ids[4])], was = graphBefore[String(ids[4])];
    expect(Math.hypot(moved.x - was.x, moved.y - was.y), `the pressed node did not move: ${JSON.stringify([was, moved])}`).toBeGreaterThan(1);
    // The others stayed.
    expect(graphAfter[String(ids[0])]).toEqual(graphBefore[String(ids[0])]);
    // Its new place is saved (in the background: bounded wait).
    const until = Date.now() + 10_000;
    let stored: { x: number; y: number } | undefined;
    while (Date.now() < until) {
      const body = (await api(server.base, key, "GET", "/map/positions")).body as { positions: Array<{ id: number; x: number; y: number }> };
      stored = body.positions.find((p) => p.id === ids[4]);
      if (stored && Math.abs(stored.x - moved.x) < 0.2 && Math.abs(stored.y - moved.y) < 0.2) break;
      await Bun.sleep(100);
    }
    expect(stored && Math.hypot(stored.x - moved.x, stored.y - moved.y), `saved position ${JSON.stringify(stored)} vs ${JSON.stringify(moved)}`).toBeLessThan(0.2);
    expectClean(opened);
  }, 90_000);

  /** The connecting drags go from "Tide clock" to "Night market map" (ids[0] to ids[4]: not related yet). */
  const FROM = "Tide clock", TO = "Night market map";
  /**
   * A fresh small map opened with sigma held, scrolled into view, in connect mode. `dragFromTo()` presses on FROM and
   * moves to TO, still held, reading both ideas' places when it is called (the caller releases).
   */
  const openConnecting = async () => {
    const { email, ids } = await account();
    const opened = await openHeld(email);
    const { page } = opened;
    await page.evaluate(() => document.querySelector(".map-canvas").scrollIntoView({ block: "end" }));
    await page.getByRole("button", { name: "Connect mode" }).click();
    const dragFromTo = async () => pressAndMoveTo(page, await positionOf(page, ids[0]), await positionOf(page, ids[4]));
    return { opened, page, dragFromTo };
  };

  test("a connecting drag made whole before sigma is ready opens the connect dialog for those two ideas", async () => {
    const { opened, page, dragFromTo } = await openConnecting();
    // Pressed and released while sigma is still held.
    await dragFromTo();
    await page.mouse.up();
    expect(await drawnBy(page)).toBe("preview");
    await expectConnectDialog(page, FROM, TO);
    opened.release();
    await waitWebgl(page);
    expectClean(opened);
  }, 90_000);

  test("a connecting drag begun before sigma is ready and released once it is opens the connect dialog for those two ideas", async () => {
    const { opened, page, dragFromTo } = await openConnecting();
    await dragFromTo();
    expect(await drawnBy(page)).toBe("preview");
    opened.release();
    await waitWebgl(page);
    await page.mouse.up();
    await expectConnectDialog(page, FROM, TO);
    expectClean(opened);
  }, 90_000);

  /**
   * Holds sigma's making once it is made (its mouse layer is in the page, listening) and before it is handed the graph:
   * each step it awaits (scheduler.yield) waits from then on until `go()`. What a press meets then is a state the test
   * controls, not a race it hopes to win (on a loaded machine that window is many tasks long).
   */
  const holdMade = async (page: Page) => {
    await page.evaluate(() => {
      const sch = window.scheduler;
      const orig = sch.yield.bind(sch);
      window.__made = { held: [] as Array<() => void>, open: false };
      sch.yield = () => document.querySelector(".sigma-mouse") && !window.__made.open ? new Promise<void>((r) => window.__made.held.push(r)) : orig();
    });
    return {
      made: () => page.waitForFunction(() => window.__made.held.length > 0, null, { timeout: 20_000 }),
      go: () => page.evaluate(() => { window.__made.open = true; for (const r of window.__made.held.splice(0)) r(); }),
    };
  };

  test("a connecting drag begun while sigma is made but not yet handed the graph, released once it is, opens the connect dialog for those two ideas", async () => {
    const { opened, page, dragFromTo } = await openConnecting();
    const made = await holdMade(page);
    opened.release();
    await made.made();
    await dragFromTo();
    expect(await drawnBy(page)).toBe("preview");
    await made.go();
    await waitWebgl(page);
    await page.mouse.up();
    await expectConnectDialog(page, FROM, TO);
    expectClean(opened);
  }, 90_000);

  test("a node drag begun while sigma is made but not yet handed the graph moves that idea once it is, and the map stays where it was", async () => {
    const { email, ids } = await account();
    const opened = await openHeld(email);
    const { page } = opened;
    await page.evaluate(() => document.querySelector(".map-canvas").scrollIntoView({ block: "end" }));
    const made = await holdMade(page);
    await page.evaluate(() => { void document.querySelector(".map-canvas").idearepoMap.wake(); });
    opened.release();
    await made.made();
    const graphBefore = (await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.positions())) as Record<string, { x: number; y: number }>;
    const from = await positionOf(page, ids[4]), other = await positionOf(page, ids[0]);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 40, from.y + 30, { steps: 6 });
    expect(await drawnBy(page)).toBe("preview");
    await made.go();
    await waitWebgl(page);
    await page.mouse.move(from.x + 80, from.y + 60, { steps: 6 });
    await page.mouse.up();
    const graphAfter = (await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.positions())) as Record<string, { x: number; y: number }>;
    const moved = graphAfter[String(ids[4])], was = graphBefore[String(ids[4])];
    expect(Math.hypot(moved.x - was.x, moved.y - was.y), `the pressed idea did not move: ${JSON.stringify([was, moved])}`).toBeGreaterThan(1);
    expect(graphAfter[String(ids[0])]).toEqual(graphBefore[String(ids[0])]);
    // The press was not taken as a pan of the empty stage: the other ideas are drawn where they were.
    const now = await positionOf(page, ids[0]);
    expect(Math.hypot(now.x - other.x, now.y - other.y), `the map moved under the drag: ${JSON.stringify([other, now])}`).toBeLessThan(0.5);
    expectClean(opened);
  }, 90_000);

  /** Touch points through the DevTools protocol (page.touchscreen only taps): each call gives every finger down now. */
  const touch = async (page: Page) => {
    const cdp = await page.context().newCDPSession(page);
    const send = (type: "touchStart" | "touchMove" | "touchEnd", points: Array<{ x: number; y: number }>) =>
      cdp.send("Input.dispatchTouchEvent", { type, touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id })) });
    return { start: (...p: Array<{ x: number; y: number }>) => send("touchStart", p), move: (...p: Array<{ x: number; y: number }>) => send("touchMove", p), end: () => send("touchEnd", []) };
  };
  /** A point of the map with no idea under it or near it, in page coordinates. */
  const emptySpot = (page: Page) => page.evaluate(() => {
    const el = document.querySelector(".map-canvas");
    const v = el.idearepoMap, r = el.getBoundingClientRect();
    for (let y = 40; y < r.height - 40; y += 10) {
      for (let x = 60; x < r.width - 60; x += 10) {
        let clear = true;
        for (let dx = -60; dx <= 60 && clear; dx += 10) for (let dy = -30; dy <= 30 && clear; dy += 10) clear = v.nodeAt(x + dx, y + dy) === null;
        if (clear) return { x: r.left + x, y: r.top + y };
      }
    }
    return null;
  });

  test("on a touch screen before sigma is ready: a tap selects the idea; a finger held on an idea while sigma arrives drags it", async () => {
    const { email, ids } = await account();
    const opened = await openHeld(email, true);
    const { page } = opened;
    await page.evaluate(() => document.querySelector(".map-canvas").scrollIntoView({ block: "end" }));

    // A tap on "Seed library" while sigma is held: the side panel opens on it.
    const seed = await positionOf(page, ids[2]);
    await page.touchscreen.tap(seed.x, seed.y);
    const panel = page.getByRole("complementary", { name: "Selected idea" });
    await panel.getByRole("heading", { name: /Seed library/ }).waitFor({ timeout: 10_000 });
    const until = Date.now() + 10_000;
    while (!opened.asked() && Date.now() < until) await Bun.sleep(50);
    expect(opened.asked(), "touching the map asked for sigma").toBe(true);
    expect(await drawnBy(page)).toBe("preview");

    // A finger put on "Night market map" before sigma, held while it arrives, then moved: the idea goes with it.
    const graphBefore = (await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.positions())) as Record<string, { x: number; y: number }>;
    const fingers = await touch(page);
    const from = await positionOf(page, ids[4]);
    await fingers.start(from);
    expect(await drawnBy(page)).toBe("preview");
    opened.release();
    await waitWebgl(page);
    for (let i = 1; i <= 10; i++) await fingers.move({ x: from.x + 8 * i, y: from.y + 6 * i });
    await fingers.end();
    const graphAfter = (await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.positions())) as Record<string, { x: number; y: number }>;
    const moved = graphAfter[String(ids[4])], was = graphBefore[String(ids[4])];
    expect(Math.hypot(moved.x - was.x, moved.y - was.y), `the touched idea did not move with the finger: ${JSON.stringify([was, moved])}`).toBeGreaterThan(1);
    for (const id of [ids[0], ids[1], ids[2], ids[3], ids[5]]) expect(graphAfter[String(id)], `idea ${id} stayed`).toEqual(graphBefore[String(id)]);
    // Where the finger left it, on screen too (sigma draws it under the finger's last place).
    const now = await positionOf(page, ids[4]);
    expect(Math.hypot(now.x - (from.x + 80), now.y - (from.y + 60)), `the idea is under the finger: ${JSON.stringify(now)}`).toBeLessThan(4);
    expectClean(opened);
  }, 90_000);

  test("on a touch screen, a pinch made before sigma is ready zooms once it is, and so does one begun before and held; the ideas stay where they are", async () => {
    const { email } = await account();
    const opened = await openHeld(email, true);
    const { page } = opened;
    await page.evaluate(() => document.querySelector(".map-canvas").scrollIntoView({ block: "end" }));
    const spot = await emptySpot(page);
    expect(spot, "an empty spot on the map to pinch").not.toBeNull();
    const c = spot!;
    const graphBefore = await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.positions());
    const fingers = await touch(page);
    const spread = (d: number) => [{ x: c.x - d, y: c.y }, { x: c.x + d, y: c.y }];
    // A whole pinch while sigma is held (fingers 40 px apart, then 100): kept for sigma.
    await fingers.start(...spread(20));
    for (let d = 25; d <= 50; d += 5) await fingers.move(...spread(d));
    await fingers.end();
    // A second one begun and held while sigma arrives.
    await fingers.start(...spread(20));
    expect(await drawnBy(page)).toBe("preview");
    opened.release();
    await waitWebgl(page);
    const zoom = () => page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.zoomRatio() as number);
    const kept = await zoom();
    expect(kept, "the pinch made before sigma was there zoomed in once it was (40 → 100 px: ratio 0.4)").toBeLessThan(0.6);
    for (let d = 25; d <= 60; d += 5) await fingers.move(...spread(d));
    await fingers.end();
    const held = await zoom();
    expect(held, `the held pinch went on in sigma (40 → 120 px from ratio ${kept})`).toBeLessThan(kept * 0.6);
    expect(await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.positions())).toEqual(graphBefore);
    expectClean(opened);
  }, 90_000);

  test("left alone, the map becomes WebGL by itself once the page is idle", async () => {
    const { email, ids } = await account();
    const opened = await openMap(web, server, email);
    await waitWebgl(opened.page);
    const marks = await opened.page.evaluate(() => performance.getEntriesByType("mark").map((m: any) => m.name as string));
    expect(marks.indexOf("map:preview-drawn"), `marks: ${marks.join(", ")}`).toBeGreaterThanOrEqual(0);
    expect(marks.indexOf("map:preview-drawn")).toBeLessThan(marks.indexOf("map:renderer-start"));
    expect(await opened.page.evaluate((i) => document.querySelector(".map-canvas").idearepoMap.positionOf(i), ids[0])).not.toBeNull();
    expectClean(opened);
  }, 90_000);
});
