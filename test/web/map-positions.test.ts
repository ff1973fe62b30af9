// The mind map remembers where ideas sit (GET/PUT /map/positions) in a real browser: the first visit lays the map out
// in the layout worker and saves every position; a second visit in a fresh browser (another device) opens with the
// same positions and places nothing; a newly captured idea is placed while the others keep theirs; labels never overlap,
// at the default zoom and zoomed into a region of a bigger map, where every idea on screen is labelled unless another
// label is in the way.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any, MutationObserver: any;
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api } from "../ops/harness";
import { createAccount, describeBrowser, expectClean, signIn, webScope, type WebServer } from "./harness";

type Positions = Record<string, { x: number; y: number }>;

describeBrowser("mind map positions", () => {
  const web = webScope("idearepo-web-map-positions-");
  let server: WebServer;

  beforeAll(async () => {
    server = await web.server();
  }, 60_000);

  const seed = async (key: string, title: string) => {
    const res = await api(server.base, key, "POST", "/ideas", { title });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  /** A fresh browser context signed in as the account: what a second device sees. */
  const openDevice = async (email: string) => {
    const opened = await web.open(server.base, "/");
    await signIn(opened.page, email, "correct horse battery");
    return opened;
  };
  /** Opens /map and waits until the layout has settled; answers the renderer's positions and how many it placed. */
  const openMap = async (page: Page) => {
    await page.goto(`${server.base}/map`);
    await page.getByRole("heading", { level: 1, name: "Mind map" }).waitFor();
    await page.waitForFunction(() => document.querySelector(".map-canvas")?.idearepoMap?.layoutMs != null, null, { timeout: 30_000 });
    await page.getByRole("status").filter({ hasText: /ideas ·/ }).filter({ hasNotText: "arranging" }).waitFor();
    return page.evaluate(() => {
      const v = document.querySelector(".map-canvas").idearepoMap;
      return { positions: v.positions() as Positions, placed: v.placed as number };
    });
  };
  const saved = async (key: string): Promise<Positions> => {
    const body = (await api(server.base, key, "GET", "/map/positions")).body as { positions: Array<{ id: number; x: number; y: number }> };
    return Object.fromEntries(body.positions.map((p) => [String(p.id), { x: p.x, y: p.y }]));
  };
  /** Saving runs after the layout, in the background: wait (bounded) until the server holds `count` positions. */
  const waitSaved = async (key: string, count: number): Promise<Positions> => {
    const until = Date.now() + 15_000;
    let got = await saved(key);
    while (Object.keys(got).length < count && Date.now() < until) {
      await Bun.sleep(100);
      got = await saved(key);
    }
    expect(Object.keys(got).length, `positions saved: ${JSON.stringify(got)}`).toBe(count);
    return got;
  };
  const near = (a: Positions, b: Positions) => {
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    for (const id of Object.keys(a)) {
      expect(Math.abs(a[id].x - b[id].x), `x of ${id}`).toBeLessThanOrEqual(0.05);
      expect(Math.abs(a[id].y - b[id].y), `y of ${id}`).toBeLessThanOrEqual(0.05);
    }
  };

  test("the map settles and saves every position; another device opens with the same positions; a new idea is placed, the others keep theirs", async () => {
    const email = `m${Math.random().toString(36).slice(2, 9)}@example.com`;
    const key = createAccount(server, email, "correct horse battery", "pro");
    const ids: number[] = [];
    for (const t of ["Tide clock", "Bike lane sensor", "Seed library", "Shared tool shed", "Night market map", "Rooftop beehives", "Quiet hours sign"]) ids.push(await seed(key, t));
    for (const [s, t] of [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5]]) {
      expect((await api(server.base, key, "POST", "/map/relations", { source_idea_id: ids[s], target_idea_id: ids[t], relation_type: "related" })).status).toBe(201);
    }

    const first = await openDevice(email);
    const one = await openMap(first.page);
    expect(one.placed).toBe(ids.length);
    expect(Object.keys(one.positions).sort()).toEqual(ids.map(String).sort());
    // No two ideas on top of each other.
    const pts = Object.values(one.positions);
    for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) expect(Math.hypot(pts[i].x - pts[j].x, pts[i].y - pts[j].y)).toBeGreaterThan(1);
    const stored = await waitSaved(key, ids.length);
    near(stored, one.positions);
    expectClean(first);

    const second = await openDevice(email);
    const two = await openMap(second.page);
    expect(two.placed, "a remembered map places nothing").toBe(0);
    near(two.positions, stored);

    // A new idea arrives (captured through the API, as the share sheet or e-mail would); the map places it alone.
    const fresh = await seed(key, "Library of things");
    const three = await openMap(second.page);
    expect(three.placed).toBe(1);
    const { [String(fresh)]: placed, ...others } = three.positions;
    expect(placed, "the new idea is on the map").toBeDefined();
    near(others, stored);
    for (const p of Object.values(others)) expect(Math.hypot(p.x - placed.x, p.y - placed.y)).toBeGreaterThan(1);
    const after = await waitSaved(key, ids.length + 1);
    near(after, three.positions);
    expectClean(second);
  }, 120_000);

  test("a remembered map opens as it was left: its status never says arranging, Arrange again is never disabled", async () => {
    const email = `r${Math.random().toString(36).slice(2, 9)}@example.com`;
    const key = createAccount(server, email, "correct horse battery", "pro");
    const ids: number[] = [];
    for (const t of ["Rain barrel", "Compost bins", "Pollinator strip"]) ids.push(await seed(key, t));
    for (const [s, t] of [[0, 1], [1, 2]]) {
      expect((await api(server.base, key, "POST", "/map/relations", { source_idea_id: ids[s], target_idea_id: ids[t], relation_type: "related" })).status).toBe(201);
    }
    const first = await openDevice(email);
    expect((await openMap(first.page)).placed).toBe(ids.length);
    await waitSaved(key, ids.length);
    expectClean(first);

    // Another device, watched from its first byte: every text the map's status shows, and the button's every state.
    const second = await openDevice(email);
    await second.context.addInitScript(() => {
      const w = globalThis as unknown as { seen: string[] };
      w.seen = [];
      new MutationObserver(() => {
        const status = document.querySelector(".map-stats")?.textContent;
        const button = [...document.querySelectorAll("button")].find((b: any) => b.textContent === "Arrange again") as any;
        const now = `${status ?? "-"} | ${button ? (button.disabled ? "disabled" : "enabled") : "-"}`;
        if (w.seen.at(-1) !== now) w.seen.push(now);
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    expect((await openMap(second.page)).placed).toBe(0);
    const seen = (await second.page.evaluate(() => (globalThis as unknown as { seen: string[] }).seen)) as string[];
    expect(seen.filter((s) => s.includes("ideas ·")).length, seen.join("\n")).toBeGreaterThan(0);
    expect(seen.filter((s) => s.includes("ideas ·") && (s.includes("arranging") || s.endsWith("| disabled"))), seen.join("\n")).toEqual([]);
    expectClean(second);
  }, 90_000);

  test("labels never overlap at the default zoom, and the most connected ideas are labelled", async () => {
    const email = `l${Math.random().toString(36).slice(2, 9)}@example.com`;
    const key = createAccount(server, email, "correct horse battery", "pro");
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push(await seed(key, `A fairly long idea title number ${i + 1} about neighbourhood things`));
    // One hub with many relations: it must get a label whatever else is crowded around it.
    for (let i = 1; i < 25; i++) {
      expect((await api(server.base, key, "POST", "/map/relations", { source_idea_id: ids[0], target_idea_id: ids[i], relation_type: "related" })).status).toBe(201);
    }
    const opened = await openDevice(email);
    await openMap(opened.page);
    const boxes = (await opened.page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.labelBoxes())) as Array<{ id: number; x: number; y: number; w: number; h: number }>;
    expect(boxes.length).toBeGreaterThan(3);
    expect(boxes.map((b) => b.id)).toContain(ids[0]);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap, `labels of ${a.id} and ${b.id} overlap: ${JSON.stringify([a, b])}`).toBe(false);
      }
    }
    expectClean(opened);
  }, 90_000);

  type Box = { id: number; x: number; y: number; w: number; h: number };
  const expectApart = (boxes: Box[]) => {
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap, `labels of ${a.id} and ${b.id} overlap: ${JSON.stringify([a, b])}`).toBe(false);
      }
    }
  };

  test("zoomed into a region of a bigger map, every idea on screen is labelled unless another label is in its way; none overlap", async () => {
    const email = `z${Math.random().toString(36).slice(2, 9)}@example.com`;
    const key = createAccount(server, email, "correct horse battery", "pro");
    // 120 ideas in six groups of twenty, each group a hub and a chain: crowded at the default zoom.
    const words = ["garden", "bicycle", "library", "market", "rooftop", "harbour", "kitchen", "school", "river", "theatre"];
    const titles = Array.from({ length: 120 }, (_, i) => `${words[i % 10]} ${words[Math.floor(i / 10) % 10]} plan ${i + 1} for the block`);
    const ids: number[] = [];
    for (let i = 0; i < titles.length; i += 10) ids.push(...(await Promise.all(titles.slice(i, i + 10).map((t) => seed(key, t)))));
    const links: Array<{ source_idea_id: number; target_idea_id: number; relation_type: string }> = [];
    for (let g = 0; g < 6; g++) {
      for (let k = 1; k < 20; k++) {
        links.push({ source_idea_id: ids[g * 20], target_idea_id: ids[g * 20 + k], relation_type: "related" });
        if (k > 1) links.push({ source_idea_id: ids[g * 20 + k - 1], target_idea_id: ids[g * 20 + k], relation_type: "related" });
      }
    }
    for (let i = 0; i < links.length; i += 50) {
      const res = await api(server.base, key, "POST", "/map/relations", { links: links.slice(i, i + 50) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const opened = await openDevice(email);
    const { page } = opened;
    await openMap(page);
    await page.evaluate(() => document.querySelector(".map-canvas").scrollIntoView({ block: "end" }));
    const labelBoxes = () => page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.labelBoxes()) as Promise<Box[]>;
    const before = await labelBoxes();
    expectApart(before);

    // Zoomed in with the wheel, once sigma draws the map, over the idea whose neighbourhood fills most of the region the
    // checks below look at (left of the labels' room on the right) when magnified as three wheel steps do (4.9 times): where the wheel lands on
    // the laid-out map is the layout's choice, and over a sparse corner the check would have little to look at.
    await page.waitForFunction(() => document.querySelector(".map-canvas").idearepoMap.drawnBy() === "webgl", null, { timeout: 30_000 });
    const aim = (await page.evaluate(() => {
      const el = document.querySelector(".map-canvas"), v = el.idearepoMap, r = el.getBoundingClientRect();
      const at = v.visibleIds().map((id: number) => ({ id, ...(v.positionOf(id) as { x: number; y: number }) }));
      // 30 px inside the region: an idea on its edge may land either side of it.
      const inBox = (x: number, y: number) => x > r.left + 30 && x < r.right - 350 && y > r.top + 50 && y < r.bottom - 50;
      let best = { id: 0, x: r.left + (r.width - 320) / 2, y: r.top + r.height / 2, n: -1 };
      for (const c of at) {
        if (!inBox(c.x, c.y)) continue;
        const n = at.filter((p: { x: number; y: number }) => inBox(c.x + (p.x - c.x) * 4.9, c.y + (p.y - c.y) * 4.9)).length;
        if (n > best.n) best = { id: c.id, x: c.x, y: c.y, n };
      }
      return best;
    })) as { id: number; x: number; y: number; n: number };
    await page.mouse.move(aim.x, aim.y);
    for (let i = 0; i < 3; i++) {
      await page.mouse.wheel(0, -240);
      await page.waitForTimeout(400); // sigma animates each wheel step (250 ms): one step at a time, the same zoom every run
    }
    // The camera at rest: the same zoom and the same labels on two reads a few frames apart.
    let last = "";
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      await page.waitForTimeout(250);
      const now = JSON.stringify(await page.evaluate(() => [document.querySelector(".map-canvas").idearepoMap.zoomRatio(), document.querySelector(".map-canvas").idearepoMap.labelBoxes()]));
      if (now === last) break;
      last = now;
    }
    const [ratio, boxes] = JSON.parse(last) as [number, Box[]];
    expect(ratio, "the wheel zoomed in").toBeLessThan(0.5);
    expectApart(boxes);
    const shown = await page.evaluate(() => {
      const el = document.querySelector(".map-canvas"), v = el.idearepoMap, r = el.getBoundingClientRect();
      return { w: r.width, h: r.height, at: v.visibleIds().map((id: number) => { const p = v.positionOf(id); return { id, x: p.x - r.left, y: p.y - r.top }; }) };
    }) as { w: number; h: number; at: Array<{ id: number; x: number; y: number }> };
    for (const b of boxes) expect(b.x < shown.w && b.x + b.w > 0 && b.y < shown.h && b.y + b.h > 0, `label ${b.id} is on screen: ${JSON.stringify(b)}`).toBe(true);
    // Each idea well inside the view (room for its label on the right) has a label, or one already drawn lies where its
    // own would go: within its row, from its rim to the end of its title (13 px a character at most; the node's radius
    // at this zoom at most 18 / sqrt(ratio)).
    const labelled = new Set(boxes.map((b) => b.id));
    const inView = shown.at.filter((p) => p.x > 0 && p.x < shown.w - 320 && p.y > 20 && p.y < shown.h - 20);
    expect(inView.length, `ideas in the zoomed view (zoom ${ratio}; ${aim.n} expected there)`).toBeGreaterThan(3);
    for (const p of inView) {
      if (labelled.has(p.id)) continue;
      const title = titles[ids.indexOf(p.id)];
      const band = { x: p.x + 3, y: p.y - 8.5, w: 18 / Math.sqrt(ratio) + 13 * title.length + 4, h: 17 };
      const blocker = boxes.find((o) => band.x < o.x + o.w && o.x < band.x + band.w && band.y < o.y + o.h && o.y < band.y + band.h);
      expect(blocker, `idea ${p.id} ("${title}") at ${JSON.stringify(p)} is on screen, unlabelled, and no label is in its way (zoom ${ratio}; ${boxes.length} labels)`).toBeDefined();
    }
    // Zoomed in, ideas the default zoom had no room for are labelled.
    const newly = boxes.filter((b) => !before.some((o) => o.id === b.id));
    expect(newly.length, `labels before: ${before.length}, after: ${boxes.length}`).toBeGreaterThan(0);
    expectClean(opened);
  }, 120_000);
});
