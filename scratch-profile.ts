import { rmSync, writeFileSync } from "node:fs";
import { launchBrowser, signedInContext, startWebBenchServer, benchInitScript } from "./scripts/bench/web-lib";
declare const window: any;
const server = await startWebBenchServer({ ideas: 300 });
const browser = await launchBrowser();
try {
  for (let run = 0; run < 3; run++) {
    const context = await signedInContext(browser, server);
    await context.addInitScript(benchInitScript([["a.row-title", "rows"]]));
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    await page.goto(`${server.base}/ideas`, { waitUntil: "commit" });
    const marks = await page.evaluate(() => window.__benchDone.rows);
    const { profile } = await cdp.send("Profiler.stop") as any;
    if (run < 2) { await context.close(); continue; }
    console.log("rows:paint", marks["rows:paint"]);
    // self time per function
    const self = new Map<string, number>();
    const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
    const dt = profile.timeDeltas as number[];
    profile.samples.forEach((id: number, i: number) => {
      const n = byId.get(id);
      const f = n.callFrame;
      const key = `${f.functionName || "(anon)"} ${f.url.split("/").pop()}:${f.lineNumber}:${f.columnNumber}`;
      self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
    });
    console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${v.toFixed(1)} ms  ${k}`).join("\n"));
    writeFileSync("/tmp/l27/profile.cpuprofile", JSON.stringify(profile));
    await context.close();
  }
} finally {
  await browser.close();
  await server.app.stop();
  rmSync(server.dir, { recursive: true, force: true });
}
