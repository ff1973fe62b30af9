// Where a first visit of a big mind map blocks the page's main thread: a DevTools trace from navigation until the
// layout settled (positions cleared first), each main-thread task over 50 ms with what it spent its time on (the JS
// functions by self time, WebGL and compositor work by trace event), and the map's timeline marks. For finding which
// long task keeps a key press waiting (web-map.ts measures that latency). A task that goes on long after its script
// returned, with nothing traced inside, is a 2D canvas rasterising its calls in software (docs/performance.md).
//
//   bun scripts/bench/web-map-trace.ts [--ideas 10000] [--edges 25000] [--runs 2] [--handover]
//
// With --handover the trace goes on until sigma (WebGL) has taken over from the first view (made when the page is idle,
// seconds after it settled), and 1.5 s past that: the tasks of sigma's set-up and first frame.
import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import { flag } from "./lib";
import { launchBrowser, signedInContext, startWebBenchServer } from "./web-lib";
import { seedRelations } from "./web-map";

declare const document: any;
const ideas = flag("ideas", 10_000), edges = flag("edges", 25_000), runs = flag("runs", 2);
const handover = process.argv.includes("--handover");
const server = await startWebBenchServer({ ideas });
const browser = await launchBrowser();
try {
  await seedRelations(server, edges);
  for (let run = 0; run < runs; run++) {
    await fetch(`${server.base}/api/v1/map/positions`, { method: "DELETE", headers: { "x-api-key": server.key } });
    const context = await signedInContext(browser, server);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const events: any[] = [];
    cdp.on("Tracing.dataCollected", (d: any) => events.push(...d.value));
    await cdp.send("Tracing.start", { categories: "devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,cc,viz,v8.execute,blink.user_timing,toplevel,gpu", transferMode: "ReportEvents" } as any);
    await page.goto(`${server.base}/map`, { waitUntil: "commit" });
    await page.waitForFunction(() => document.querySelector(".map-canvas")?.idearepoMap?.layoutMs != null, null, { timeout: 300_000, polling: 100 });
    if (handover) await page.waitForFunction(() => document.querySelector(".map-canvas")?.idearepoMap?.drawnBy?.() === "webgl", null, { timeout: 120_000, polling: 100 });
    await page.waitForTimeout(1500);
    const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
    await cdp.send("Tracing.end");
    await done;
    const marks = await page.evaluate(() => performance.getEntriesByType("mark").filter((m: any) => m.name.startsWith("map:")).map((m: any) => `${m.name} ${m.startTime.toFixed(0)}`));
    const nav = events.find((e) => e.name === "navigationStart")?.ts ?? 0;
    const settledAt = await page.evaluate(() => performance.getEntriesByName("map:drawn")[0]?.startTime ?? 0);
    // The page's main thread: of the renderers' main threads, the busiest; its top-level tasks only (tasks nest).
    const isTask = (e: any) => (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") && e.ph === "X";
    const mains = events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
    const busy = (m: any) => events.filter((e) => isTask(e) && e.pid === m.pid && e.tid === m.tid).reduce((a, e) => a + e.dur, 0);
    const main = mains.sort((a, b) => busy(b) - busy(a))[0];
    const all = events.filter((e) => isTask(e) && main && e.pid === main.pid && e.tid === main.tid).sort((a, b) => a.ts - b.ts);
    const top: any[] = [];
    for (const e of all) if (!top.length || e.ts >= top[top.length - 1].ts + top[top.length - 1].dur) top.push(e);
    const tasks = top.filter((e) => e.dur > 50_000 && (!handover || e.ts - nav > (settledAt - 500) * 1000));
    console.log(`  main-thread tasks over 50 ms: ${tasks.length}, longest ${(Math.max(0, ...tasks.map((t) => t.dur)) / 1000).toFixed(0)} ms`);
    console.log(`run ${run} (load ${loadavg()[0].toFixed(1)}): ${marks.join("; ")}`);
    for (const t of tasks) {
      const inside = events.filter((e) => e.ph === "X" && e.tid === t.tid && e.pid === t.pid && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur && e !== t);
      const sum = new Map<string, number>();
      for (const e of inside) {
        const d = e.args?.data ?? {};
        const k = e.name + (d.url ? " " + String(d.url).split("/").pop() : "") + (d.functionName ? " " + d.functionName : "") + (d.message ? " " + d.message : "");
        sum.set(k, (sum.get(k) ?? 0) + e.dur / 1000);
      }
      console.log(`  task at ${((t.ts - nav) / 1000).toFixed(0)} ms, ${(t.dur / 1000).toFixed(0)} ms: ` + [...sum].sort((a, b) => b[1] - a[1]).slice(0, 16).map(([k, v]) => `${k} ${v.toFixed(0)}`).join("; "));
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.app.stop();
  rmSync(server.dir, { recursive: true, force: true });
}
