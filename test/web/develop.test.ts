// Develop on the idea page in a real browser, against a local fake provider speaking Anthropic's Messages API: the
// spec drawn with its Mermaid diagram under the page CSP (no console errors), hostile Markdown inert, provider, model
// and tokens shown, copy and download, the kept spec on reload (no second call), Develop again, a provider failure,
// leaving while it runs, and the needs_byok explanation for an account without a key.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any, window: any, navigator: any, getComputedStyle: any;
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { api } from "../ops/harness";
import { startFakeProvider, type FakeProvider } from "../fakes/providers";
import { a11yViolations, allowConsole, createAccount, describeBrowser, expectClean, screenshot, signIn, VIEWPORTS, webScope, type WebServer } from "./harness";

const PROVIDER_KEY = "sk-fake-develop-0123456789";
const SPEC = [
  "## Problem",
  "Bakers forget to feed the starter.",
  "",
  "## Proposed solution",
  "A timer that nags **twice** a day.",
  "",
  "```mermaid",
  "graph TD; A-->B",
  "```",
  "",
  "## Open questions",
  "<script>window.__pwned = 'script'</script>",
  "[feed me](javascript:window.__pwned='link')",
  "<img src=x onerror=\"window.__pwned='img'\">",
  "Raw <b onclick=\"alert(1)\">bold</b> stays text.",
].join("\n");

describeBrowser("develop on the idea page", () => {
  const web = webScope("idearepo-web-develop-");
  let server: WebServer;
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = startFakeProvider("anthropic", { validKeys: [PROVIDER_KEY] });
    server = await web.server({
      IDEAREPO_PROVIDER_A__PROTOCOL: "anthropic",
      IDEAREPO_PROVIDER_A__BASE_URL: fake.baseUrl,
      IDEAREPO_PROVIDER_A__MODEL: "claude-fake-1",
      IDEAREPO_PROVIDER_TIMEOUT_MS: "10000",
    });
  }, 40_000);
  afterAll(() => fake?.stop());

  /** A Pro account whose provider key is stored before it signs in, with one idea; opened at that idea. */
  async function openWithKey(title: string, opts: { withKey?: boolean } = {}) {
    const email = `d${Math.random().toString(36).slice(2, 9)}@example.com`;
    const key = createAccount(server, email, "correct horse battery", "pro");
    if (opts.withKey !== false) expect((await api(server.base, key, "PUT", "/user/byok/provider_a", { api_key: PROVIDER_KEY })).status).toBe(200);
    const idea = (await api(server.base, key, "POST", "/ideas", { title, body: "Feed it on time." })).body as { id: number; number: number };
    const opened = await web.open(server.base, `/ideas/${idea.id}`);
    await signIn(opened.page, email, "correct horse battery");
    await opened.page.getByRole("heading", { level: 1, name: title }).waitFor();
    const dialogs: string[] = [];
    opened.page.on("dialog", (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });
    const scripts: string[] = [];
    opened.page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
    });
    return { ...opened, key, email, idea, dialogs, scripts };
  }
  const panel = (page: Page) => page.getByRole("region", { name: "Spec" });

  test("Develop draws the spec with its diagram, inert hostile Markdown, provider, model and tokens; copy, download, reload without a second call", async () => {
    fake.requests.length = 0;
    fake.override = null;
    fake.answer = () => SPEC;
    const o = await openWithKey("Sourdough starter timer");
    const { page, key, idea, dialogs, scripts } = o;
    await panel(page).getByText("Develop sends this idea").waitFor();
    expect(scripts.filter((s) => /mermaid|flowDiagram/i.test(s))).toEqual([]); // no diagram yet: mermaid not loaded

    await panel(page).getByRole("button", { name: "Develop", exact: true }).click();
    await panel(page).getByRole("heading", { name: "Proposed solution" }).waitFor();
    expect(fake.requests.length).toBe(1);
    const usage = fake.lastReply.usage as { input_tokens: number; output_tokens: number };

    // The diagram: an SVG with both nodes, styled by mermaid's stylesheet (adopted, not inline: the CSP allows it).
    const svg = panel(page).locator(".diagram-canvas svg");
    await svg.waitFor();
    expect(await svg.locator("text", { hasText: /^A$/ }).count()).toBeGreaterThan(0);
    expect(await svg.locator("text", { hasText: /^B$/ }).count()).toBeGreaterThan(0);
    const fill = await svg.locator(".node rect, .node path, .node polygon").first().evaluate((el: any) => getComputedStyle(el).fill);
    expect(fill).toBe("rgb(236, 236, 255)"); // mermaid's default node colour: its CSS reached the diagram
    expect(scripts.some((s) => /flowDiagram/i.test(s))).toBe(true); // loaded on demand, as separate chunks

    // Provider, model and token counts as the provider reported them.
    const meta = await panel(page).locator(".develop-meta").innerText();
    expect(meta).toContain("Provider A");
    expect(meta).toContain("claude-fake-1");
    expect(meta).toContain(`${usage.input_tokens.toLocaleString("en-US")} tokens in, ${usage.output_tokens.toLocaleString("en-US")} out`);

    // Nothing hostile ran or became live markup.
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    const box = panel(page).locator(".develop-markdown");
    expect(await box.locator("script, img, [onclick], [onerror]").count()).toBe(0);
    expect(await box.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await box.innerText()).toContain("<script>window.__pwned = 'script'</script>"); // shown as text

    // Copy gives the Markdown; download gives a .md file with it.
    await o.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await panel(page).getByRole("button", { name: "Copy Markdown" }).click();
    await page.getByText("Spec copied as Markdown.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(SPEC);
    const [download] = await Promise.all([page.waitForEvent("download"), panel(page).getByRole("button", { name: "Download .md" }).click()]);
    expect(download.suggestedFilename()).toBe(`idea-${idea.number}-spec.md`);
    expect(readFileSync((await download.path())!, "utf8")).toBe(SPEC);

    expect(await a11yViolations(page)).toEqual([]);
    await svg.scrollIntoViewIfNeeded();
    await screenshot(page, "develop-desktop");

    // The spec is kept: the API has it, and reopening the page shows it without calling the provider again.
    const kept = await api(server.base, key, "GET", `/ideas/${idea.id}/develop`);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ spec: SPEC, provider: "provider_a", model: "claude-fake-1", usage });
    await page.reload();
    await panel(page).getByRole("heading", { name: "Proposed solution" }).waitFor();
    await panel(page).locator(".diagram-canvas svg").waitFor();
    await panel(page).getByText(/made (just now|\d+ seconds? ago)/).waitFor();
    expect(fake.requests.length).toBe(1);

    await page.setViewportSize(VIEWPORTS.phone);
    await panel(page).scrollIntoViewIfNeeded();
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "develop-phone");
    expect(dialogs).toEqual([]);
    expectClean(o); // no CSP violation from the diagram, nothing outside 127.0.0.1

    // In the dark theme the diagram is drawn with mermaid's dark theme.
    const dark = await web.open(server.base, `/ideas/${idea.id}`, { colorScheme: "dark" });
    await signIn(dark.page, o.email, "correct horse battery");
    const darkSvg = panel(dark.page).locator(".diagram-canvas svg");
    await darkSvg.waitFor();
    const darkFill = await darkSvg.locator(".node rect, .node path, .node polygon").first().evaluate((el: any) => getComputedStyle(el).fill);
    expect(darkFill).not.toBe(fill);
    await darkSvg.scrollIntoViewIfNeeded();
    await screenshot(dark.page, "develop-dark");
    expectClean(dark);
  }, 60_000);

  test("Develop again asks first; a provider failure shows its message; leaving while it runs ends in a toast", async () => {
    fake.requests.length = 0;
    fake.override = null;
    fake.answer = () => "## Problem\nFirst version.";
    const o = await openWithKey("Starter hydration log");
    const { page, key, idea } = o;
    await panel(page).getByRole("button", { name: "Develop", exact: true }).click();
    await panel(page).getByText("First version.").waitFor();

    // Again: cancel costs nothing; confirming replaces the spec.
    fake.answer = () => "## Problem\nSecond version.";
    await panel(page).getByRole("button", { name: "Develop again" }).click();
    await page.getByRole("dialog", { name: "Develop again?" }).getByRole("button", { name: "Cancel" }).click();
    expect(fake.requests.length).toBe(1);
    await panel(page).getByRole("button", { name: "Develop again" }).click();
    await page.getByRole("dialog", { name: "Develop again?" }).getByRole("button", { name: "Develop again" }).click();
    await panel(page).getByText("Second version.").waitFor();
    expect(fake.requests.length).toBe(2);
    expect((await api(server.base, key, "GET", `/ideas/${idea.id}/develop`)).body.spec).toBe("## Problem\nSecond version.");

    // The provider fails: its message is shown, and the kept spec stays.
    fake.override = () => Response.json({ type: "error", error: { type: "overloaded_error", message: "Overloaded right now" } }, { status: 529 });
    // The provider fails on purpose: the spec's 502 carries its message, and Chromium logs the 502.
    allowConsole(o, /status of 502 .*\/develop\)/);
    await panel(page).getByRole("button", { name: "Develop again" }).click();
    await page.getByRole("dialog", { name: "Develop again?" }).getByRole("button", { name: "Develop again" }).click();
    const failure = panel(page).getByRole("alert");
    await failure.getByText("Provider A did not make a spec.").waitFor();
    expect(await failure.innerText()).toContain("Overloaded right now");
    expect(await panel(page).getByText("Second version.").count()).toBe(1);

    // Slow provider: progress shows, the person leaves, and a toast says when the spec is ready.
    // (A promise of null falls through to the fake's normal answer, after the wait.)
    fake.override = () => Bun.sleep(1500).then(() => null) as unknown as Promise<Response>;
    fake.answer = () => "## Problem\nThird version, made while away.";
    await panel(page).getByRole("button", { name: "Develop again" }).click();
    await page.getByRole("dialog", { name: "Develop again?" }).getByRole("button", { name: "Develop again" }).click();
    await panel(page).getByRole("status").getByText("Developing the spec…").waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Ideas" }).click();
    await page.waitForURL("**/ideas");
    await page.getByText(`The spec for idea #${idea.number} is ready.`).waitFor({ timeout: 15_000 });
    await page.getByRole("button", { name: "Open" }).click();
    await panel(page).getByText("Third version, made while away.").waitFor();
    expect(fake.requests.length).toBe(4);
    expectClean(o);
  }, 60_000);

  test("an account without a provider key is told why and where to add one", async () => {
    fake.requests.length = 0;
    const o = await openWithKey("Crumb structure notes", { withKey: false });
    const { page } = o;
    await panel(page).getByText("no key is stored yet").waitFor();
    // Developing without a key on purpose: the notice quotes the API's own 400 needs_byok sentence; Chromium logs the 400.
    allowConsole(o, /status of 400 .*\/develop\)/);
    await panel(page).getByRole("button", { name: "Develop", exact: true }).click();
    const notice = panel(page).getByRole("note").filter({ hasText: "No usable AI provider key." });
    await notice.waitFor();
    expect(await notice.innerText()).toContain("No AI provider key is stored"); // the API's own sentence
    expect(fake.requests.length).toBe(0);
    expect(await a11yViolations(page)).toEqual([]);
    await notice.getByRole("link", { name: "Add or replace a key in Settings" }).click();
    await page.waitForURL("**/settings#provider-keys");
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    expect(o.scripts.filter((s) => /flowDiagram/i.test(s))).toEqual([]);
    expectClean(o);
  }, 40_000);
});
