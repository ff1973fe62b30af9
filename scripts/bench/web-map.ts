// The mind map at size in headless Chromium: 2,000 ideas and 5,000 relations on one Pro account, then
//   layout settle: from the renderer's start (data fetched, sigma chunk loaded) until ForceAtlas2 stops moving nodes,
//     and from the navigation start until then;
//   frame time while panning: requestAnimationFrame deltas (p50/p95) during a scripted mouse pan over the settled map,
//     beside the same pan over an empty page in the same browser (the frame rate the browser gives anything).
//
//   bun scripts/bench/web-map.ts [--ideas 2000] [--edges 5000] [--runs 3] [--json]
//
// Ideas are captured through the API with the background pipeline paused (no system relations appear while measuring);
// relations go through POST /map/relations in bulk, 50 per call, as related/inspires pairs (never refused as cycles);
// statuses are spread over the five with PATCH /ideas/bulk so the map draws every colour.
// Headless Chromium has no GPU here: WebGL runs on SwiftShader (software), so these are CPU-bound figures; on a GPU the
// frames are far cheaper.
import type { Browser, Page } from "playwright-core";
import { rmSync } from "node:fs";
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
  const rand = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
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
  const t0 = performance.now();
  let made = 0;
  for (let i = 0; i < links.length; i += 50) made += (await call(server, "POST", "/map/relations", { links: links.slice(i, i + 50) })).linked;
  if (made !== edges) throw new Error(`expected ${edges} relations, the API made ${made}`);
  return (performance.now() - t0) / 1000;
}

/** rAF deltas (ms) while the mouse drags across `page` from the centre, left and back. */
async function panFrames(page: Page): Promise<number[]> {
  const box = { x: 640, y: 470 };
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
  await page.mouse.move(box.x, box.y);
  await page.mouse.down();
  for (let i = 1; i <= PAN_STEPS; i++) {
    const dx = Math.sin((i / PAN_STEPS) * Math.PI * 2) * 300;
    await page.mouse.move(box.x + dx, box.y + dx / 3);
  }
  await page.mouse.up();
  return page.evaluate(() => {
    window.__panning = false;
    return window.__frames.slice(1) as number[];
  });
}

async function openMap(browser: Browser, server: WebBenchServer): Promise<{ page: Page; close: () => Promise<void>; layoutMs: number; navToSettled: number; nodes: number }> {
  const context = await signedInContext(browser, server);
  const page = await context.newPage();
  await page.goto(`${server.base}/map`);
  const done = await page.waitForFunction(() => {
    const v = document.querySelector(".map-canvas")?.idearepoMap;
    return v && v.layoutMs != null && { layoutMs: v.layoutMs as number, at: performance.now(), nodes: v.visibleIds().length as number };
  }, null, { timeout: 120_000, polling: "raf" });
  const out = (await done.jsonValue()) as { layoutMs: number; at: number; nodes: number };
  return { page, close: () => context.close(), layoutMs: out.layoutMs, navToSettled: out.at, nodes: out.nodes };
}

export async function mindMapFigures(browser: Browser, opts: { ideas?: number; edges?: number; runs?: number } = {}): Promise<{ rows: Row[]; lines: string[] }> {
  const ideas = opts.ideas ?? IDEAS, edges = opts.edges ?? EDGES, runs = opts.runs ?? RUNS;
  const server = await startWebBenchServer({ ideas });
  try {
    const seedSeconds = await seedRelations(server, edges);
    console.error(`mind map: ${ideas} ideas seeded in ${server.seedSeconds.toFixed(1)} s, ${edges} relations in ${seedSeconds.toFixed(1)} s`);
    const settle: number[] = [], navSettle: number[] = [], frames: number[] = [], blank: number[] = [];
    const blankCtx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const blankPage = await blankCtx.newPage();
    await blankPage.setContent("<!doctype html><title>blank</title><p>baseline</p>");
    for (let i = 0; i < runs + 1; i++) {
      const m = await openMap(browser, server);
      if (m.nodes !== ideas) throw new Error(`expected ${ideas} nodes on the map, saw ${m.nodes}`);
      const f = await panFrames(m.page);
      const b = await panFrames(blankPage);
      await m.close();
      if (i === 0) continue; // warm-up: JIT, the server's statement cache, the bundle in memory
      settle.push(m.layoutMs);
      navSettle.push(m.navToSettled);
      frames.push(...f);
      blank.push(...b);
    }
    await blankCtx.close();
    const med = (xs: number[]) => percentile(xs, 50);
    // rAF deltas alternate between a rendered frame and an idle one when rendering is slow, so the mean matters too.
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const lines = [
      `| mind map ${ideas.toLocaleString("en")} ideas / ${edges.toLocaleString("en")} edges: layout settle (renderer start → settled) | median ${fmtMs(med(settle))} (runs: ${settle.map((v) => fmtMs(v)).join(", ")}) | | |`,
      `| mind map: navigation → layout settled | median ${fmtMs(med(navSettle))} | | |`,
      `| mind map: frame time while panning | p50 ${fmtMs(med(frames))}, p95 ${fmtMs(percentile(frames, 95))}, mean ${fmtMs(mean(frames))} (${frames.length} frames) | empty page, same pan, same browser | p50 ${fmtMs(med(blank))}, p95 ${fmtMs(percentile(blank, 95))}, mean ${fmtMs(mean(blank))} |`,
    ];
    const rows = [
      row("web", `mind map ${ideas}/${edges}: layout settle (median)`, med(settle), "ms"),
      row("web", "mind map: navigation → layout settled (median)", med(navSettle), "ms"),
      row("web", "mind map: frame time while panning (p50)", med(frames), "ms", { baseline: { name: "empty page, same pan", value: med(blank) }, ratio: med(blank) / med(frames) }),
      row("web", "mind map: frame time while panning (mean)", mean(frames), "ms", { baseline: { name: "empty page, same pan", value: mean(blank) }, ratio: mean(blank) / mean(frames) }),
      row("web", "mind map: frame time while panning (p95)", percentile(frames, 95), "ms", { baseline: { name: "empty page, same pan", value: percentile(blank, 95) }, ratio: percentile(blank, 95) / percentile(frames, 95) }),
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
    const { rows, lines } = await mindMapFigures(browser);
    console.log(`\nMind map in headless Chromium (WebGL on SwiftShader), ${RUNS} runs after a warm-up`);
    console.log("| measurement | product | baseline | baseline value |");
    console.log("|---|---|---|---|");
    for (const l of lines) console.log(l);
    console.log("");
    report(rows);
  } finally {
    await browser.close();
  }
}
