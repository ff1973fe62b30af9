// The capture page in a real browser: keyboard-only capture, tag completion, limits, server errors at their field,
// the Free idea cap, drafts that survive a reload, prefill from bookmarklets and the share target, the offline
// outbox (the server really stopped and started again on the same port), and the PWA's manifest and service worker.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any, window: any, navigator: any;
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api } from "../ops/harness";
import { a11yViolations, allowConsole, createAccount, describeBrowser, expectClean, screenshot, signIn, VIEWPORTS, webScope, type WebServer } from "./harness";

const PASSWORD = "correct horse battery";

describeBrowser("capture page", () => {
  const web = webScope("idearepo-capture-");
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server();
  }, 30_000);

  /** A new account (seeded through the API by `seed`), signed in through the UI at `path`. */
  async function openAs(srv: WebServer, path: string, opts: { plan?: "free" | "pro"; colorScheme?: "light" | "dark"; seed?: (key: string) => Promise<void> } = {}) {
    const email = `c${Math.random().toString(36).slice(2, 9)}@example.com`;
    const key = createAccount(srv, email, PASSWORD, opts.plan ?? "pro");
    await opts.seed?.(key);
    const opened = await web.open(srv.base, path, { colorScheme: opts.colorScheme });
    await signIn(opened.page, email, PASSWORD);
    await opened.page.getByRole("heading", { level: 1, name: "Capture an idea" }).waitFor();
    return { ...opened, key };
  }

  const newest = async (base: string, key: string) => (await api(base, key, "GET", "/ideas?limit=1")).body.ideas[0];
  const activeLabel = (page: Page) => page.evaluate(() => document.activeElement?.labels?.[0]?.textContent ?? document.activeElement?.getAttribute("aria-label"));

  test("keyboard only: title, Markdown body and tags (one completed from GET /tags), saved with Ctrl+Enter as source web", async () => {
    const o = await openAs(server, "/capture", {
      seed: async (key) => void (await api(server.base, key, "POST", "/ideas", { title: "Seed", tags: ["research-notes"] })),
    });
    const { page } = o;
    // The title has the focus on load: typing goes straight in.
    expect(await activeLabel(page)).toBe("Title");
    await page.keyboard.type("Offline-first notes app");
    await page.keyboard.press("Enter"); // on to the body, not a save
    await page.keyboard.type("Sync with **CRDTs**.");
    await page.keyboard.press("Tab");
    expect(await activeLabel(page)).toBe("Tags");
    await page.keyboard.type("resea");
    const option = page.getByRole("option", { name: "research-notes" });
    await option.waitFor();
    expect(await page.getByRole("combobox", { name: "Tags" }).getAttribute("aria-expanded")).toBe("true");
    expect(await a11yViolations(page)).toEqual([]); // with the suggestions open
    await page.keyboard.press("ArrowDown");
    expect(await option.getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("Enter");
    await page.keyboard.type("local-first,");
    await page.keyboard.type("typo");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace"); // the box is empty: Backspace removes the last tag (local-first)
    await page.keyboard.type("crdt");
    await page.getByText("1 / 20 tags").waitFor();
    await page.keyboard.press("Control+Enter"); // the half-typed "crdt" is added, then the idea is saved

    await page.getByText(/^Saved #2 Offline-first notes app$/).waitFor();
    const idea = await newest(server.base, o.key);
    expect(idea.title).toBe("Offline-first notes app");
    expect(idea.body).toBe("Sync with **CRDTs**.");
    expect(idea.source).toBe("web");
    expect([...idea.tags].sort()).toEqual(["crdt", "research-notes"]);
    // The form is empty again with the focus in the title, and the idea is listed under it.
    expect(await page.getByLabel("Title").inputValue()).toBe("");
    expect(await activeLabel(page)).toBe("Title");
    await page.getByRole("region", { name: "Latest ideas" }).getByRole("link", { name: "#2 Offline-first notes app" }).waitFor();
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "capture-desktop");
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, "capture-phone");
    expectClean(o);
  });

  test("the body's Markdown preview (its renderer loaded on first use) shows the text rendered; Edit returns to the text", async () => {
    const o = await openAs(server, "/capture");
    const { page } = o;
    await page.getByLabel("Body").fill("Needs **bold** and a [link](https://example.com).");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByLabel("Body preview");
    await preview.locator("strong", { hasText: "bold" }).waitFor();
    expect(await preview.getByRole("link", { name: "link" }).getAttribute("target")).toBe("_blank");
    await page.getByRole("button", { name: "Edit" }).click();
    expect(await page.getByLabel("Body").inputValue()).toBe("Needs **bold** and a [link](https://example.com).");
    expectClean(o);
  });

  test("the parent is picked from the keyboard (#number or title words; Enter picks, never saves), removed, and saved as parent_id", async () => {
    const o = await openAs(server, "/capture", {
      seed: async (key) => {
        for (const title of ["Garden irrigation planner", "Rainwater barrel sensor"]) expect((await api(server.base, key, "POST", "/ideas", { title })).status).toBe(201);
      },
    });
    const { page } = o;
    await page.getByLabel("Title").fill("Soil moisture alerts");
    const parent = page.getByRole("combobox", { name: "Parent idea (optional)" });
    // Focusing the empty field lists nothing: the list waits for something typed.
    await parent.focus();
    expect(await parent.getAttribute("aria-expanded")).toBe("false");
    await page.keyboard.type("#1");
    await page.getByRole("option", { name: /Garden irrigation planner/ }).waitFor();
    expect(await a11yViolations(page)).toEqual([]); // with the options open
    await page.keyboard.press("Enter");
    const chosen = page.getByRole("group", { name: "Parent idea" });
    await chosen.getByRole("link", { name: "#1 Garden irrigation planner" }).waitFor();
    // The focus stays in the form, on the chosen parent, so Ctrl+Enter still saves from there.
    await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "group", null, { timeout: 5_000 });
    expect(await api(server.base, o.key, "GET", "/ideas").then((r) => r.body.ideas.length)).toBe(2); // Enter did not save
    // Remove parent hands the keyboard back to the picker; title words find the other idea.
    await chosen.getByRole("button", { name: "Remove parent" }).click();
    await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "combobox", null, { timeout: 5_000 });
    expect(await activeLabel(page)).toBe("Parent idea (optional)");
    await page.keyboard.type("rainwater");
    await page.getByRole("option", { name: /Rainwater barrel sensor/ }).waitFor();
    await page.keyboard.press("Enter");
    await chosen.getByRole("link", { name: "#2 Rainwater barrel sensor" }).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "group", null, { timeout: 5_000 });
    await page.keyboard.press("Control+Enter");
    await page.getByText(/^Saved #3 Soil moisture alerts$/).waitFor();
    const idea = await newest(server.base, o.key);
    expect(idea.title).toBe("Soil moisture alerts");
    expect(idea.parent_id).toBe((await api(server.base, o.key, "GET", "/ideas?limit=3")).body.ideas.find((i: { number: number }) => i.number === 2).id);
    // The form is empty again, without a parent, and the focus stays in the title.
    expect(await page.getByRole("combobox", { name: "Parent idea (optional)" }).inputValue()).toBe("");
    expect(await activeLabel(page)).toBe("Title");
    expectClean(o);
  });

  test("limits are shown before sending and over-limit text is not sent; a server validation error is shown at its field", async () => {
    const o = await openAs(server, "/capture");
    const { page } = o;
    await page.getByLabel("Title").fill("x".repeat(201));
    await page.getByText("201 / 200").waitFor();
    expect(await page.getByText("201 / 200").getAttribute("class")).toContain("over");
    expect(await page.getByLabel("Title").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Title").press("Control+Enter");
    await page.getByText("Not saved: fix the marked fields first.").waitFor();
    await page.getByText("The title has 201 characters; at most 200 fit").waitFor();
    expect((await api(server.base, o.key, "GET", "/ideas")).body.ideas).toEqual([]);

    // The URL is the server's to judge: its 400 lands under the Source URL field (the 400 is the point; Chromium logs it).
    allowConsole(o, /status of 400 .*\/api\/v1\/ideas\)/);
    await page.getByLabel("Title").fill("A fine title");
    await page.getByLabel("Source URL (optional)").fill("not a url");
    await page.getByRole("button", { name: "Save idea" }).click();
    await page.getByText("source_url must be a valid URL").waitFor();
    expect(await page.getByLabel("Source URL (optional)").getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await page.getByLabel("Source URL (optional)").getAttribute("aria-describedby"))!;
    expect(await page.locator(`[id="${describedBy.split(" ").at(-1)}"]`).textContent()).toBe("source_url must be a valid URL");
    expect((await api(server.base, o.key, "GET", "/ideas")).body.ideas).toEqual([]);
    // Nothing typed was lost.
    expect(await page.getByLabel("Title").inputValue()).toBe("A fine title");
    expectClean(o);
  });

  test("a Free account at 50 ideas sees the idea-cap notice with its upgrade and feature-request links", async () => {
    const o = await openAs(server, "/capture", {
      plan: "free",
      seed: async (key) => {
        for (let i = 1; i <= 50; i++) expect((await api(server.base, key, "POST", "/ideas", { title: `Idea ${i}` })).status).toBe(201);
      },
    });
    const { page } = o;
    await page.getByLabel("Title").fill("The fifty-first");
    // The spec's 403 idea_limit_reached is what the notice is made from; Chromium logs it.
    allowConsole(o, /status of 403 .*\/api\/v1\/ideas\)/);
    await page.keyboard.press("Control+Enter");
    const notice = page.getByRole("note").filter({ hasText: "Upgrade" });
    await notice.waitFor();
    const cap = await api(server.base, o.key, "POST", "/ideas", { title: "probe" });
    expect(cap.status).toBe(403);
    expect(await notice.textContent()).toContain(cap.body.message);
    expect(await notice.getByRole("link", { name: "Upgrade" }).getAttribute("href")).toBe(cap.body.upgradeUrl);
    expect(await notice.getByRole("link", { name: "Request a feature" }).getAttribute("href")).toBe(cap.body.featureRequestUrl);
    expect(await page.getByLabel("Title").inputValue()).toBe("The fifty-first");
    expect(await a11yViolations(page)).toEqual([]);
    expectClean(o);
  });

  test("a draft survives a reload; ?title=&url= and a share target's title/text/url prefill the form and are saved", async () => {
    const o = await openAs(server, "/capture", { colorScheme: "dark" });
    const { page } = o;
    await page.getByLabel("Title").fill("Half-written thought");
    await page.getByLabel("Body").fill("Keep this **safe**");
    await page.getByRole("combobox", { name: "Tags" }).fill("draft-tag");
    await page.getByRole("combobox", { name: "Tags" }).press("Enter");
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Capture an idea" }).waitFor();
    expect(await page.getByLabel("Title").inputValue()).toBe("Half-written thought");
    expect(await page.getByLabel("Body").inputValue()).toBe("Keep this **safe**");
    await page.getByRole("button", { name: "Remove tag draft-tag" }).waitFor();
    await screenshot(page, "capture-dark");

    // A bookmarklet: ?title=&url= fills the form; the earlier draft is put aside, not lost.
    await page.goto(`${server.base}/capture?title=${encodeURIComponent("Read later: CRDT primer")}&url=${encodeURIComponent("https://example.com/crdt")}`);
    await page.getByRole("heading", { level: 1, name: "Capture an idea" }).waitFor();
    expect(await page.getByLabel("Title").inputValue()).toBe("Read later: CRDT primer");
    expect(await page.getByLabel("Source URL (optional)").inputValue()).toBe("https://example.com/crdt");
    expect(new URL(page.url()).search).toBe(""); // a reload now shows the draft, not the parameters again
    await page.getByRole("button", { name: "Restore earlier draft" }).waitFor();
    await page.keyboard.press("Control+Enter");
    await page.getByText(/^Saved #1 Read later: CRDT primer$/).waitFor();
    const first = await newest(server.base, o.key);
    expect(first.source_url).toBe("https://example.com/crdt");
    expect(first.source).toBe("web");

    // The PWA share target (GET /capture?title=&text=&url=): Android puts the page's URL in text.
    await page.goto(`${server.base}/capture?title=${encodeURIComponent("Shared page")}&text=${encodeURIComponent("https://example.com/shared")}`);
    await page.getByRole("heading", { level: 1, name: "Capture an idea" }).waitFor();
    expect(await page.getByLabel("Title").inputValue()).toBe("Shared page");
    expect(await page.getByLabel("Source URL (optional)").inputValue()).toBe("https://example.com/shared");
    await page.goto(`${server.base}/capture?title=${encodeURIComponent("Quote")}&text=${encodeURIComponent("Make it work, then fast")}&url=${encodeURIComponent("https://example.com/q")}`);
    await page.getByRole("heading", { level: 1, name: "Capture an idea" }).waitFor();
    expect(await page.getByLabel("Body").inputValue()).toBe("Make it work, then fast");
    await page.getByRole("button", { name: "Save idea" }).click();
    await page.getByText(/^Saved #2 Quote$/).waitFor();
    const shared = await newest(server.base, o.key);
    expect([shared.title, shared.body, shared.source_url]).toEqual(["Quote", "Make it work, then fast", "https://example.com/q"]);

    // Both drafts the shares replaced were put aside, not lost: the newest comes back first.
    await page.getByText("2 earlier drafts were put aside", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Restore earlier draft" }).click();
    expect(await page.getByLabel("Title").inputValue()).toBe("Shared page");
    await page.getByRole("button", { name: "Restore earlier draft" }).click();
    expect(await page.getByLabel("Title").inputValue()).toBe("Half-written thought");
    expect(await page.getByLabel("Body").inputValue()).toBe("Keep this **safe**");
    expectClean(o);
  });

  test("offline: captures made while the server is down wait in the browser (count shown) and are sent in order when it is back", async () => {
    // A fixed port, so the restarted server has the same origin as the open page.
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = String(probe.port);
    probe.stop(true);
    let srv = await web.server({ IDEAREPO_PORT: port });
    const o = await openAs(srv, "/capture");
    const { page } = o;

    // Installable: the manifest (with the share target), the icons and the service worker.
    const manifest = await fetch(`${srv.base}/manifest.webmanifest`);
    expect(manifest.headers.get("content-type")).toBe("application/manifest+json");
    const m: any = await manifest.json();
    expect(m.start_url).toBe("/capture");
    expect(m.share_target).toEqual({ action: "/capture", method: "GET", params: { title: "title", text: "text", url: "url" } });
    for (const icon of m.icons) expect((await fetch(`${srv.base}${icon.src}`)).headers.get("content-type")).toBe(icon.type);
    expect(await page.locator('link[rel="manifest"]').getAttribute("href")).toBe("/manifest.webmanifest");
    const swRes = await fetch(`${srv.base}/sw.js`);
    expect(swRes.headers.get("content-type")).toContain("javascript");
    expect(swRes.headers.get("cache-control")).toBe("no-cache");
    const scriptUrl = await page.evaluate(async () => (await navigator.serviceWorker.ready).active.scriptURL);
    expect(scriptUrl).toBe(`${srv.base}/sw.js`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    // The server goes away on purpose: Chromium logs the refused connections (and the service worker's failed fetches).
    allowConsole(o, /ERR_CONNECTION_REFUSED|Failed to fetch/);
    await srv.stop();
    await page.getByLabel("Title").fill("Captured on a train");
    await page.keyboard.press("Control+Enter");
    await page.getByText("The server cannot be reached. The idea is kept in this browser and is sent when the server is back.").waitFor();
    const status = page.getByRole("status").filter({ hasText: "waiting to send" });
    expect(await status.textContent()).toBe("1 waiting to send");
    expect(await page.getByLabel("Title").inputValue()).toBe(""); // the form is free for the next one
    await page.getByLabel("Title").fill("And another in the tunnel");
    await page.keyboard.press("Control+Enter");
    await page.getByText("Kept in this browser; it is sent after the captures waiting before it.").waitFor();
    expect(await status.textContent()).toBe("2 waiting to send");
    await page.getByRole("region", { name: "Kept in this browser (2)" }).getByText("Captured on a train").waitFor();
    expect(await a11yViolations(page)).toEqual([]);

    // A reload while the server is down: the service worker's copy of the app starts, the captures are still there.
    await page.reload();
    await page.getByRole("button", { name: "Try again" }).waitFor();

    srv = await web.server({ IDEAREPO_PORT: port }, srv.dataDir);
    expect(srv.base).toBe(new URL(page.url()).origin);
    await page.getByRole("button", { name: "Try again" }).click(); // the app starts, and with it the outbox
    await page.getByRole("heading", { level: 1, name: "Capture an idea" }).waitFor();
    await page.waitForFunction(() => document.querySelector(".outbox-indicator")?.textContent === "", null, { timeout: 15_000 });
    const ideas = (await api(srv.base, o.key, "GET", "/ideas")).body.ideas;
    expect(ideas.map((i: any) => [i.number, i.title, i.source])).toEqual([
      [2, "And another in the tunnel", "web"],
      [1, "Captured on a train", "web"],
    ]);

    // The timer path: down again, capture, back up — sent without a reload or a click.
    await srv.stop();
    await page.getByLabel("Title").fill("Third, while down");
    await page.keyboard.press("Control+Enter");
    await page.getByText("1 waiting to send").waitFor();
    srv = await web.server({ IDEAREPO_PORT: port }, srv.dataDir);
    await page.waitForFunction(() => document.querySelector(".outbox-indicator")?.textContent === "", null, { timeout: 20_000 });
    expect((await newest(srv.base, o.key)).title).toBe("Third, while down");
    expect((await api(srv.base, o.key, "GET", "/ideas")).body.ideas.length).toBe(3); // each sent exactly once
    await page.getByRole("region", { name: "Latest ideas" }).getByRole("link", { name: "#3 Third, while down" }).waitFor();

    expectClean(o);
  }, 120_000);
});
