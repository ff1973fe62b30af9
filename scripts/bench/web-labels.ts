// The mind map's label pass per frame at 10,000 ideas in headless Chromium: the product's labels.ts beside the baseline's
// (the same file as of --baseline, default the commit before the pass looked only at the nodes on screen), both over
// one sigma renderer of the same map, as view.ts wires them; after each render of a scripted camera path both lay out
// and draw the labels three times, alternating, the fastest of each kept (the pass without the machine's preemption;
// the first of the three also pays for titles not measured yet), and their boxes compared (they must be identical).
//
//   bun scripts/bench/web-labels.ts [--ideas 10000] [--edges 25000] [--runs 3] [--baseline 7fa47b8]
//
// Beside both, the floor: the same labels' titles drawn alone (clear, stroke and fill each) with no layout.
// The map: `ideas` nodes, a tenth unconnected (on the grid below, as the view places them), the rest in 40 loose groups
// joined by `edges` relations, laid out by the product's force layout (force.ts); titles from ideaTexts (real sentences).
// The path: the default zoom, panned a little; zooming in on a group to ratio 0.05; panning at ratio 0.15; a node
// dragged across the screen at ratio 0.3 (its label follows); a selected idea throughout the last two. Runs after a
// warm-up run. The load average (1 min) is printed beside the figures.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { runLayout } from "../../src/web/pages/map/force";
import { gridBelow } from "../../src/web/pages/map/layout";
import { flag, ideaTexts, report, ROOT, row, tempDir } from "./lib";
import { fmtMs, launchBrowser, percentile } from "./web-lib";
import type { BenchData, Frame, Step } from "./web-labels-types";

const IDEAS = flag("ideas", 10_000);
const EDGES = flag("edges", 25_000);
const RUNS = flag("runs", 3);
const at = process.argv.indexOf("--baseline");
const BASELINE = at === -1 ? "7fa47b8" : process.argv[at + 1];

declare const window: { benchLabels(data: BenchData, steps: Step[]): Promise<Frame[]> };

/** The map: nodes newest first (as the API lists them), sized and ordered by connections as view.ts does. */
function makeMap(): BenchData {
  let seed = 7;
  const rand = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % k);
  const n = IDEAS, connected = Math.floor(n * 0.9);
  const pairs = new Set<string>();
  const links: number[] = [];
  const degree = new Int32Array(n);
  while (links.length / 2 < EDGES) {
    const s = rand(connected);
    const t = rand(4) === 0 ? rand(connected) : (rand(Math.floor(connected / 40)) * 40 + (s % 40)) % connected;
    if (s === t || pairs.has(`${s}>${t}`)) continue;
    pairs.add(`${s}>${t}`);
    links.push(s, t);
    degree[s]++;
    degree[t]++;
  }
  const t0 = performance.now();
  const pos = runLayout({ n: connected, links: Int32Array.from(links), fixed: new Float64Array(connected * 2).fill(NaN), seed: n * 7919 + EDGES });
  console.error(`layout of ${connected} connected nodes: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const xs: number[] = [], ys: number[] = [];
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < connected; i++) {
    xs.push(pos[i * 2]);
    ys.push(pos[i * 2 + 1]);
    minX = Math.min(minX, pos[i * 2]); maxX = Math.max(maxX, pos[i * 2]);
    minY = Math.min(minY, pos[i * 2 + 1]); maxY = Math.max(maxY, pos[i * 2 + 1]);
  }
  for (const p of gridBelow(n - connected, { minX, maxX, minY, maxY })) { xs.push(p.x); ys.push(p.y); }
  const titles = ideaTexts(n).map((t) => t.title);
  const keys = Array.from({ length: n }, (_, i) => String(i + 1));
  // Newest first, then by connections (a stable sort keeps the newest first among equals).
  const order = [...keys].reverse().sort((a, b) => degree[Number(b) - 1] - degree[Number(a) - 1]);
  return { keys, xs, ys, sizes: Array.from(degree, (c) => Math.min(5 + 2 * Math.sqrt(c), 18)), labels: titles, order };
}

/** The camera path, in sigma's framed coordinates (0..1 across the map, the default camera at 0.5, 0.5, ratio 1). */
function path(data: BenchData): Step[] {
  const steps: Step[] = [];
  const hub = data.order[0];
  const grouped = data.order[40];
  for (let i = 0; i < 20; i++) steps.push({ x: 0.5 + 0.02 * Math.sin(i / 3), y: 0.5 + 0.02 * Math.cos(i / 3), ratio: 1, segment: "default zoom, panning", selected: null, move: null });
  for (let i = 0; i < 20; i++) steps.push({ x: 0.5 - 0.15 * (i / 19), y: 0.5 + 0.1 * (i / 19), ratio: Math.pow(0.05, i / 19), segment: "zooming in to 0.05", selected: null, move: null });
  for (let i = 0; i < 20; i++) steps.push({ x: 0.3 + 0.4 * (i / 19), y: 0.45 + 0.1 * Math.sin(i / 4), ratio: 0.15, segment: "panning at 0.15", selected: hub, move: null });
  // A node dragged across the middle of the screen (graph coordinates: around the layout's centre).
  const cx = data.xs.reduce((a, b) => a + b, 0) / data.xs.length, cy = data.ys.reduce((a, b) => a + b, 0) / data.ys.length;
  for (let i = 0; i < 20; i++) steps.push({ x: 0.5, y: 0.5, ratio: 0.3, segment: "dragging a node at 0.3", selected: hub, move: { key: grouped, x: cx - 200 + 20 * i, y: cy + 60 * Math.sin(i / 3) } });
  return steps;
}

/** The bench page's bundle: the product's labels.ts and the baseline's (from git) side by side. */
async function bundle(dir: string): Promise<string> {
  const base = join(dir, "baseline");
  mkdirSync(base, { recursive: true });
  for (const file of ["labels.ts", "canvas.ts", "projection.ts"]) {
    const shown = Bun.spawnSync(["git", "show", `${BASELINE}:src/web/pages/map/${file}`], { cwd: ROOT });
    if (shown.exitCode !== 0) throw new Error(`git show ${BASELINE}:${file}: ${shown.stderr.toString()}`);
    writeFileSync(join(base, file), shown.stdout);
  }
  const out = await Bun.build({
    entrypoints: [join(import.meta.dir, "web-labels-page.ts")],
    target: "browser",
    minify: true,
    plugins: [{ name: "baseline", setup: (b) => { b.onResolve({ filter: /^bench-baseline\/labels$/ }, () => ({ path: join(base, "labels.ts") })); } }],
  });
  if (!out.success) throw new Error(`bench page bundle failed: ${out.logs.join("\n")}`);
  return out.outputs[0].text();
}

const dir = tempDir("idearepo-bench-labels-");
const script = await bundle(dir);
const data = makeMap();
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) => new URL(req.url).pathname === "/page.js"
    ? new Response(script, { headers: { "content-type": "text/javascript" } })
    : new Response(`<!doctype html><title>labels</title><body style="margin:0"><div id="map" style="position:relative;width:1180px;height:700px"></div><script type="module" src="/page.js"></script>`, { headers: { "content-type": "text/html" } }),
});
const browser = await launchBrowser();
const loadAtStart = loadavg()[0];
try {
  const all: Frame[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    page.on("console", (m) => { if (m.type() === "error") console.error(`  console error: ${m.text()}`); });
    await page.goto(`http://127.0.0.1:${server.port}/`);
    await page.waitForFunction(() => typeof (window as any).benchLabels === "function");
    const frames = await page.evaluate(([d, s]) => window.benchLabels(d, s), [data, path(data)] as const);
    await context.close();
    const differ = frames.filter((f) => !f.same);
    console.error(`run ${run}${run === 0 ? " (warm-up)" : ""}: product median ${fmtMs(percentile(frames.map((f) => f.product), 50))}, baseline ${fmtMs(percentile(frames.map((f) => f.baseline), 50))}; ${frames.length - differ.length}/${frames.length} frames identical${differ.length ? `; first difference: ${differ[0].segment} ratio ${differ[0].ratio.toFixed(3)}: ${differ[0].diff}` : ""}`);
    if (run > 0) all.push(...frames);
  }
  const load = `load average ${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}`;
  console.log(`\nMind map label pass per frame, ${IDEAS.toLocaleString("en")} ideas / ${EDGES.toLocaleString("en")} relations, headless Chromium, ${RUNS} runs after a warm-up (${load})`);
  console.log("| camera | labels drawn (median) | product p50 / p95 | baseline (labels.ts as of " + BASELINE + ") p50 / p95 | the same labels drawn alone p50 | identical frames |");
  console.log("|---|---|---|---|---|---|");
  const rows = [];
  for (const segment of [...new Set(all.map((f) => f.segment)), "all frames"]) {
    const fs = segment === "all frames" ? all : all.filter((f) => f.segment === segment);
    const p = fs.map((f) => f.product), b = fs.map((f) => f.baseline);
    console.log(`| ${segment} | ${percentile(fs.map((f) => f.labels), 50)} | ${fmtMs(percentile(p, 50))} / ${fmtMs(percentile(p, 95))} | ${fmtMs(percentile(b, 50))} / ${fmtMs(percentile(b, 95))} | ${fmtMs(percentile(fs.map((f) => f.floor), 50))} | ${fs.filter((f) => f.same).length}/${fs.length} |`);
    rows.push(row("web", `label pass ${IDEAS}: ${segment} (p50)`, percentile(p, 50), "ms", { baseline: { name: `labels.ts as of ${BASELINE}`, value: percentile(b, 50) }, ratio: percentile(b, 50) / percentile(p, 50) }));
  }
  console.log("");
  report(rows);
  if (all.some((f) => !f.same)) process.exitCode = 1;
} finally {
  await browser.close();
  server.stop(true);
  rmSync(dir, { recursive: true, force: true });
}
