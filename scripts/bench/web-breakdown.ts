// Where a cold load of /ideas spends its time (issue 27): the navigation's own phases, each request the page makes
// (when it started and ended, from navigation start), the long tasks (script parse and run) and the rows' paint.
//
//   bun scripts/bench/web-breakdown.ts [--ideas 10000] [--runs 7]
import type { Browser } from "playwright-core";
import { rmSync } from "node:fs";
import { flag } from "./lib";
import { benchInitScript, launchBrowser, median, signedInContext, startWebBenchServer, timeFetch, type WebBenchServer } from "./web-lib";

declare const window: any;
const IDEAS = flag("ideas", 10_000);
const RUNS = flag("runs", 7);

export interface Breakdown { [phase: string]: number }

/** One cold load in a fresh context: the phases, in ms from navigation start. */
export async function coldLoadBreakdown(browser: Browser, server: WebBenchServer, path = "/ideas"): Promise<Breakdown> {
  const context = await signedInContext(browser, server);
  try {
    await context.addInitScript(benchInitScript([["a.row-title", "rows"]]));
    await context.addInitScript(`window.__longTasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([e.startTime, e.duration]); }).observe({ type: "longtask", buffered: true });`);
    const page = await context.newPage();
    await page.goto(`${server.base}${path}`, { waitUntil: "commit" });
    const marks = await page.evaluate(() => window.__benchDone.rows);
    return await page.evaluate((rowsPaint: number) => {
      const out: Record<string, number> = {};
      const nav = (performance as any).getEntriesByType("navigation")[0];
      out["html: response end"] = nav.responseEnd;
      out["html: DOMContentLoaded end"] = nav.domContentLoadedEventEnd;
      for (const r of (performance as any).getEntriesByType("resource") as Array<{ name: string; startTime: number; responseEnd: number; transferSize: number }>) {
        const u = new URL(r.name);
        // Chunks keep their hash (several are named index-<hash>.js); a long query is cut.
        const name = u.pathname.startsWith("/assets/") ? u.pathname : (u.pathname + u.search).slice(0, 60);
        out[`${name}: start`] = r.startTime;
        out[`${name}: end`] = r.responseEnd;
        out[`${name}: bytes`] = r.transferSize;
      }
      const long = (window as any).__longTasks as Array<[number, number]>;
      out["long tasks: count"] = long.length;
      out["long tasks: total ms"] = long.reduce((s, [, d]) => s + d, 0);
      if (long.length) out["first long task: start"] = long[0][0], out["first long task: ms"] = long[0][1];
      out["rows painted, link focused"] = rowsPaint;
      return out;
    }, marks["rows:paint"]);
  } finally {
    await context.close();
  }
}

if (import.meta.main) {
  const server = await startWebBenchServer({ ideas: IDEAS });
  console.error(`seeded ${IDEAS} ideas in ${server.seedSeconds.toFixed(1)} s`);
  const browser = await launchBrowser();
  try {
    const runs: Breakdown[] = [];
    for (let i = 0; i < RUNS + 2; i++) {
      const b = await coldLoadBreakdown(browser, server);
      if (i >= 2) runs.push(b);
    }
    const keys = [...new Set(runs.flatMap((r) => Object.keys(r)))];
    const rows = keys.map((k) => [k, median(runs.map((r) => r[k]).filter((v) => v !== undefined))] as const).sort((a, b) => (a[0].endsWith("bytes") ? 1e9 : a[1]) - (b[0].endsWith("bytes") ? 1e9 : b[1]));
    console.log(`| phase of a cold /ideas load (${IDEAS.toLocaleString("en")} ideas, median of ${RUNS}) | ms from navigation start (bytes) |`);
    console.log("|---|---|");
    for (const [k, v] of rows) console.log(`| ${k} | ${v.toFixed(k.endsWith("bytes") || k.endsWith("count") ? 0 : 1)} |`);
    // The server answers one request at a time: what each boot-time read costs it on its own.
    for (const path of ["/user/me", "/setup", "/ideas?limit=50&offset=0", "/tags", "/review"]) {
      const ms: number[] = [];
      for (let i = 0; i < 7; i++) ms.push(await timeFetch(`${server.base}/api/v1${path}`, { headers: { "x-api-key": server.key } }));
      console.log(`| raw GET ${path}, median of 7 | ${median(ms.slice(2)).toFixed(1)} ms |`);
    }
  } finally {
    await browser.close();
    await server.app.stop();
    rmSync(server.dir, { recursive: true, force: true });
  }
}
