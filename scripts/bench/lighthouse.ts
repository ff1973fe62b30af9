// Lighthouse (the `lighthouse` npm package, its CLI under Node, driving Debian's Chromium offline), signed in, default
// mobile emulation and simulated throttling, on /ideas, /capture, an idea page and /map, for two accounts:
//   (a) 200 ideas made of distinct real sentences (STS-B, as the other benches use);
//   (b) 40 (--near) near-identical ideas, filed by the real pipeline, so hundreds of pending duplicate detections.
// Each prints performance, accessibility, LCP and CLS beside the bare static shell (the same HTML and bundle from a
// plain Bun.serve, no API: scripts/bench/web-lib.ts staticMirror), product and baseline runs alternating.
//
//   bun scripts/bench/lighthouse.ts [--runs 1] [--only a|b] [--near 40] [--pages /map,/ideas]
//   (--near N: account (b) holds N near-identical ideas; 90 gives about a thousand pending detections; --pages: only
//   those of the four, "idea" for the idea page; --keep DIR: each run's report and DevTools trace are copied there)
// Each run also prints its LCP element and the main thread's long tasks from Lighthouse's trace (start, duration and
// the script they are attributed to), for finding what blocks it.
//
// Targets (issue 27): performance ≥ 90, accessibility 100, CLS ≤ 0.05 on every page, whatever the account holds.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { CHROMIUM } from "../../test/web/harness";
import { waitForQuiescence } from "../../test/ops/harness";
import { flag, ideaTexts, machine, ROOT, seedIdeas } from "./lib";
import { median, nearIdenticalTexts, sessionCookie, startWebBenchServer, staticMirror, type WebBenchServer } from "./web-lib";

const RUNS = flag("runs", 1);
const NEAR = flag("near", 40);
const arg = (name: string) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : null);
const only = arg("only");
const onlyPages = arg("pages")?.split(",") ?? null;
const keep = arg("keep");
let kept = 0;
const LIGHTHOUSE_CLI = join(ROOT, "node_modules/lighthouse/cli/index.js");

interface Score { performance: number; accessibility: number; lcp: number; cls: number; failing: string[]; fcp?: number; tbt?: number; lcpElement?: string; longTasks?: string }

/** One Lighthouse run (a fresh Chromium each time, cold cache), signed in through the session cookie when given. */
/** Lighthouse now and then loses a trace (NO_NAVSTART) on a loaded machine: tried up to three times. */
async function lighthouse(url: string, cookie: string | null): Promise<Score> {
  for (let attempt = 1; ; attempt++) {
    try {
      const s = await lighthouseOnce(url, cookie);
      console.error(`${url}: ${fmt(s)}${s.failing.length ? ` failing ${s.failing.join(", ")}` : ""}; FCP ${((s.fcp ?? NaN) / 1000).toFixed(2)} s, TBT ${Math.round(s.tbt ?? NaN)} ms, LCP element ${s.lcpElement ?? "(none reported)"}; long tasks ${s.longTasks || "none"}`);
      return s;
    } catch (e) {
      if (attempt >= 3) throw e;
      console.error(`${url}: attempt ${attempt} failed (${(e as Error).message.split("\n").slice(0, 2).join(" ")}); again`);
    }
  }
}

async function lighthouseOnce(url: string, cookie: string | null): Promise<Score> {
  if (!CHROMIUM) throw new Error("Chromium not found: apt-get install chromium, or set IDEAREPO_CHROMIUM");
  const dir = mkdtempSync(join(tmpdir(), "idearepo-lh-"));
  try {
    const out = join(dir, "report.json");
    const args = [
      LIGHTHOUSE_CLI, url, "--output=json", `--output-path=${out}`, "--only-categories=performance,accessibility", "--quiet",
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run",
      // The trace is kept (--save-assets) to name the LCP element when Lighthouse's own audit of it fails (below).
      "--save-assets",
      ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
    ];
    // Asynchronous: the bare shell's server runs in this process and must keep answering meanwhile.
    const child = Bun.spawn(["node", ...args], { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdout: "ignore", stderr: "pipe" });
    const timer = setTimeout(() => child.kill(), 300_000);
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    clearTimeout(timer);
    if (code !== 0) throw new Error(`lighthouse ${url}: exit ${code}\n${stderr.slice(-2000)}`);
    const report = JSON.parse(readFileSync(out, "utf8"));
    if (keep) {
      const tag = `${String(++kept).padStart(2, "0")}-${new URL(url).pathname.replace(/\W+/g, "_")}`;
      mkdirSync(keep, { recursive: true });
      for (const f of readdirSync(dir)) copyFileSync(join(dir, f), join(keep, `${tag}-${f}`));
    }
    if (report.runtimeError) throw new Error(`lighthouse ${url}: ${report.runtimeError.message}`);
    const audits = report.audits as Record<string, { score: number | null; numericValue?: number; scoreDisplayMode: string; details?: any }>;
    const lcpNode = lcpElementNode(audits["largest-contentful-paint-element"]?.details);
    const trace = readdirSync(dir).find((f) => f.endsWith(".trace.json"));
    // The main thread's tasks over 50 ms (Lighthouse's trace, observed timings): start, duration, attributed script.
    const longTasks = ((audits["long-tasks"]?.details?.items ?? []) as Array<{ url?: string; startTime: number; duration: number }>)
      .map((t) => `${Math.round(t.startTime)}+${Math.round(t.duration)} ms ${String(t.url ?? "").split("/").pop() || "?"}`).join(", ");
    const a11yIds = (report.categories.accessibility.auditRefs as Array<{ id: string; weight: number }>).filter((x) => x.weight > 0).map((x) => x.id);
    return {
      performance: Math.round(report.categories.performance.score * 100),
      accessibility: Math.round(report.categories.accessibility.score * 100),
      lcp: audits["largest-contentful-paint"].numericValue ?? NaN,
      cls: audits["cumulative-layout-shift"].numericValue ?? NaN,
      failing: a11yIds.filter((id) => audits[id]?.score === 0),
      fcp: audits["first-contentful-paint"]?.numericValue,
      tbt: audits["total-blocking-time"]?.numericValue,
      lcpElement: lcpNode
        ? `${lcpNode.selector ?? ""} ${lcpNode.snippet ?? ""}`.trim().slice(0, 160)
        : trace ? lcpFromTrace(JSON.parse(readFileSync(join(dir, trace), "utf8"))) : undefined,
      longTasks,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The LCP element's node from the "largest-contentful-paint-element" audit. Lighthouse 12 wraps its tables in a list
 * (`details.items[0]` a table whose first row holds the node); older ones gave the table itself; either way the first
 * node-typed value found is the element.
 */
function lcpElementNode(details: unknown): { selector?: string; snippet?: string } | undefined {
  const seen = new Set<unknown>();
  const walk = (v: unknown): { selector?: string; snippet?: string } | undefined => {
    if (!v || typeof v !== "object" || seen.has(v)) return undefined;
    seen.add(v);
    const o = v as Record<string, unknown>;
    if (o.type === "node" && (o.selector || o.snippet)) return o as { selector?: string; snippet?: string };
    for (const x of Array.isArray(v) ? v : Object.values(o)) {
      const found = walk(x);
      if (found) return found;
    }
    return undefined;
  };
  return walk(details);
}

/**
 * The LCP element as the trace names it. Lighthouse 12.2's audit of the element fails with this Chromium (its
 * TraceElements gatherer: "Cannot read properties of undefined (reading 'frame_sequence')"), so the bench printed "?";
 * Chromium's own `largestContentfulPaint::Candidate` events name the node, and the matching Largest{Text,Image}Paint
 * candidate gives its box (and an image's URL). A "DIV id='placeholder'" is the text of an input's placeholder.
 */
function lcpFromTrace(trace: unknown): string | undefined {
  const events = (Array.isArray(trace) ? trace : (trace as { traceEvents: any[] }).traceEvents) as Array<{ name: string; args?: { data?: Record<string, any> } }>;
  const last = events.filter((e) => e.name === "largestContentfulPaint::Candidate" && e.args?.data?.isOutermostMainFrame !== false).at(-1)?.args?.data;
  if (!last) return undefined;
  const paint = events.filter((e) => (e.name === "LargestTextPaint::Candidate" || e.name === "LargestImagePaint::Candidate") && e.args?.data?.DOMNodeId === last.nodeId).at(-1)?.args?.data;
  const box = paint ? `, ${paint.root_width}×${paint.root_height} px at ${paint.root_x},${paint.root_y}` : "";
  const what = last.nodeName === "DIV id='placeholder'" ? ": an input's placeholder text" : paint?.imageUrl ? `: ${String(paint.imageUrl).slice(0, 80)}` : "";
  return `${last.nodeName} (${last.type}${box}${what}; from the trace)`;
}

interface Account { name: string; server: WebBenchServer; cookie: string; ideaId: number; note: string }

async function account(name: "a" | "b"): Promise<Account> {
  const server = await startWebBenchServer({ ideas: 0, pipeline: name === "b" });
  const texts = name === "a" ? ideaTexts(200) : nearIdenticalTexts(NEAR);
  await seedIdeas(server.base, server.key, texts, 4);
  if (name === "b") await waitForQuiescence(server.dataDir, 240_000);
  const get = async (path: string) => (await fetch(`${server.base}/api/v1${path}`, { headers: { "x-api-key": server.key } })).json() as Promise<any>;
  const ideas = (await get("/ideas?limit=1")).ideas;
  const all = await fetch(`${server.base}/api/v1/ideas/duplicates`, { headers: { "x-api-key": server.key, "accept-encoding": "identity" } });
  const dups = ((await all.clone().json()) as { duplicates: unknown[] }).duplicates.length;
  const bytes = (await all.arrayBuffer()).byteLength;
  // Bytes on the wire for the list's badges: the whole listing (what /ideas fetched before) against the first page's
  // ids only, each as identity, gzip and Brotli.
  const wire = async (path: string) => {
    const sizes: string[] = [];
    for (const enc of ["identity", "gzip", "br"]) {
      const r = await fetch(`${server.base}/api/v1${path}`, { headers: { "x-api-key": server.key, "accept-encoding": enc }, decompress: false } as RequestInit);
      sizes.push(`${enc} ${(((await r.arrayBuffer()).byteLength) / 1024).toFixed(1)} KB`);
    }
    return sizes.join(", ");
  };
  const firstPage = ((await get("/ideas?limit=50")).ideas as Array<{ id: number }>).map((i) => i.id).join(",");
  console.error(`${name}: GET /ideas/duplicates: ${await wire("/ideas/duplicates")}; ?idea_ids=<first page>: ${await wire(`/ideas/duplicates?idea_ids=${firstPage}`)}; GET /ideas?limit=50: ${await wire("/ideas?limit=50")}`);
  // The badge requests since the summary: the list's first page, and an idea page's one idea, before and after.
  const one = firstPage.split(",")[0];
  console.error(`${name}: badges of the first page, before (?idea_ids=…): ${await wire(`/ideas/duplicates?idea_ids=${firstPage}`)}; after (/summary?idea_ids=…): ${await wire(`/ideas/duplicates/summary?idea_ids=${firstPage}`)}`);
  console.error(`${name}: the nav badge on every page, before (GET /review): ${await wire("/review")}; after (GET /review/counts): ${await wire("/review/counts")}`);
  console.error(`${name}: an idea page's notice, before (?idea_ids=${one}): ${await wire(`/ideas/duplicates?idea_ids=${one}`)}; after (/summary?idea_ids=${one}): ${await wire(`/ideas/duplicates/summary?idea_ids=${one}`)}`);
  const note = name === "a"
    ? "(a) 200 ideas of distinct real sentences"
    : `(b) ${NEAR} near-identical ideas, ${dups} pending duplicate detections (the whole GET /ideas/duplicates: ${(bytes / 1024).toFixed(0)} KB)`;
  return { name, server, cookie: await sessionCookie(server), ideaId: ideas[0].id, note };
}

const fmt = (s: Score) => `${s.performance} / ${s.accessibility} / ${(s.lcp / 1000).toFixed(2)} s / ${s.cls.toFixed(3)}`;

function medianScore(xs: Score[]): Score {
  const m = (f: (s: Score) => number) => median(xs.map(f));
  return { performance: m((s) => s.performance), accessibility: m((s) => s.accessibility), lcp: m((s) => s.lcp), cls: m((s) => s.cls), failing: [...new Set(xs.flatMap((s) => s.failing))] };
}

const lines: string[] = [];
for (const name of ["a", "b"] as const) {
  if (only && only !== name) continue;
  const acct = await account(name);
  const mirror = staticMirror(acct.server.base);
  try {
    const pages = ["/ideas", "/capture", `/ideas/${acct.ideaId}`, "/map"]
      .filter((p) => !onlyPages || onlyPages.includes(p.startsWith("/ideas/") ? "idea" : p));
    const product = new Map<string, Score[]>(pages.map((p) => [p, []]));
    const bare: Score[] = [];
    // The mirror copies the shell's files on first request: one untimed visit fills it.
    await fetch(`${mirror.base}/ideas`).then((r) => r.text());
    for (let i = 0; i < RUNS; i++) {
      const order: Array<() => Promise<unknown>> = [
        async () => bare.push(await lighthouse(`${mirror.base}/ideas`, null)),
        ...pages.map((p) => async () => product.get(p)!.push(await lighthouse(`${acct.server.base}${p}`, acct.cookie))),
      ];
      for (const run of i % 2 ? order.reverse() : order) await run();
    }
    const b = medianScore(bare);
    lines.push(`| ${acct.note} | | |`);
    for (const p of pages) {
      const s = medianScore(product.get(p)!);
      const label = p.startsWith("/ideas/") ? "an idea page" : p;
      lines.push(`| ${label} | ${fmt(s)}${s.failing.length ? ` (failing: ${s.failing.join(", ")})` : ""} | ${fmt(b)} |`);
      console.error(`${acct.name} ${label}: ${fmt(s)} ${s.failing.join(",")}`);
    }
  } finally {
    mirror.stop();
    await acct.server.app.stop();
    rmSync(acct.server.dir, { recursive: true, force: true });
  }
}

console.log(`\nLighthouse ${JSON.parse(readFileSync(join(ROOT, "node_modules/lighthouse/package.json"), "utf8")).version}, mobile emulation, simulated throttling, signed in; median of ${RUNS} run(s) each; ${machine()}, load average at the end ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
console.log("| page | performance / accessibility / LCP / CLS | bare static shell (same files, no API), same run |");
console.log("|---|---|---|");
for (const l of lines) console.log(l);
