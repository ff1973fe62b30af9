// Where a first visit of the mind map spends the page's main thread: a CPU profile (DevTools protocol) from navigation
// until the layout settled, summed by function (self time), with the map's timeline marks. For deciding what to cut.
//
//   bun scripts/bench/web-map-profile.ts [--ideas 10000] [--edges 25000]
import { rmSync } from "node:fs";
import { flag } from "./lib";
import { launchBrowser, signedInContext, startWebBenchServer } from "./web-lib";
import { seedRelations } from "./web-map";

declare const document: any;
const ideas = flag("ideas", 10_000), edges = flag("edges", 25_000);
const server = await startWebBenchServer({ ideas });
const browser = await launchBrowser();
try {
  await seedRelations(server, edges);
  for (let run = 0; run < 2; run++) {
    await fetch(`${server.base}/api/v1/map/positions`, { method: "DELETE", headers: { "x-api-key": server.key } });
    const context = await signedInContext(browser, server);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
    await cdp.send("Profiler.start");
    await page.goto(`${server.base}/map`, { waitUntil: "commit" });
    await page.waitForFunction(() => document.querySelector(".map-canvas")?.idearepoMap?.layoutMs != null, null, { timeout: 300_000, polling: 100 });
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: { nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>; samples: number[]; timeDeltas: number[] } };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const f = byId.get(id)!.callFrame;
      const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    const marks = await page.evaluate(() => performance.getEntriesByType("mark").filter((m: any) => m.name.startsWith("map:")).map((m: any) => `${m.name} ${m.startTime.toFixed(0)}${m.detail ? " " + JSON.stringify(m.detail) : ""}`));
    const layoutMs = await page.evaluate(() => document.querySelector(".map-canvas").idearepoMap.layoutMs);
    console.log(`run ${run}: settled ${layoutMs.toFixed(0)} ms after the view started; ${marks.join("; ")}`);
    if (run === 1) for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${v.toFixed(0).padStart(7)} ms  ${k}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.app.stop();
  rmSync(server.dir, { recursive: true, force: true });
}
