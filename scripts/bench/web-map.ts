// The mind map at size in headless Chromium: 2,000 ideas / 5,000 relations (and 10,000 / 25,000 with --large) on one
// Pro account, each run alternating the product and its baseline in the same browser:
//   layout settle, first visit: the account's remembered positions cleared (DELETE /map/positions), from the renderer's
//     start (data fetched, sigma chunk loaded) until the layout worker's positions are in and still; and from the
//     navigation start;
//   layout settle, second visit: the same map opened again in a fresh context, positions remembered (nothing to lay
//     out: the floor of drawing this graph);
//   input latency during the layout: a key (Shift) pressed every 50 ms while the first visit's layout runs, from the
//     event's timestamp to the next frame after its handler; baseline: the same keys on an empty page; and the same
//     keys from then until sigma (WebGL) has taken over from the first view's 2D canvas (made when the page is idle);
//   frame time while panning: requestAnimationFrame deltas (p50/p95) during a scripted mouse pan over the settled map
//     (from an empty spot, so it pans rather than drags a node), beside the same pan over an empty page.
//
//   bun scripts/bench/web-map.ts [--ideas 2000] [--edges 5000] [--runs 3] [--large] [--large-runs 1] [--large-only]
//
// The load average (1 min) is printed at the start and end of each size: on a shared machine a figure means something
// only beside its baseline from the same run and the load it was taken under.
//
// Ideas are captured through the API with the background pipeline paused (no system relations appear while measuring);
// relations go through POST /map/relations in bulk, 50 per call, as related/inspires pairs (never refused as cycles);
// statuses are spread over the five with PATCH /ideas/bulk so the map draws every colour.
// Headless Chromium has no GPU here: WebGL runs on SwiftShader (software), so these are CPU-bound figures; on a GPU the
// frames are far cheaper.
import type { Browser, Page } from "playwright-core";
import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import { flag, report, row, type Row } from "./lib";
import { fmtMs, launchBrowser, percentile, signedInContext, startWebBenchServer, type WebBenchServer } from "./web-lib";

const IDEAS = flag("ideas", 2000);
const EDGES = flag("edges", 5000);
const RUNS = flag("runs", 3);
const PAN_STEPS = 120;

declare const window: any, document: any, requestAnimationFrame: (fn: (t: number) => void) => number;

async function call(server: WebBenchServer, method: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${server.base}/api/v1${path}`, { method, headers: { "x-api-key": server.key, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** 5,000 distinct ordered pairs over the ideas, biased towards a few hubs so the map has clusters, not a hairball. */
export async function seedRelations(server: WebBenchServer, edges: number): Promise<number> {
  const map = (await (await fetch(`${server.base}/api/v1/map`, { headers: { "x-api-key": server.key } })).json()) as { nodes: Array<{ id: number }> };
  const ids = map.nodes.map((n) => n.id);
  const statuses = ["captured", "exploring", "building", "shipped", "shelved"];
  for (let i = 0; i < ids.length; i += 50) await call(server, "PATCH", "/ideas/bulk", { ids: ids.slice(i, i + 50), status: statuses[(i / 50) % 5] });
  let seed = 7;
  // 32-bit multiply: the plain product passed 2^53 and lost its low bits, so the generator fell into a short cycle and
  // the relations landed on ~270 ideas instead of 1,800 (the 8.1 s figure before issue 27 was measured on that graph).
  const rand = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % k);
  const pairs = new Set<string>();
  const links: Array<{ source_idea_id: number; target_idea_id: number; relation_type: string }> = [];
  // A tenth of the ideas stay unconnected (they go to the grid); the rest connect within 40 loose groups.
  const connected = ids.slice(0, Math.floor(ids.length * 0.9));
  while (links.length < edges) {
    const s = connected[rand(connected.length)];
    const group = s % 40;
    const pool = rand(4) === 0 ? connected : connected.filter((id) => id % 40 === group);
    const t = pool[rand(pool.length)];
    if (s === t || pairs.has(`${s}>${t}`)) continue;
    pairs.add(`${s}>${t}`);
    links.push({ source_idea_id: s, target_idea_id: t, relation_type: rand(3) === 0 ? "inspires" : "related" });
  }
  console.error(`relations touch ${new Set(links.flatMap((l) => [l.source_idea_id, l.target_idea_id])).size} ideas`);
  const t0 = performance.now();
  let made = 0;
  for (let i = 0; i < links.length; i += 50) made += (await call(server, "POST", "/map/relations", { links: links.slice(i, i + 50) })).linked;
  if (made !== edges) throw new Error(`expected ${edges} relations, the API made ${made}`);
  return (performance.now() - t0) / 1000;
}

/** rAF deltas (ms) while the mouse drags across `page` from `from`, left and back. */
async function panFrames(page: Page, from = { x: 640, y: 470 }): Promise<number[]> {
  await page.evaluate(() => {
    window.__frames = [];
    window.__panning = true;
    let last = performance.now();
    const tick = (t: number) => {
      window.__frames.push(t - last);
      last = t;
      if (window.__panning) requestAnimationFrame(tick);
    };
    requestAnimationFrame((t: number) => { last = t; requestAnimationFrame(tick); });
  });
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= PAN_STEPS; i++) {
    const dx = Math.sin((i / PAN_STEPS) * Math.PI * 2) * 300;
    await page.mouse.move(from.x + dx, from.y + dx / 3);
  }
  await page.mouse.up();
  return page.evaluate(() => {
    window.__panning = false;
    return window.__frames.slice(1) as number[];
  });
}

/** Records, for every keydown on the page, when it happened and the time from its timestamp to the next frame after it. */
const LATENCY_PROBE = () => {
  window.__latency = [];
  document.addEventListener("keydown", (e: any) => {
    requestAnimationFrame(() => window.__latency.push([e.timeStamp, performance.now() - e.timeStamp]));
  }, true);
};

/**
 * Presses Shift every 50 ms (a key no page acts on), without waiting on the page in between (a busy page queues them,
 * and their latency shows it), checking `stop()` every fourth key; at most `max` keys. Answers [timestamp, latency]s.
 */
async function pressWhile(page: Page, stop: () => Promise<boolean>, max = 400): Promise<Array<[number, number]>> {
  for (let i = 0; i < max; i++) {
    if (i % 4 === 0 && (await stop())) break;
    await page.keyboard.press("Shift", { delay: 0 });
    await Bun.sleep(50);
  }
  return page.evaluate(() => window.__latency as Array<[number, number]>);
}

/** Whether sigma (WebGL) draws the map now (before, the first view's 2D canvas does: docs/web.md). */
const webglDrawn = () => document.querySelector(".map-canvas")?.idearepoMap?.drawnBy?.() === "webgl";

const settledFigures = () => {
  const v = document.querySelector(".map-canvas")?.idearepoMap;
  return v && v.layoutMs != null ? { layoutMs: v.layoutMs as number, at: performance.now(), nodes: v.visibleIds().length as number, placed: v.placed as number } : null;
};

interface Visit { page: Page; close: () => Promise<void>; layoutMs: number; navToSettled: number; nodes: number; placed: number; latency: number[]; handover: number[] }

/** Opens /map in a fresh signed-in context; with `typeWhileArranging`, presses keys in the search box until settled. */
async function openMap(browser: Browser, server: WebBenchServer, typeWhileArranging: boolean): Promise<Visit> {
  const context = await signedInContext(browser, server);
  const page = await context.newPage();
  await page.addInitScript(LATENCY_PROBE);
  page.on("crash", () => console.error("  the page crashed"));
  page.on("console", (m) => { if (m.type() === "error") console.error(`  console error: ${m.text()}`); });
  await page.goto(`${server.base}/map`, { waitUntil: typeWhileArranging ? "commit" : "load" });
  let keys: Array<[number, number]> = [];
  if (typeWhileArranging) keys = await pressWhile(page, async () => (await page.evaluate(settledFigures)) !== null);
  const done = await page.waitForFunction(settledFigures, null, { timeout: 300_000, polling: "raf" });
  const out = (await done.jsonValue()) as { layoutMs: number; at: number; nodes: number; placed: number };
  // Then on until sigma has taken over from the first view (when the page is idle): the keys of that stretch too.
  if (typeWhileArranging) keys = await pressWhile(page, () => page.evaluate(webglDrawn), 600);
  await page.waitForFunction(webglDrawn, null, { timeout: 120_000, polling: 100 });
  const marks = await page.evaluate(() => performance.getEntriesByType("mark").filter((m: any) => m.name.startsWith("map:")).map((m: any) => `${m.name} ${m.startTime.toFixed(0)}${m.detail ? " " + JSON.stringify(m.detail) : ""}`));
  console.error(`  settled at ${out.at.toFixed(0)} (layoutMs ${out.layoutMs.toFixed(0)}); ${marks.join("; ")}`);
  // The keys pressed while the layout ran: from the worker's start to the settled positions.
  const layoutStart = await page.evaluate(() => performance.getEntriesByName("map:layout-start")[0]?.startTime ?? null);
  const latency = layoutStart === null ? [] : keys.filter(([t]) => t >= layoutStart && t <= out.at).map(([, l]) => l);
  const webglAt = await page.evaluate(() => performance.getEntriesByName("map:webgl-drawn")[0]?.startTime ?? Infinity);
  const handover = keys.filter(([t]) => t > out.at && t <= webglAt + 50).map(([, l]) => l);
  // The slow keys with when they were pressed, to set beside the marks above (which task they waited for).
  const slow = keys.filter(([, l]) => l > 50).map(([t, l]) => `${t.toFixed(0)}: ${l.toFixed(0)} ms`);
  if (slow.length) console.error(`  keys over 50 ms (pressed at: latency): ${slow.join(", ")}`);
  // sigma's window: from its start until 250 ms after its first frame is on screen (its set-up, intake and swap).
  const rendererAt = await page.evaluate(() => performance.getEntriesByName("map:renderer-start")[0]?.startTime ?? Infinity);
  const inSigma = keys.filter(([t]) => t >= rendererAt && t <= webglAt + 250).map(([, l]) => l);
  if (typeWhileArranging) console.error(`  sigma's window (renderer-start → webgl-drawn + 250 ms): ${inSigma.length} keys, max ${fmtMs(Math.max(0, ...inSigma))}, over 50 ms: ${inSigma.filter((l) => l > 50).map((l) => l.toFixed(0)).join(", ") || "none"} (load ${loadavg()[0].toFixed(1)})`);
  return { page, close: () => context.close(), layoutMs: out.layoutMs, navToSettled: out.at, nodes: out.nodes, placed: out.placed, latency, handover };
}

/** A point of the canvas with no node under it, near its centre, in page coordinates. */
async function emptySpot(page: Page): Promise<{ x: number; y: number }> {
  return page.evaluate(() => {
    const el = document.querySelector(".map-canvas");
    const v = el.idearepoMap;
    const r = el.getBoundingClientRect();
    for (let ring = 0; ring < 40; ring++) {
      for (let k = 0; k < 16; k++) {
        const x = r.width / 2 + Math.cos(k) * ring * 8, y = r.height / 2 + Math.sin(k) * ring * 8;
        if (v.nodeAt(x, y) === null && v.nodeAt(x + 300, y + 100) === null && v.nodeAt(x - 300, y - 100) === null) return { x: r.left + x, y: r.top + y };
      }
    }
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
}

export interface MapFigures { rows: Row[]; lines: string[] }

export async function mindMapFigures(browser: Browser, opts: { ideas?: number; edges?: number; runs?: number } = {}): Promise<MapFigures> {
  const ideas = opts.ideas ?? IDEAS, edges = opts.edges ?? EDGES, runs = opts.runs ?? RUNS;
  const server = await startWebBenchServer({ ideas });
  try {
    const seedSeconds = await seedRelations(server, edges);
    const loadAtStart = loadavg()[0];
    console.error(`mind map: ${ideas} ideas seeded in ${server.seedSeconds.toFixed(1)} s, ${edges} relations in ${seedSeconds.toFixed(1)} s`);
    const first: number[] = [], navFirst: number[] = [], second: number[] = [], navSecond: number[] = [];
    const latency: number[] = [], handover: number[] = [], blankLatency: number[] = [], frames: number[] = [], blank: number[] = [];
    const blankCtx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const blankPage = await blankCtx.newPage();
    await blankPage.addInitScript(LATENCY_PROBE);
    await blankPage.setContent("<!doctype html><title>blank</title><p>baseline</p><input aria-label=field>");
    await blankPage.evaluate(LATENCY_PROBE);
    for (let i = 0; i < runs + 1; i++) {
      // First visit: nothing remembered, the worker lays out every node.
      const cleared = await fetch(`${server.base}/api/v1/map/positions`, { method: "DELETE", headers: { "x-api-key": server.key } });
      if (!cleared.ok) throw new Error(`DELETE /map/positions: ${cleared.status}`);
      const one = await openMap(browser, server, true);
      if (one.nodes !== ideas) throw new Error(`expected ${ideas} nodes on the map, saw ${one.nodes}`);
      if (one.placed !== ideas) throw new Error(`first visit placed ${one.placed} of ${ideas}`);
      if (i === 0) console.error(`  ${await one.page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.visibleIds().length)} nodes drawn`);
      const f = await panFrames(one.page, await emptySpot(one.page));
      // The positions are saved in the background after the layout; wait for them before the second visit.
      for (let t = 0; t < 600; t++) {
        const r = await fetch(`${server.base}/api/v1/map/positions`, { headers: { "x-api-key": server.key } });
        if (((await r.json()) as { positions: unknown[] }).positions.length === ideas) break;
        await Bun.sleep(100);
      }
      await one.close();
      // The baseline for input and panning, in the same run: an empty page.
      await blankPage.evaluate(() => { window.__latency = []; });
      const bl = (await pressWhile(blankPage, async () => false, Math.max(10, one.latency.length + one.handover.length))).map(([, l]) => l);
      const b = await panFrames(blankPage);
      // Second visit: every position remembered.
      const two = await openMap(browser, server, false);
      if (two.placed !== 0) throw new Error(`second visit placed ${two.placed} nodes; expected none`);
      await two.close();
      console.error(`run ${i}: first visit ${one.layoutMs.toFixed(0)} ms (${one.latency.length} keys, max ${Math.max(0, ...one.latency).toFixed(0)} ms; until WebGL ${one.handover.length} keys, max ${Math.max(0, ...one.handover).toFixed(0)} ms), second ${two.layoutMs.toFixed(0)} ms, pan p95 ${percentile(f, 95).toFixed(0)} ms`);
      if (i === 0) continue; // warm-up: JIT, the server's statement cache, the bundle in memory
      first.push(one.layoutMs);
      navFirst.push(one.navToSettled);
      second.push(two.layoutMs);
      navSecond.push(two.navToSettled);
      latency.push(...one.latency);
      handover.push(...one.handover);
      blankLatency.push(...bl);
      frames.push(...f);
      blank.push(...b);
    }
    await blankCtx.close();
    const pct = (xs: number[], p: number) => (xs.length ? percentile(xs, p) : NaN);
    const med = (xs: number[]) => pct(xs, 50);
    // rAF deltas alternate between a rendered frame and an idle one when rendering is slow, so the mean matters too.
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const load = `load average ${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}`;
    const size = `${ideas.toLocaleString("en")} ideas / ${edges.toLocaleString("en")} edges (${load})`;
    const runsOf = (xs: number[]) => xs.map((v) => fmtMs(v)).join(", ");
    const lines = [
      `| mind map ${size}: layout settled, first visit (renderer start → positions still) | median ${fmtMs(med(first))} (runs: ${runsOf(first)}) | second visit, positions remembered (nothing to lay out) | median ${fmtMs(med(second))} (runs: ${runsOf(second)}) |`,
      `| mind map ${size}: navigation → layout settled, first visit | median ${fmtMs(med(navFirst))} | second visit | median ${fmtMs(med(navSecond))} |`,
      `| mind map ${size}: input latency while the layout runs (key → next frame) | p50 ${fmtMs(med(latency))}, p95 ${fmtMs(pct(latency, 95))}, max ${fmtMs(pct(latency, 100))} (${latency.length} keys) | empty page, same keys | p50 ${fmtMs(med(blankLatency))}, p95 ${fmtMs(pct(blankLatency, 95))}, max ${fmtMs(pct(blankLatency, 100))} |`,
      `| mind map ${size}: input latency from settled until sigma (WebGL) has taken over from the first view (key → next frame) | p50 ${fmtMs(med(handover))}, p95 ${fmtMs(pct(handover, 95))}, max ${fmtMs(pct(handover, 100))} (${handover.length} keys) | empty page, same keys (above) | |`,
      `| mind map ${size}: frame time while panning | p50 ${fmtMs(med(frames))}, p95 ${fmtMs(pct(frames, 95))}, mean ${fmtMs(mean(frames))} (${frames.length} frames) | empty page, same pan, same browser | p50 ${fmtMs(med(blank))}, p95 ${fmtMs(pct(blank, 95))}, mean ${fmtMs(mean(blank))} |`,
    ];
    const tag = `mind map ${ideas}/${edges}`;
    const rows = [
      row("web", `${tag}: layout settle, first visit (median)`, med(first), "ms", { baseline: { name: "second visit, positions remembered", value: med(second) }, ratio: med(second) / med(first) }),
      row("web", `${tag}: navigation → layout settled, first visit (median)`, med(navFirst), "ms", { baseline: { name: "second visit", value: med(navSecond) }, ratio: med(navSecond) / med(navFirst) }),
      row("web", `${tag}: input latency during layout (p95)`, pct(latency, 95), "ms", { baseline: { name: "empty page, same keys", value: pct(blankLatency, 95) }, ratio: pct(blankLatency, 95) / pct(latency, 95) }),
      row("web", `${tag}: input latency until WebGL takes over (max)`, pct(handover, 100), "ms", { baseline: { name: "empty page, same keys (max)", value: pct(blankLatency, 100) }, ratio: pct(blankLatency, 100) / pct(handover, 100) }),
      row("web", `${tag}: frame time while panning (p50)`, med(frames), "ms", { baseline: { name: "empty page, same pan", value: med(blank) }, ratio: med(blank) / med(frames) }),
      row("web", `${tag}: frame time while panning (mean)`, mean(frames), "ms", { baseline: { name: "empty page, same pan", value: mean(blank) }, ratio: mean(blank) / mean(frames) }),
      row("web", `${tag}: frame time while panning (p95)`, pct(frames, 95), "ms", { baseline: { name: "empty page, same pan", value: pct(blank, 95) }, ratio: pct(blank, 95) / pct(frames, 95) }),
    ];
    return { rows, lines };
  } finally {
    await server.app.stop();
    rmSync(server.dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const browser = await launchBrowser();
  try {
    const largeOnly = process.argv.includes("--large-only");
    const all: MapFigures = largeOnly ? { rows: [], lines: [] } : await mindMapFigures(browser);
    if (largeOnly || process.argv.includes("--large")) {
      const large = await mindMapFigures(browser, { ideas: 10_000, edges: 25_000, runs: flag("large-runs", 1) });
      all.rows.push(...large.rows);
      all.lines.push(...large.lines);
    }
    console.log(`\nMind map in headless Chromium (WebGL on SwiftShader), runs after a warm-up, product and baseline alternating`);
    console.log("| measurement | product | baseline | baseline value |");
    console.log("|---|---|---|---|");
    for (const l of all.lines) console.log(l);
    console.log("");
    report(all.rows);
  } finally {
    await browser.close();
  }
}
