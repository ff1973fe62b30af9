// Shared by the web benchmarks: a real server with one seeded account, headless Chromium signed in to it, in-page
// timers, and the small statistics every figure is printed with.
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { join } from "node:path";
import { CHROMIUM } from "../../test/web/harness";
import { BUN, ideaTexts, ROOT, seedIdeas, spawnServer, tempDir, type Child } from "./lib";

export { seedIdeas };

const LAUNCH_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
];

/** Headless Chromium as the browser tests run it (test/web/harness.ts finds the executable). */
export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) throw new Error("Chromium not found: apt-get install chromium, or set IDEAREPO_CHROMIUM");
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
}

export interface WebBenchServer {
  app: Child;
  dir: string;
  dataDir: string;
  base: string;
  key: string;
  email: string;
  password: string;
}

/**
 * The real server (scripts/bench/app-server.ts: no daily quota, pipeline paused unless asked) with one Pro account
 * that has a password, and `ideas` ideas captured through the API.
 */
export async function startWebBenchServer(opts: { ideas: number; pipeline?: boolean }): Promise<WebBenchServer & { seedSeconds: number }> {
  const dir = tempDir("idearepo-bench-web-");
  const dataDir = join(dir, "data");
  const email = "bench-web@example.com";
  const password = "bench web password";
  const created = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "users", "create", "--email", email, "--plan", "pro", "--password-stdin"], {
    env: { ...process.env, IDEAREPO_DATA_DIR: dataDir },
    stdin: Buffer.from(password),
  });
  if (created.exitCode !== 0) throw new Error(`users create: ${created.stderr.toString()}`);
  const key = JSON.parse(created.stdout.toString()).api_key as string;
  const app = await spawnServer(
    [BUN, join(ROOT, "scripts/bench/app-server.ts"), "serve"],
    { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0", IDEAREPO_HOST: "127.0.0.1", ...(opts.pipeline ? {} : { BENCH_PAUSE_PIPELINE: "1" }) },
    join(dir, "server.log"),
  );
  const seedSeconds = opts.ideas > 0 ? await seedIdeas(app.base, key, ideaTexts(opts.ideas)) : 0;
  return { app, dir, dataDir, base: app.base, key, email, password, seedSeconds };
}

/** Signs in through POST /auth/login; the `Cookie` header value of the session, for requests made outside a browser. */
export async function sessionCookie(server: Pick<WebBenchServer, "base" | "email" | "password">): Promise<string> {
  const r = await fetch(`${server.base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: server.email, password: server.password }),
  });
  if (!r.ok) throw new Error(`sign-in: ${r.status} ${await r.text()}`);
  return `svc_session=${((await r.json()) as { token: string }).token}`;
}

/** A fresh browser context (empty cache) signed in through POST /auth/login, so it holds the session cookie. */
export async function signedInContext(browser: Browser, server: Pick<WebBenchServer, "base" | "email" | "password">): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const r = await context.request.post(`${server.base}/api/v1/auth/login`, { data: { email: server.email, password: server.password } });
  if (!r.ok()) throw new Error(`sign-in: ${r.status()} ${await r.text()}`);
  return context;
}

/**
 * In-page timers, installed before any page script. `window.__benchMark(name)` records performance.now() (ms since
 * the navigation started). `window.__benchWhen(selector, name, text?)` resolves when an element matching `selector`
 * (and containing `text`, if given) exists and takes focus (interactive), recording that moment as `name` and the end
 * of the next painted frame as `${name}:paint`. `watch` starts such timers at document start (for page loads).
 */
export function benchInitScript(watch: Array<[selector: string, name: string]> = []): string {
  return `
  window.__bench = {};
  window.__benchMark = (name) => { window.__bench[name] = performance.now(); };
  window.__benchWhen = (selector, name, text) => new Promise((resolve) => {
    const check = () => {
      const el = [...document.querySelectorAll(selector)].find((e) => !text || e.textContent.includes(text));
      if (!el) return false;
      el.focus();
      if (document.activeElement !== el) return false;
      window.__bench[name] = performance.now();
      requestAnimationFrame(() => setTimeout(() => { window.__bench[name + ":paint"] = performance.now(); resolve(window.__bench); }, 0));
      return true;
    };
    if (check()) return;
    const mo = new MutationObserver(() => { if (check()) mo.disconnect(); });
    mo.observe(document, { childList: true, subtree: true, characterData: true });
  });
  window.__benchDone = {};
  for (const [selector, name] of ${JSON.stringify(watch)}) window.__benchDone[name] = window.__benchWhen(selector, name);
`;
}

export function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export const median = (xs: number[]) => percentile(xs, 50);

/** Milliseconds for one fetch from this process (the raw API time a page's own request cannot beat). */
export async function timeFetch(url: string, init: RequestInit): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status}`);
  return performance.now() - t0;
}

/**
 * The bare shell: the same HTML and bundle bytes the product served, answered from memory by a plain Bun.serve
 * (no auth, no API: /api/* is a 404). Files are copied from the product on first request, before timing starts.
 */
export function staticMirror(productBase: string) {
  const files = new Map<string, { body: ArrayBuffer; type: string; gzip: Uint8Array | null }>();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path.startsWith("/api/")) return Response.json({ error: "Not found" }, { status: 404 });
      let f = files.get(path);
      if (!f) {
        const res = await fetch(productBase + path);
        const body = await res.arrayBuffer();
        const type = res.headers.get("content-type") ?? "application/octet-stream";
        // Gzipped like the product sends them, so both sides put the same bytes on the wire.
        const gzip = res.headers.get("content-encoding") === "gzip" ? Bun.gzipSync(new Uint8Array(body), { level: 9 }) : null;
        f = { body, type, gzip };
        files.set(path, f);
      }
      if (f.gzip && /\bgzip\b/.test(req.headers.get("accept-encoding") ?? "")) {
        return new Response(f.gzip, { headers: { "content-type": f.type, "content-encoding": "gzip" } });
      }
      return new Response(f.body, { headers: { "content-type": f.type } });
    },
  });
  return { base: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

export const fmtMs = (v: number) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;

/** Ideas that differ in a word or two (40 distinct by gear and people, then by panel): the duplicate pass pairs most. */
export function nearIdenticalTexts(n: number): Array<{ title: string; body: string }> {
  const gear = ["phone", "tablet", "lamp", "radio", "camera", "watch", "speaker", "headlamp"];
  const who = ["hikers", "campers", "cyclists", "climbers", "runners"];
  return Array.from({ length: n }, (_, i) => ({
    title: `Solar powered ${gear[i % gear.length]} charger for ${who[i % who.length]}`,
    body: `A ${["foldable", "compact", "rugged", "rollable", "clip-on"][Math.floor(i / 40) % 5]} solar panel that charges a ${gear[i % gear.length]} on the trail, light enough for ${who[i % who.length]} to carry all day.`,
  }));
}
