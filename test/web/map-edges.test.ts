// The mind map's zoom-dependent edge budget in a real browser (docs/relations-map.md, "Fewer relations at low zoom"):
// on a map of more than 8,000 relations, 8,000 are drawn at the default zoom, all of them once zoomed in, fewer once
// zoomed out (8,000 ÷ zoom ratio²), recomputed when the camera rests; hovering a relation is not looked for above
// 6,000 relations, and at 6,000 it shows the relation's tooltip. The zoom is the mouse wheel over the map, as a person would; the counts are the renderer's own.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any;
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api } from "../ops/harness";
import { describeBrowser, expectClean, openSignedIn, webScope, type WebServer } from "./harness";

const BUDGET = 8_000; // src/web/pages/map/edges.ts EDGE_BUDGET, as documented
const IDEAS = 95;
const RELATIONS = 8_200;

describeBrowser("mind map edge budget", () => {
  const web = webScope("idearepo-web-map-edges-");
  let server: WebServer;

  beforeAll(async () => {
    server = await web.server();
  }, 60_000);

  /** Waits (bounded) until the pipeline's passes over new ideas are done: it suggests relations as it goes. */
  async function pipelineIdle(): Promise<void> {
    for (let i = 0; i < 600; i++) {
      const health = (await api(server.base, null, "GET", "/health")).body.embeddings as { pending: number; rescoring: number };
      if (health.pending === 0 && health.rescoring === 0) return;
      await Bun.sleep(100);
    }
  }
  /** The map's own count of relations (the pipeline's suggestions count too). */
  const mapTotal = async (key: string) => ((await api(server.base, key, "GET", "/map")).body as { edges: unknown[] }).edges.length;

  /**
   * Makes the person's relations (50 a request) and answers the map's relation count once the pipeline's passes over
   * the new ideas are done: a suggestion landing between that count and the page's own load made the page hold one
   * more (seen failing 2 in 3 runs).
   */
  async function relateAll(key: string, links: Array<{ source_idea_id: number; target_idea_id: number; relation_type: string }>): Promise<number> {
    for (let i = 0; i < links.length; i += 50) {
      const res = await api(server.base, key, "POST", "/map/relations", { links: links.slice(i, i + 50) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await pipelineIdle();
    return mapTotal(key);
  }

  /** What the renderer shows now: relations drawn, the camera's ratio, whether edge hover is on. */
  const state = (page: Page) => page.evaluate(() => {
    const v = document.querySelector(".map-canvas").idearepoMap;
    return { shown: v.edgesShown() as number, ratio: v.zoomRatio() as number, edgeEvents: v.edgeEvents() as boolean };
  });
  /** Wheels over the map's centre `times` times (deltaY > 0 zooms out), then waits until the camera rests and the
   *  number of relations drawn is the budget for its zoom (bounded; the failure says what was seen). */
  const zoom = async (page: Page, deltaY: number, times: number, total: number) => {
    const box = (await page.locator(".map-canvas").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // Pointing at the map makes sigma; wheel turns before it has taken over are kept and handed to it as one (web.md),
    // so the steps counted here start once it draws the map.
    await page.waitForFunction(() => document.querySelector(".map-canvas").idearepoMap.drawnBy() === "webgl", null, { timeout: 30_000 });
    for (let i = 0; i < times; i++) {
      await page.mouse.wheel(0, deltaY);
      await page.waitForTimeout(60);
    }
    const expected = (ratio: number) => Math.min(total, Math.round(8000 / (Math.max(ratio, 0.05) ** 2)));
    const settled = await page.waitForFunction(([t]) => {
      const v = document.querySelector(".map-canvas").idearepoMap;
      const r = v.zoomRatio();
      const want = Math.min(t, Math.round(8000 / (Math.max(r, 0.05) ** 2)));
      return v.edgesShown() === want ? r : false;
    }, [total] as const, { timeout: 15_000, polling: 100 }).then((h) => h.jsonValue() as Promise<number>).catch(() => null);
    const s = await state(page);
    expect(settled, `after the wheel: ${s.shown} relations drawn at zoom ratio ${s.ratio}; expected ${expected(s.ratio)}`).not.toBeNull();
    return s;
  };

  test("8,000 relations drawn at the default zoom, all once zoomed in, fewer once zoomed out; no edge hover above 6,000", async () => {
    const opened = await openSignedIn(web, server, "/capture");
    const { page, key } = opened;
    const ids: number[] = [];
    for (let i = 0; i < IDEAS; i++) {
      const res = await api(server.base, key, "POST", "/ideas", { title: `Budget idea ${i + 1}` });
      expect(res.status).toBe(201);
      ids.push(res.body.id as number);
    }
    // Every ordered pair in turn (95 ideas give 8,930), 50 per call (the API's bulk limit).
    const links: Array<{ source_idea_id: number; target_idea_id: number; relation_type: string }> = [];
    for (let s = 0; s < IDEAS && links.length < RELATIONS; s++) {
      for (let t = 0; t < IDEAS && links.length < RELATIONS; t++) {
        if (s !== t) links.push({ source_idea_id: ids[s], target_idea_id: ids[t], relation_type: "related" });
      }
    }
    // The map's own count (system suggestions, if the pipeline made any, count too).
    const total = await relateAll(key, links);
    expect(total).toBeGreaterThanOrEqual(RELATIONS);

    await page.goto(`${server.base}/map`);
    await page.getByRole("heading", { level: 1, name: "Mind map" }).waitFor();
    await page.waitForFunction(() => document.querySelector(".map-canvas")?.idearepoMap?.layoutMs != null, null, { timeout: 30_000 });
    await page.getByRole("status").filter({ hasText: `${total.toLocaleString("en")} connections` }).filter({ hasNotText: "arranging" }).waitFor({ timeout: 10_000 });

    const first = await state(page);
    expect(first.ratio).toBe(1);
    expect(first.shown, "relations drawn at the default zoom").toBe(BUDGET);
    expect(first.edgeEvents, "edge hover above 6,000 relations").toBe(false);

    // Zoomed in (ratio under 1): the budget grows with the square of the zoom, past the map's total.
    const zoomedIn = await zoom(page, -400, 3, total);
    expect(zoomedIn.ratio).toBeLessThan(0.9);
    expect(zoomedIn.shown).toBe(total);

    // Zoomed out past the default: fewer than the budget.
    const zoomedOut = await zoom(page, 400, 8, total);
    expect(zoomedOut.ratio).toBeGreaterThan(1.5);
    expect(zoomedOut.shown).toBeLessThan(BUDGET);
    expect(zoomedOut.shown).toBe(Math.round(BUDGET / zoomedOut.ratio ** 2));

    expectClean(opened);
  }, 120_000);

  test("at up to 6,000 relations hovering one shows what it is (edge hover is on)", async () => {
    const opened = await openSignedIn(web, server, "/capture");
    const { page, key } = opened;
    const ids: number[] = [];
    const words = ["kettle", "harbour", "violin", "compost", "lantern", "glacier", "bicycle", "orchard"];
    for (let i = 0; i < 80; i++) {
      const res = await api(server.base, key, "POST", "/ideas", { title: `${words[i % 8]} ${words[(i >> 3) % 8]} plan ${i + 1}` });
      expect(res.status).toBe(201);
      ids.push(res.body.id as number);
    }
    // The pipeline's suggestions among these ideas first (how many it made before the person's relations below
    // depended on how fast the store kept up: the pairs the person relates first are not suggested afterwards), then
    // the person's relations (80 ideas give 6,320 ordered pairs) up to 6,000 in all: the limit, hover still on.
    await pipelineIdle();
    const suggested = await mapTotal(key);
    expect(suggested, "the pipeline's suggestions").toBeLessThan(300);
    const links: Array<{ source_idea_id: number; target_idea_id: number; relation_type: string }> = [];
    for (let s = 0; s < ids.length && links.length < 6000 - suggested; s++) {
      for (let t = 0; t < ids.length && links.length < 6000 - suggested; t++) if (s !== t) links.push({ source_idea_id: ids[s], target_idea_id: ids[t], relation_type: "related" });
    }
    const total = await relateAll(key, links);
    expect(total, "the map holds 6,000 relations").toBe(6000);

    await page.goto(`${server.base}/map`);
    await page.waitForFunction(() => document.querySelector(".map-canvas")?.idearepoMap?.layoutMs != null, null, { timeout: 30_000 });
    await page.evaluate(() => document.querySelector(".map-canvas").scrollIntoView({ block: "end" }));
    const s = await state(page);
    expect(s.edgeEvents, "edge hover at 6,000 relations").toBe(true);
    expect(s.shown, "all drawn (under the budget)").toBe(total);

    // Points between two ideas with no idea under them, until the pointer rests on a relation and its tooltip shows.
    const tooltip = page.getByRole("tooltip");
    const box = (await page.locator(".map-canvas").boundingBox())!;
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.waitForFunction(() => document.querySelector(".map-canvas").idearepoMap.drawnBy() === "webgl", null, { timeout: 20_000 });
    const spots = (await page.evaluate((n) => {
      const el = document.querySelector(".map-canvas");
      const v = el.idearepoMap, r = el.getBoundingClientRect();
      const out: Array<{ x: number; y: number }> = [];
      for (let i = 0; i + 1 < n.length && out.length < 25; i++) {
        const a = v.positionOf(n[i]), b = v.positionOf(n[i + 1]);
        if (!a || !b) continue;
        const x = (a.x * 2 + b.x) / 3, y = (a.y * 2 + b.y) / 3;
        if (v.nodeAt(x - r.left, y - r.top) === null) out.push({ x, y });
      }
      return out;
    }, ids)) as Array<{ x: number; y: number }>;
    let seen = "";
    for (const p of spots) {
      await page.mouse.move(p.x, p.y, { steps: 3 });
      if (await tooltip.waitFor({ timeout: 1500 }).then(() => true, () => false)) {
        seen = await tooltip.innerText();
        break;
      }
    }
    expect(seen, `no relation's tooltip at ${spots.length} points between ideas`).toMatch(/#\d+ related to #\d+/);
    expectClean(opened);
  }, 120_000);
});
