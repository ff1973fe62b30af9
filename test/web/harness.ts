// Browser tests: a real server process, Debian's Chromium driven by playwright-core, and what a person would check.
//
// Every page opened here records console errors and warnings, uncaught exceptions and any request that tries to leave
// 127.0.0.1 (aborted, so a test can assert the app loads nothing from the internet). After every test, any console
// error or warning that test did not announce with allowConsole() fails it, with the messages in the failure.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any, window: any, localStorage: any, sessionStorage: any;
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ROOT } from "../cli";
import { processScope, runCommand, type ServerProcess } from "../ops/harness";

export const CHROMIUM = process.env.IDEAREPO_CHROMIUM ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));
/** Set by .ci/run: there a missing browser is a failure, never a silent skip. */
const REQUIRED = process.env.IDEAREPO_REQUIRE_BROWSER === "1";

/** describe() when Chromium is here; otherwise a plain "skipped" note, or a failing test where CI requires the browser. */
export function describeBrowser(name: string, fn: () => void): void {
  if (CHROMIUM) return describe(name, fn);
  if (REQUIRED) {
    test(name, () => {
      throw new Error("Chromium not found, and IDEAREPO_REQUIRE_BROWSER=1: install it with `apt-get install -y chromium`");
    });
    return;
  }
  console.warn(`[web tests] SKIPPED "${name}": no Chromium on this machine (apt-get install chromium, or set IDEAREPO_CHROMIUM)`);
  describe.skip(name, fn);
}

const LAUNCH_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
];

export interface WebServer extends ServerProcess {
  dataDir: string;
  /** The one-time code from the server's log (null once the instance has an account). */
  setupCode: string | null;
}

export interface Opened {
  page: Page;
  context: BrowserContext;
  /** Console errors and warnings of every page of the context, and uncaught exceptions, minus what allowConsole() let through. */
  errors: string[];
  /** Patterns this test announced with allowConsole(); cleared after each test. */
  allowed: RegExp[];
  /** Requests that tried to leave 127.0.0.1 (aborted). */
  external: string[];
}

/**
 * The whole allow-list of lines every test may log, each about the test machine rather than the app:
 * - the GPU driver's performance notes: headless Chromium renders WebGL in software (SwiftShader), and its driver
 *   reports every synchronous readPixels (sigma's node picking under the pointer on /map) as a "GPU stall".
 */
const BROWSER_NOTES = [/GL Driver Message \(OpenGL, Performance, .*\): GPU stall due to ReadPixels/];

export const VIEWPORTS = { desktop: { width: 1280, height: 860 }, phone: { width: 375, height: 740 } } as const;

/** One test file's server, browser and temp dirs, all cleaned up after its tests. */
export function webScope(prefix = "idearepo-web-") {
  const scope = processScope(prefix);
  let browser: Browser | null = null;
  const contexts: BrowserContext[] = [];
  const opened: Opened[] = [];
  // The console guard: normal use logs nothing. Checked after each test, so a page shared by several tests blames
  // the test that was running when the line appeared (more or less: a line logged late lands in the next test).
  // The server's side of it: its error and warning lines of the test (a 500's cause is logged there, not in the
  // browser), printed after each test and quoted in the console guard's failure. Passing runs log none of them.
  const servers: Array<{ s: WebServer; seen: number }> = [];
  afterEach(() => {
    const server = servers.flatMap((w) => serverProblems(w.s.logs.slice(w.seen, (w.seen = w.s.logs.length))));
    for (const l of server) process.stderr.write(`${l}\n`);
    const lines = opened.flatMap((o) => o.errors.splice(0).map((e) => `  ${e}`));
    for (const o of opened) o.allowed.length = 0;
    if (lines.length) {
      const told = server.length ? `\nThe server's errors and warnings meanwhile:\n${server.map((l) => `  ${l}`).join("\n")}` : "";
      throw new Error(`The browser logged console errors or warnings (fix the app; allowConsole() only for what the test provokes on purpose):\n${lines.join("\n")}${told}`);
    }
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close().catch(() => {});
  });
  return {
    newDir: scope.newDir,
    async server(env: Record<string, string> = {}, dataDir = scope.newDir()): Promise<WebServer> {
      const s = await scope.serveWith(dataDir, env);
      const line = s.logs.map((l) => { try { return JSON.parse(l); } catch { return null; } }).find((l) => l?.setup_code);
      const server = Object.assign(s, { dataDir, setupCode: (line?.setup_code as string | undefined) ?? null });
      servers.push({ s: server, seen: s.logs.length }); // what it logged while starting is not a test's
      return server;
    },
    /** `serviceWorkers: "block"`: the app's service worker is not registered, so page.route() sees every asset request. */
    /** `hasTouch`: the page has a touch screen (touch events, page.touchscreen, CDP's Input.dispatchTouchEvent). */
    async open(base: string, path = "/", opts: { viewport?: keyof typeof VIEWPORTS; colorScheme?: "light" | "dark"; serviceWorkers?: "block"; hasTouch?: boolean } = {}): Promise<Opened> {
      browser ??= await chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
      const context = await browser.newContext({ viewport: VIEWPORTS[opts.viewport ?? "desktop"], colorScheme: opts.colorScheme ?? "light", acceptDownloads: true, serviceWorkers: opts.serviceWorkers ?? "allow", hasTouch: opts.hasTouch ?? false });
      contexts.push(context);
      const errors: string[] = [];
      const external: string[] = [];
      await context.route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (["127.0.0.1", "localhost"].includes(url.hostname) || url.protocol === "data:" || url.protocol === "blob:") return route.continue();
        external.push(url.href);
        return route.abort();
      });
      const o: Opened = { page: null as unknown as Page, context, errors, external, allowed: [] };
      opened.push(o);
      // Playwright's own note on every page of a context that blocks service workers (asked for, so not the app's).
      const notes = opts.serviceWorkers === "block" ? [...BROWSER_NOTES, /^console\.warning: Service Worker registration blocked by Playwright/] : BROWSER_NOTES;
      const record = (line: string) => {
        if (!o.allowed.some((re) => re.test(line)) && !notes.some((re) => re.test(line))) errors.push(line);
      };
      // On the context, so pages a test opens itself (a second tab, a popup) are watched too.
      context.on("console", (m) => {
        if (["error", "warning", "assert"].includes(m.type())) record(`console.${m.type()}: ${m.text()} (${m.location().url || m.page()?.url() || "?"})`);
      });
      context.on("weberror", (e) => record(`uncaught: ${e.error().message}`));
      o.page = await context.newPage();
      await o.page.goto(base + path);
      return o;
    },
  };
}

/** The server's log lines at error or warn level (JSON lines; a line that is not JSON, a crash's text, counts too), marked `[server]`. */
export function serverProblems(lines: readonly string[]): string[] {
  return lines.filter((l) => {
    try {
      const level = (JSON.parse(l) as { level?: unknown }).level;
      return level === "error" || level === "warn";
    } catch {
      return l.trim() !== "";
    }
  }).map((l) => `[server] ${l}`);
}

/** Creates an account with a password through the operator CLI (as an operator would); returns its API key. */
export function createAccount(server: WebServer, email: string, password: string, plan: "free" | "pro" = "pro"): string {
  const out = runCommand(["users", "create", "--email", email, "--plan", plan, "--password-stdin"], { dataDir: server.dataDir, stdin: password });
  if (out.code !== 0) throw new Error(`users create failed: ${out.stderr}`);
  return JSON.parse(out.stdout).api_key;
}

/** Signs in through the sign-in page, as a person would, and waits for the app. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
}

/** Opens `path` signed in as a new Pro account made by the CLI; returns the page and the account's API key. */
export async function openSignedIn(web: ReturnType<typeof webScope>, server: WebServer, path = "/", opts: Parameters<ReturnType<typeof webScope>["open"]>[2] & { plan?: "free" | "pro" } = {}) {
  const email = `p${Math.random().toString(36).slice(2, 9)}@example.com`;
  const key = createAccount(server, email, "correct horse battery", opts.plan ?? "pro");
  const opened = await web.open(server.base, path, opts);
  await signIn(opened.page, email, "correct horse battery");
  return { ...opened, key, email };
}

let axeSource: string | null = null;
/** axe-core's serious and critical violations on the current page (injected through DevTools, so the CSP stays on). */
export async function a11yViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");
  await page.evaluate(axeSource);
  const out = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
  });
  return out;
}

/** Writes docs/screenshots/<name>.png when IDEAREPO_SCREENSHOTS=1 (scripts/screenshots.ts sets it). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.IDEAREPO_SCREENSHOTS !== "1") return;
  const dir = join(ROOT, "docs/screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}

/**
 * Lets console lines matching `pattern` through for the rest of the current test (and drops any already recorded).
 * Only for what the test provokes on purpose and the app cannot answer without (a wrong password is a 401, and
 * Chromium logs every 4xx/5xx fetch); say why at the call.
 */
export function allowConsole(o: Opened, pattern: RegExp): void {
  o.allowed.push(pattern);
  o.errors.splice(0, o.errors.length, ...o.errors.filter((e) => !pattern.test(e)));
}

/** The checks every page test ends with: nothing left 127.0.0.1, no console errors. */
export function expectClean(o: Opened): void {
  expect(o.external).toEqual([]);
  expect(o.errors).toEqual([]);
}
