// Where a first visit of a big mind map blocks the page's main thread: a DevTools trace from navigation until the
// layout settled (positions cleared first), each main-thread task over 50 ms with what it spent its time on (the JS
// functions by self time, WebGL and compositor work by trace event), and the map's timeline marks. For finding which
// long task keeps a key press waiting (web-map.ts measures that latency). A task that goes on long after its script
// returned, with nothing traced inside, is a 2D canvas rasterising its calls in software (docs/performance.md).
//
//   bun scripts/bench/web-map-trace.ts [--ideas 10000] [--edges 25000] [--runs 2] [--handover]
//
// With --handover the trace goes on until sigma (WebGL) has taken over from the first view (made when the page is idle,
// seconds after it settled), and 1.5 s past that: the tasks of sigma's set-up and first frame; the five longest tasks of
// sigma's window (map:renderer-start until 250 ms after map:webgl-drawn) are listed whatever their length.
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
    const inside = (t: any, n: number) => {
      const sum = new Map<string, number>();
      for (const e of events) {
        if (e.ph !== "X" || e.tid !== t.tid || e.pid !== t.pid || e.ts < t.ts || e.ts + (e.dur ?? 0) > t.ts + t.dur || e === t) continue;
        const d = e.args?.data ?? {};
        const k = e.name + (d.url ? " " + String(d.url).split("/").pop() : "") + (d.functionName ? " " + d.functionName : "") + (d.message ? " " + d.message : "");
        sum.set(k, (sum.get(k) ?? 0) + e.dur / 1000);
      }
      return [...sum].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${k} ${v.toFixed(0)}`).join("; ");
    };
    for (const t of tasks) console.log(`  task at ${((t.ts - nav) / 1000).toFixed(0)} ms, ${(t.dur / 1000).toFixed(0)} ms: ` + inside(t, 16));
    if (handover) {
      // sigma's window: from its start until 250 ms after its first frame is on screen; its longest tasks, whatever their length.
      const at = (name: string) => page.evaluate((n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN, name);
      const from = await at("map:renderer-start"), to = (await at("map:webgl-drawn")) + 250;
      const window = top.filter((e) => e.ts - nav >= from * 1000 && e.ts - nav <= to * 1000).sort((a, b) => b.dur - a.dur);
      console.log(`  sigma's window (renderer-start ${from.toFixed(0)} → webgl-drawn + 250 ms ${to.toFixed(0)}): ${window.filter((e) => e.dur > 50_000).length} tasks over 50 ms; the longest:`);
      // The mark each task came after says which step it is; its thread time beside its wall time says how much of it
      // the thread spent running (the rest: descheduled on a loaded machine, or waiting on the GPU process).
      const steps: Array<{ name: string; at: number; detail: unknown }> = await page.evaluate(() => performance.getEntriesByType("mark").filter((m: any) => m.name.startsWith("map:")).map((m: any) => ({ name: m.name, at: m.startTime, detail: m.detail })));
      const after = (t: any) => {
        const m = steps.filter((x) => x.at * 1000 <= t.ts - nav).pop();
        return m ? `${m.name}${typeof m.detail === "string" ? ` ${m.detail}` : ""}` : "?";
      };
      // sigma's set-up (its contexts, its constructor, its programs): what the main thread waited on the GPU process for
      // (a synchronous call: the command buffer's reply), per task.
      const setUpEnd = await at("map:programs");
      const setUp = top.filter((e) => e.ts - nav >= from * 1000 && e.ts - nav <= setUpEnd * 1000);
      const gpuWait = (t: any) => events.filter((e) => e.ph === "X" && e.tid === t.tid && e.pid === t.pid && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur && (e.name === "ImplementationBase::WaitForCmd" || e.name === "CommandBufferProxyImpl::Initialize")).reduce((a, e) => a + e.dur, 0);
      const waits = setUp.map(gpuWait);
      const longest = setUp.reduce((a, e) => (e.dur > a.dur ? e : a), { dur: 0, tdur: 0 });
      console.log(`  sigma's set-up (renderer-start → programs, ${(setUpEnd - from).toFixed(0)} ms): ${setUp.length} tasks, longest ${(longest.dur / 1000).toFixed(0)} ms (thread ${((longest.tdur ?? 0) / 1000).toFixed(0)} ms); waiting on the GPU process: longest in one task ${(Math.max(0, ...waits) / 1000).toFixed(0)} ms, in all ${(waits.reduce((a, b) => a + b, 0) / 1000).toFixed(0)} ms`);
      for (const t of window.slice(0, 5)) console.log(`    at ${((t.ts - nav) / 1000).toFixed(0)} ms, ${(t.dur / 1000).toFixed(0)} ms (thread ${((t.tdur ?? 0) / 1000).toFixed(0)} ms), after ${after(t)}: ` + inside(t, 6));
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.app.stop();
  rmSync(server.dir, { recursive: true, force: true });
}
