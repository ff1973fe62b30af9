// The mind map in a real browser (sigma on WebGL, SwiftShader in headless Chromium): every live idea of the account is a
// node and nothing of another account's, filters hide nodes, a click opens the side panel, a relation drawn by dragging
// from one node to another is saved (and a cycle is refused with the API's sentence), a Free account sees the plan
// notice instead of connect mode. Each flow is checked through the API afterwards.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any, window: any, PerformanceObserver: any;
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api } from "../ops/harness";
import { a11yViolations, allowConsole, createAccount, describeBrowser, expectClean, openSignedIn, screenshot, VIEWPORTS, webScope, type WebServer } from "./harness";

describeBrowser("mind map", () => {
  const web = webScope("idearepo-web-map-");
  let server: WebServer;

  beforeAll(async () => {
    server = await web.server();
  }, 60_000);

  const seed = async (key: string, title: string, extra: Record<string, unknown> = {}) => {
    const res = await api(server.base, key, "POST", "/ideas", { title, ...extra });
    expect(res.status).toBe(201);
    return res.body as { id: number; number: number; title: string };
  };
  const relate = async (key: string, source: number, target: number, relation_type: string) => {
    const res = await api(server.base, key, "POST", "/map/relations", { source_idea_id: source, target_idea_id: target, relation_type });
    expect(res.status).toBe(201);
  };
  /** Opens /map and waits until the renderer exists and its layout has settled. */
  const openMap = async (page: Page) => {
    await page.goto(`${server.base}/map`);
    await page.getByRole("heading", { level: 1, name: "Mind map" }).waitFor();
    await page.waitForFunction(() => document.querySelector(".map-canvas")?.idearepoMap?.layoutMs != null, null, { timeout: 20_000 });
  };
  const mapCall = async (page: Page, method: "visibleIds" | "positionOf", id?: number) => {
    // Positions are viewport coordinates: bring the whole canvas into view first.
    if (method === "positionOf") await page.evaluate(() => document.querySelector(".map-canvas").scrollIntoView({ block: "end" }));
    return page.evaluate(([m, i]) => {
      const v = document.querySelector(".map-canvas").idearepoMap;
      return m === "visibleIds" ? v.visibleIds() : v.positionOf(i);
    }, [method, id] as const);
  };
  /** The renderer's visible node ids once they equal `ids` (filters reach the renderer just after the page repaints). */
  const expectVisible = async (page: Page, ids: number[]) => {
    const want = sorted(ids);
    await page.waitForFunction((w) => JSON.stringify(document.querySelector(".map-canvas").idearepoMap.visibleIds().sort((x: number, y: number) => x - y)) === JSON.stringify(w), want, { timeout: 5000 }).catch(() => {});
    expect(sorted(await mapCall(page, "visibleIds") as number[])).toEqual(want);
  };
  const listedIds = async (page: Page) => {
    const list = page.locator("details.map-list");
    if (!(await list.evaluate((d: any) => d.open))) await page.getByText(/^List of the ideas on the map/).click();
    await page.getByRole("list", { name: "Ideas on the map" }).waitFor();
    return (await page.getByRole("list", { name: "Ideas on the map" }).locator("li").evaluateAll((lis: any[]) => lis.map((li) => Number(li.dataset.ideaId)))).sort((a, b) => a - b);
  };
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

  test("every live idea of the account is a node, none of another account's, archived ideas absent; status filter hides nodes", async () => {
    const opened = await openSignedIn(web, server, "/capture");
    const { page, key } = opened;
    const a = await seed(key, "Solar kettle", { status: "exploring", tags: ["energy"] });
    const b = await seed(key, "Battery swap kiosk", { status: "building", tags: ["energy"] });
    const c = await seed(key, "Rainwater meter", { status: "captured" });
    const d = await seed(key, "Compost sensor", { status: "shipped", tags: ["garden"] });
    const gone = await seed(key, "Archived thought");
    await seed(key, "Lonely idea without relations", { status: "shelved" });
    await relate(key, a.id, b.id, "inspires");
    await relate(key, b.id, c.id, "blocks");
    await relate(key, gone.id, a.id, "related");
    expect((await api(server.base, key, "DELETE", `/ideas/${gone.id}`)).status).toBe(200);
    const otherKey = createAccount(server, `o${Date.now()}@example.com`, "other password 1", "pro");
    const foreign = await seed(otherKey, "Someone else's idea");

    await openMap(page);
    await screenshot(page, "map-desktop");
    const map = (await api(server.base, key, "GET", "/map")).body as { nodes: Array<{ id: number; status: string }>; edges: unknown[] };
    const expected = sorted(map.nodes.map((n) => n.id));
    expect(expected).toHaveLength(5);
    expect(expected).not.toContain(gone.id);
    expect(expected).not.toContain(foreign.id);
    await expectVisible(page, expected);
    expect(await listedIds(page)).toEqual(expected);
    await page.getByText("5 of 5 ideas").waitFor();

    expect(await a11yViolations(page)).toEqual([]);

    // Unticking "captured" hides the captured idea from the map and from the list; ticking it brings it back.
    await page.getByRole("checkbox", { name: "captured" }).uncheck();
    await page.getByText("4 of 5 ideas").waitFor();
    const visible = expected.filter((id) => id !== c.id);
    await expectVisible(page, visible);
    expect(await listedIds(page)).toEqual(visible);
    // The tag filter narrows further, to the two "energy" ideas.
    await page.getByLabel("Tag").selectOption("energy");
    await page.getByText("2 of 5 ideas").waitFor();
    await expectVisible(page, [a.id, b.id]);
    await page.getByLabel("Tag").selectOption("");
    await page.getByRole("checkbox", { name: "captured" }).check();
    await page.getByText("5 of 5 ideas").waitFor();

    // A date range that ends before today empties the map (the server's since/until).
    await page.getByLabel("To", { exact: true }).fill("2001-01-01");
    await page.getByText("No ideas were captured in this date range.").waitFor();
    await page.getByRole("button", { name: "Any date" }).click();
    await page.waitForFunction(() => document.querySelector(".map-canvas")?.idearepoMap?.layoutMs != null);

    // Clicking a node on the canvas opens the side panel with a link to the idea.
    const at = (await mapCall(page, "positionOf", d.id)) as { x: number; y: number };
    await page.mouse.click(at.x, at.y);
    const panel = page.getByRole("complementary", { name: "Selected idea" });
    await panel.getByRole("heading", { name: /Compost sensor/ }).waitFor();
    expect(await panel.getByRole("link", { name: "Open idea" }).getAttribute("href")).toBe(`/ideas/${d.id}`);
    await panel.getByText("shipped").waitFor();

    // The search flies to a node and opens it too.
    await page.getByLabel("Find an idea on the map").fill("rainwater");
    await page.getByLabel("Find an idea on the map").press("Enter");
    await panel.getByRole("heading", { name: /Rainwater meter/ }).waitFor();

    await page.setViewportSize(VIEWPORTS.phone);
    await page.waitForTimeout(300);
    expect(await a11yViolations(page)).toEqual([]);
    expectClean(opened);

    const dark = await web.open(server.base, "/map", { colorScheme: "dark" });
    await dark.page.getByLabel("E-mail").waitFor();
    await dark.context.addCookies(await opened.context.cookies());
    await openMap(dark.page);
    await screenshot(dark.page, "map-dark");
    expect(await a11yViolations(dark.page)).toEqual([]);
    expectClean(dark);
  }, 90_000);

  test("a relation drawn by dragging from one node to another is saved; a blocking cycle is refused with the API's sentence", async () => {
    const opened = await openSignedIn(web, server, "/capture");
    const { page, key } = opened;
    const a = await seed(key, "Drag source idea");
    const b = await seed(key, "Drag target idea");
    const c = await seed(key, "Third idea in the chain");
    await relate(key, b.id, c.id, "blocks");
    await openMap(page);

    const drag = async (from: number, to: number) => {
      const p = (await mapCall(page, "positionOf", from)) as { x: number; y: number };
      const q = (await mapCall(page, "positionOf", to)) as { x: number; y: number };
      await page.mouse.move(p.x, p.y);
      await page.mouse.down();
      await page.mouse.move((p.x + q.x) / 2, (p.y + q.y) / 2, { steps: 5 });
      await page.mouse.move(q.x, q.y, { steps: 5 });
      await page.mouse.up();
    };
    await page.getByRole("button", { name: "Connect mode" }).click();
    await drag(a.id, b.id);
    const dialog = page.getByRole("dialog", { name: "Connect two ideas" });
    await dialog.getByLabel("Relation").selectOption("blocks");
    await dialog.getByLabel("Note (optional)").fill("drawn on the map");
    await dialog.getByRole("button", { name: "Connect" }).click();
    await dialog.waitFor({ state: "hidden" });
    const rel = (await api(server.base, key, "GET", `/ideas/${a.id}/relations`)).body;
    expect(rel.outgoing.map((r: any) => [r.idea_id, r.relation_type, r.note, r.created_by])).toContainEqual([b.id, "blocks", "drawn on the map", "user"]);

    // c → a would close a → b → c → a: the API refuses, and the dialog shows its sentence as it is (Chromium logs the 400).
    allowConsole(opened, /status of 400 .*\/api\/v1\/map\/relations\)/);
    await drag(c.id, a.id);
    await dialog.getByLabel("Relation").selectOption("blocks");
    await dialog.getByRole("button", { name: "Connect" }).click();
    const refusal = await api(server.base, key, "POST", "/map/relations", { source_idea_id: c.id, target_idea_id: a.id, relation_type: "blocks" });
    expect(refusal.status).toBe(400);
    await dialog.getByText(refusal.body.error, { exact: true }).waitFor();
    expect(await dialog.getByRole("button", { name: "Create anyway" }).count()).toBe(0); // blocks can never be forced
    await dialog.getByRole("button", { name: "Cancel" }).click();
    // Nothing user-made left c (the background pipeline may have suggested system "related" pairs meanwhile).
    const fromC = (await api(server.base, key, "GET", `/ideas/${c.id}/relations`)).body.outgoing;
    expect(fromC.filter((r: any) => r.created_by === "user")).toEqual([]);
    expectClean(opened);
  }, 90_000);

  test("at phone width (390×844) the map fits the visible canvas, the selected idea sits below it, the controls are reachable; nothing shifts as the map arrives", async () => {
    const opened = await openSignedIn(web, server, "/capture");
    const { page, key } = opened;
    const ids: number[] = [];
    for (let i = 0; i < 14; i++) ids.push((await seed(key, `Neighbourhood idea with a fairly long title ${i + 1}`)).id);
    for (let i = 3; i < 12; i++) await relate(key, ids[i % 3], ids[i], "related");
    await relate(key, ids[0], ids[1], "related");
    await page.setViewportSize({ width: 390, height: 844 });
    // Layout shifts the page makes on its own (not after input), from the navigation on: what Lighthouse sums as CLS.
    await page.addInitScript(() => {
      window.__cls = 0;
      new PerformanceObserver((list: any) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
      }).observe({ type: "layout-shift", buffered: true });
    });
    await openMap(page);
    await page.getByRole("status").filter({ hasText: /ideas ·/ }).filter({ hasNotText: "arranging" }).waitFor();
    await screenshot(page, "map-phone");
    const cls = await page.evaluate(() => window.__cls as number);
    expect(cls, "layout shift while the map loads").toBeLessThanOrEqual(0.05);

    // The whole canvas is on screen without scrolling, and every node is inside it (the map is fitted to what is seen).
    const canvas = (await page.locator(".map-canvas").boundingBox())!;
    expect(canvas.x).toBeGreaterThanOrEqual(0);
    expect(canvas.x + canvas.width).toBeLessThanOrEqual(390);
    expect(canvas.y + canvas.height, "the map's bottom edge is on screen").toBeLessThanOrEqual(844);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), "no sideways scrolling").toBeLessThanOrEqual(390);
    for (const id of ids) {
      const p = (await page.evaluate((i) => document.querySelector(".map-canvas").idearepoMap.positionOf(i), id)) as { x: number; y: number };
      expect(p.x > canvas.x && p.x < canvas.x + canvas.width && p.y > canvas.y && p.y < canvas.y + canvas.height, `idea ${id} at ${JSON.stringify(p)} is outside the map ${JSON.stringify(canvas)}`).toBe(true);
    }
    // Every control is reachable: on screen, not covered.
    for (const control of [page.getByLabel("Find an idea on the map"), page.getByRole("button", { name: "Connect mode" }), page.getByRole("button", { name: "Arrange again" })]) {
      const b = (await control.boundingBox())!;
      expect(b.x >= 0 && b.x + b.width <= 390 && b.y >= 0 && b.y + b.height <= 844, `control at ${JSON.stringify(b)}`).toBe(true);
    }

    // A tapped idea opens its panel under the map, where it covers no node.
    const at = (await page.evaluate((i) => document.querySelector(".map-canvas").idearepoMap.positionOf(i), ids[0])) as { x: number; y: number };
    await page.mouse.click(at.x, at.y);
    const panel = page.getByRole("complementary", { name: "Selected idea" });
    await panel.getByRole("heading", { name: /fairly long title 1$/ }).waitFor();
    const [map, box] = [(await page.locator(".map-canvas").boundingBox())!, (await panel.boundingBox())!];
    expect(box.y, `the panel ${JSON.stringify(box)} starts below the map ${JSON.stringify(map)}`).toBeGreaterThanOrEqual(map.y + map.height);
    await panel.getByRole("link", { name: "Open idea" }).waitFor();
    expect(await panel.getByRole("link", { name: "Open idea" }).isVisible()).toBe(true);

    // Headings never skip a level (Lighthouse's heading-order audit), and axe finds nothing serious.
    const levels = await page.evaluate(() => [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h: any) => Number(h.tagName[1])));
    for (let i = 1; i < levels.length; i++) expect(levels[i] - levels[i - 1], `heading levels ${levels.join(" ")}`).toBeLessThanOrEqual(1);
    expect(await a11yViolations(page)).toEqual([]);
    expectClean(opened);
  }, 90_000);

  test("a Free account sees the plan notice instead of connect mode; an empty account sees the empty state", async () => {
    const opened = await openSignedIn(web, server, "/map", { plan: "free" });
    const { page, key } = opened;
    await page.getByRole("heading", { name: "No ideas yet" }).or(page.getByText("No ideas yet")).first().waitFor();
    expect(await page.getByRole("link", { name: "Capture an idea" }).getAttribute("href")).toBe("/capture");
    await seed(key, "Free idea one");
    await seed(key, "Free idea two");
    await openMap(page);
    await page.getByText("Drawing connections requires a Pro plan.").waitFor();
    expect(await page.getByRole("button", { name: "Connect mode" }).count()).toBe(0);
    expect(await a11yViolations(page)).toEqual([]);
    expectClean(opened);
  }, 90_000);
});
