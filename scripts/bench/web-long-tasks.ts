// Where a cold, signed-in page load blocks the main thread: a DevTools trace under a 4× CPU slowdown (as Lighthouse
// simulates), each task over 50 ms with what it spent its time on (module evaluation, microtasks = Preact renders,
// layout, timers). For finding the long task to cut; the scores themselves come from lighthouse.ts.
//
//   bun scripts/bench/web-long-tasks.ts [/capture | /ideas/ID | /map ...] [--near N]   (ID: the newest seeded idea)
//   (--near N: N near-identical ideas filed by the real pipeline, as lighthouse.ts's account (b), instead of 200
//   distinct ones; 90 gives about a thousand pending duplicate detections)
import { rmSync } from "node:fs";
import { waitForQuiescence } from "../../test/ops/harness";
import { flag, seedIdeas } from "./lib";
import { launchBrowser, nearIdenticalTexts, signedInContext, startWebBenchServer } from "./web-lib";
const path = process.argv[2]?.startsWith("/") ? process.argv[2] : "/capture";
const NEAR = flag("near", 0);
const server = await startWebBenchServer({ ideas: NEAR ? 0 : 200, pipeline: NEAR > 0 });
if (NEAR) {
  await seedIdeas(server.base, server.key, nearIdenticalTexts(NEAR), 4);
  await waitForQuiescence(server.dataDir, 240_000);
}
const browser = await launchBrowser();
try {
  const id = (await (await fetch(`${server.base}/api/v1/ideas?limit=1`, { headers: { "x-api-key": server.key } })).json() as any).ideas[0].id;
  for (let run = 0; run < 3; run++) {
    const context = await signedInContext(browser, server);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const events: any[] = [];
    cdp.on("Tracing.dataCollected", (d: any) => events.push(...d.value));
    await cdp.send("Tracing.start", { categories: "devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,v8,blink.user_timing,toplevel", transferMode: "ReportEvents" } as any);
    await page.goto(`${server.base}${path.replace("ID", String(id))}`, { waitUntil: "load" });
    await page.waitForTimeout(4000);
    const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
    await cdp.send("Tracing.end"); await done;
    const tasks = events.filter((e) => (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") && e.ph === "X" && e.dur > 50_000);
    console.log(`run ${run}: ${tasks.map((t) => Math.round(t.dur / 1000)).join(", ")} ms`);
    if (run < 1) continue;
    for (const t of tasks) {
      const inside = events.filter((e) => e.ph === "X" && e.tid === t.tid && e.pid === t.pid && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur && e !== t);
      const sum = new Map<string, number>();
      for (const e of inside) { const k = e.name + (e.args?.data?.url ? " " + String(e.args.data.url).split("/").pop() : "") + (e.args?.data?.functionName ? " " + e.args.data.functionName : ""); sum.set(k, (sum.get(k) ?? 0) + e.dur / 1000); }
      console.log(`  task ${Math.round(t.dur / 1000)} ms: ` + [...sum].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, v]) => `${k} ${v.toFixed(0)}`).join("; "));
    }
    await context.close();
  }
} finally { await browser.close(); await server.app.stop(); rmSync(server.dir, { recursive: true, force: true }); }
