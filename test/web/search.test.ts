// Search, the command palette and the shortcuts list in a real browser: finding an idea by meaning and by keyword,
// the Free plan's fallback notice, Ctrl+K to jump to an idea or a page, `?` for every shortcut.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any, history: any, KeyboardEvent: any;
import { beforeAll, expect, test } from "bun:test";
import { api, waitForQuiescence } from "../ops/harness";
import { a11yViolations, createAccount, describeBrowser, expectClean, screenshot, signIn, VIEWPORTS, webScope, type WebServer } from "./harness";

const PASSWORD = "correct horse battery";
const SEED = [
  { title: "Solar powered bicycle lights", body: "Front and rear lamps with a small panel that tops up the battery while you ride in daylight." },
  { title: "Sourdough starter tracker", body: "Log feedings, room temperature and rise so the bread comes out the same every week." },
  { title: "Freelancer tax spreadsheet", body: "Quarterly estimates, receipts and mileage in one sheet for self-employed people." },
  { title: "Neighbourhood tool library", body: "Lend drills, ladders and garden tools to people on the same street." },
];

describeBrowser("search, command palette and shortcuts", () => {
  const web = webScope("idearepo-web-search-");
  let server: WebServer;
  let key: string;
  const email = "searcher@example.com";
  const ideas: Record<string, { id: number; number: number }> = {};

  beforeAll(async () => {
    server = await web.server();
    key = createAccount(server, email, PASSWORD, "pro");
    for (const s of SEED) {
      const res = await api(server.base, key, "POST", "/ideas", { ...s, tags: s.title.startsWith("Solar") ? ["hardware", "cycling"] : ["misc"] });
      expect(res.status).toBe(201);
      ideas[s.title] = { id: res.body.id, number: res.body.number };
    }
    await waitForQuiescence(server.dataDir); // embedded: findable by meaning
  }, 60_000);

  async function openAs(path: string, opts: Parameters<typeof web.open>[2] = {}, who = email) {
    const o = await web.open(server.base, path, opts);
    await signIn(o.page, who, PASSWORD);
    return o;
  }

  test("`/` focuses the header box; a search by meaning finds the idea in other words, first, with its score", async () => {
    const o = await openAs("/ideas");
    const { page } = o;
    await page.keyboard.press("/");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Search ideas");
    await page.keyboard.type("bike lamp that charges from the sun");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === "/search" && u.searchParams.get("q") === "bike lamp that charges from the sun");
    const first = page.locator(".result").first();
    await first.waitFor();
    expect(await first.getByRole("link").first().textContent()).toBe("Solar powered bicycle lights");
    expect(await first.locator(".score").textContent()).toMatch(/^Similarity \d{1,3}%$/);
    expect(await first.getByText("captured").count()).toBe(1);
    expect(await first.getByRole("link", { name: "#cycling" }).count()).toBe(1);
    expect(await page.locator(".search-type").textContent()).toBe("Semantic");
    expect(await page.getByLabel("Search", { exact: true }).inputValue()).toBe("bike lamp that charges from the sun");
    // The same answer the API gives, in the same order.
    const viaApi = await api(server.base, key, "GET", `/ideas/search?q=${encodeURIComponent("bike lamp that charges from the sun")}`);
    expect(viaApi.body.search_type).toBe("semantic");
    expect(viaApi.body.results[0].id).toBe(ideas["Solar powered bicycle lights"].id);
    const shown = await page.locator(".result .result-title").allTextContents();
    expect(shown).toEqual(viaApi.body.results.map((r: { title: string }) => r.title));
    // The title links to the idea.
    expect(await first.locator(".result-title").getAttribute("href")).toBe(`/ideas/${ideas["Solar powered bicycle lights"].id}`);
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "search-desktop");

    // Phone width: nothing scrolls sideways. Dark: marks, badges and scores stay readable (axe checks contrast).
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByLabel("Search", { exact: true }).fill("solar bicycle");
    await page.getByLabel("Search", { exact: true }).press("Enter");
    await page.waitForURL((u) => u.searchParams.get("q") === "solar bicycle");
    await page.getByRole("radio", { name: "Keyword" }).check();
    await page.waitForURL((u) => u.searchParams.get("mode") === "keyword");
    await page.locator("mark").first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "search-phone");
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "search-dark");
    expectClean(o);
  }, 45_000);

  test("keyword mode marks the matches; exact phrase narrows; the URL keeps mode and match; empty, too long and no results", async () => {
    const o = await openAs("/search?q=garden%20bread");
    const { page } = o;
    await page.locator(".result").first().waitFor();
    await page.getByRole("radio", { name: "Keyword" }).check();
    await page.waitForURL((u) => u.searchParams.get("mode") === "keyword");
    await page.getByText(/Keyword, any word/).waitFor();
    const titles = await page.locator(".result .result-title").allTextContents();
    expect(titles.sort()).toEqual(["Neighbourhood tool library", "Sourdough starter tracker"]);
    expect(await page.locator("mark").allTextContents()).toEqual(expect.arrayContaining(["garden", "bread"]));
    expect(await page.locator(".score").count()).toBe(0); // keyword results have no score

    // A new query (pushed to history), exact phrase: only the ideas with those words side by side.
    await page.getByLabel("Search", { exact: true }).fill("tools to people");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("q") === "tools to people");
    await page.getByLabel("Match").selectOption("exact");
    await page.waitForURL((u) => u.searchParams.get("fts_mode") === "exact");
    await page.getByText(/Keyword, exact phrase/).waitFor();
    expect(await page.locator(".result .result-title").allTextContents()).toEqual(["Neighbourhood tool library"]);
    expect(await page.locator("mark").allTextContents()).toEqual(["tools to people"]);
    const viaApi = await api(server.base, key, "GET", "/ideas/search?q=tools%20to%20people&mode=keyword&fts_mode=exact");
    expect(viaApi.body.results.map((r: { id: number }) => r.id)).toEqual([ideas["Neighbourhood tool library"].id]);
    await page.reload();
    await page.getByText(/Keyword, exact phrase/).waitFor();
    expect(await page.getByLabel("Match").inputValue()).toBe("exact");
    await page.goBack();
    await page.waitForURL((u) => u.searchParams.get("q") === "garden bread");
    await page.locator(".result").nth(1).waitFor();
    expect(await a11yViolations(page)).toEqual([]);

    // An empty query is a hint, and the page's own box has the focus; no request.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Ideas" }).click();
    await page.waitForURL("**/ideas");
    await page.evaluate(() => history.pushState(null, "", "/search"));
    await page.reload();
    await page.getByText("What are you looking for?").waitFor();
    expect(await page.evaluate(() => document.activeElement?.type)).toBe("search"); // the page's own box
    let searches = 0;
    page.on("request", (r) => r.url().includes("/api/v1/ideas/search") && searches++);
    await page.getByLabel("Search", { exact: true }).fill("x".repeat(501));
    await page.getByText("At most 500 characters").waitFor();
    expect(await page.getByRole("button", { name: "Search", exact: true }).isDisabled()).toBe(true);
    await page.getByLabel("Search", { exact: true }).press("Enter");
    await Bun.sleep(200);
    expect(searches).toBe(0);
    expect(new URL(page.url()).search).toBe("");

    await page.getByLabel("Search", { exact: true }).fill("zeppelin");
    await page.getByLabel("Search", { exact: true }).press("Enter");
    await page.getByText("No ideas match “zeppelin”.").waitFor();
    await page.getByRole("link", { name: "Try a keyword search" }).click();
    await page.waitForURL((u) => u.searchParams.get("mode") === "keyword" && u.searchParams.get("q") === "zeppelin");
    await page.getByText("Keyword, any word").waitFor(); // the keyword answer, not the previous one
    await page.getByRole("link", { name: "Try a semantic search" }).waitFor();
    expect(searches).toBe(2);
    expectClean(o);
  }, 45_000);

  test("a Free account whose 10 semantic searches are used sees keyword results with the fallback notice", async () => {
    const freeEmail = "free-searcher@example.com";
    const freeKey = createAccount(server, freeEmail, PASSWORD, "free");
    const made = await api(server.base, freeKey, "POST", "/ideas", { title: "Solar powered bicycle lights", body: "A lamp that charges from the sun." });
    expect(made.status).toBe(201);
    for (let i = 0; i < 10; i++) {
      const r = await api(server.base, freeKey, "GET", `/ideas/search?q=warmup${i}`);
      expect(r.body.semantic_limit_reached).toBeUndefined();
    }
    const o = await openAs("/search?q=solar%20lamp", {}, freeEmail);
    const { page } = o;
    const viaApi = await api(server.base, freeKey, "GET", "/ideas/search?q=solar%20lamp");
    expect(viaApi.body.semantic_limit_reached).toBe(true);
    await page.getByText(viaApi.body.semantic_limit_message).waitFor();
    await page.getByText(/Keyword \(fallback\)/).waitFor();
    expect(await page.locator(".result .result-title").allTextContents()).toEqual(["Solar powered bicycle lights"]);
    expect(await page.locator("mark").first().textContent()).toBe("Solar");
    expect(await page.getByText("Free plan: 10 semantic searches a month").count()).toBe(1);
    expect(await a11yViolations(page)).toEqual([]);
    expectClean(o);
  }, 30_000);

  test("Ctrl+K opens the palette: part of a title jumps to the idea, #number finds it, a page name goes there; `?` lists the shortcuts", async () => {
    const o = await openAs("/capture");
    const { page } = o;
    const solar = ideas["Solar powered bicycle lights"];
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    const box = palette.getByRole("combobox");
    await box.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("combobox");
    expect(await palette.getByRole("option", { name: "Keyboard shortcuts" }).count()).toBe(1);
    expect(await a11yViolations(page)).toEqual([]);
    await box.pressSequentially("bicyc"); // part of a word: keyword search alone would not find it
    const option = palette.getByRole("option", { name: new RegExp(`#${solar.number} Solar powered bicycle lights`) });
    await option.waitFor();
    expect(await option.getAttribute("aria-selected")).toBe("true");
    expect(await box.getAttribute("aria-activedescendant")).toBe(await option.getAttribute("id"));
    await screenshot(page, "palette-desktop");
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/ideas/${solar.id}`);
    expect(await palette.isVisible()).toBe(false);

    // By display number.
    const tools = ideas["Neighbourhood tool library"];
    await page.keyboard.press("Control+k");
    await box.fill(`#${tools.number}`);
    await palette.getByRole("option", { name: /Neighbourhood tool library/ }).waitFor();
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/ideas/${tools.id}`);

    // A page, chosen with the arrow keys; Escape closes without going anywhere.
    await page.keyboard.press("Control+k");
    await box.fill("a");
    await palette.getByRole("option", { name: "Tags" }).waitFor();
    const names = await palette.getByRole("option").allTextContents();
    for (let i = 0; i < names.findIndex((n) => n === "Tags"); i++) await page.keyboard.press("ArrowDown");
    expect(await palette.getByRole("option", { name: "Tags" }).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("Enter");
    await page.waitForURL("**/tags");
    await page.keyboard.press("Control+k");
    await box.waitFor();
    await page.keyboard.press("Escape");
    await palette.waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toBe("/tags");

    // `?` lists every keyboard shortcut, the palette's and the in-field ones.
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.waitFor();
    const text = (await help.textContent()) ?? "";
    for (const s of ["/", "Search", "c", "Capture an idea", "Ctrl+K", "Command palette", "?", "Ctrl+Enter", "Escape"]) expect(text).toContain(s);
    expect(await a11yViolations(page)).toEqual([]);
    await help.getByRole("button", { name: "Close" }).click();
    await help.waitFor({ state: "hidden" });
    // From the palette too.
    await page.keyboard.press("Control+k");
    await box.fill("short");
    await palette.getByRole("option", { name: /Keyboard shortcuts/ }).waitFor();
    await page.keyboard.press("Enter");
    await help.waitFor();
    expectClean(o);
  }, 45_000);

  test("Ctrl+K pressed before the palette's own close event arrives opens it again (the queued close does not cancel it)", async () => {
    const o = await openAs("/capture");
    const { page } = o;
    const tools = ideas["Neighbourhood tool library"];
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    const box = palette.getByRole("combobox");
    await box.fill(`#${tools.number}`);
    await palette.getByRole("option", { name: /Neighbourhood tool library/ }).waitFor();
    // Enter, the render it causes (a microtask), then Ctrl+K before the palette's close event (a queued task) is
    // handled: what happens when Chromium runs a fast key press before its queued events on a busy machine.
    await page.evaluate(async () => {
      const init = { bubbles: true, cancelable: true };
      document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { ...init, key: "Enter" }));
      for (let i = 0; i < 5; i++) await Promise.resolve();
      document.dispatchEvent(new KeyboardEvent("keydown", { ...init, key: "k", ctrlKey: true }));
    });
    await page.waitForURL(`**/ideas/${tools.id}`);
    await box.waitFor({ timeout: 5_000 });
    await page.waitForTimeout(300); // the queued close event has long been handled
    expect(await palette.isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await palette.waitFor({ state: "hidden" });
    expectClean(o);
  }, 45_000);
});
