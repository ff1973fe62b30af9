// The ideas list in a real browser: filters kept in the URL (tag beats connection types), paging to a full last page,
// keyboard moves, selection with bulk status and tag changes (per-id errors shown), archive after a confirmation,
// and "looks like #N" for a duplicate pair found by the real background pass. Results are checked through the API.
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api, waitForQuiescence } from "../ops/harness";
import { a11yViolations, describeBrowser, expectClean, openSignedIn, screenshot, VIEWPORTS, webScope, type WebServer } from "./harness";

interface Seed { title: string; body?: string; tags?: string[]; status?: string }

async function seed(base: string, key: string, ideas: Seed[]): Promise<Array<{ id: number; number: number; title: string }>> {
  const out = [];
  for (const idea of ideas) {
    const r = await api(base, key, "POST", "/ideas", idea);
    if (r.status !== 201) throw new Error(`seed: ${r.status} ${r.text}`);
    out.push(r.body);
  }
  return out;
}

const rows = (page: Page) => page.getByRole("checkbox", { name: /^Select #/ });
const rowTitles = async (page: Page) =>
  page.getByRole("list", { name: "Ideas" }).locator(".row-title").allTextContents();

describeBrowser("ideas list", () => {
  const web = webScope("idearepo-web-ideas-");
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server();
  }, 30_000); // a loaded machine can take more than the default 5 s to start the server

  test("filters by status, tag and connection type, kept in the URL; a tag clears connection types and says why", async () => {
    const o = await openSignedIn(web, server, "/ideas");
    const { page, key } = o;
    const [a, , c, d] = await seed(server.base, key, [
      { title: "Alpha greenhouse sensor", body: "Soil **moisture** alerts by text.", tags: ["alpha"], status: "exploring" },
      { title: "Beta bread schedule", body: "Proofing times for sourdough.", tags: ["beta"] },
      { title: "Charlie chess clock", tags: ["gamma"] },
      { title: "Delta delivery drone", tags: ["gamma"] },
    ]);
    expect((await api(server.base, key, "POST", "/map/relations", { source_idea_id: c.id, target_idea_id: d.id, relation_type: "blocks" })).status).toBe(201);
    await page.reload();
    await rows(page).first().waitFor();
    // Newest first, with number, status, tags and a one-line excerpt.
    expect(await rowTitles(page)).toEqual(["Delta delivery drone", "Charlie chess clock", "Beta bread schedule", "Alpha greenhouse sensor"]);
    const alphaRow = page.locator(".idea-row", { has: page.getByRole("link", { name: "Alpha greenhouse sensor" }) });
    await expect(alphaRow.getByText(`#${a.number}`, { exact: true }).count()).resolves.toBe(1);
    await expect(alphaRow.getByText("exploring").count()).resolves.toBe(1);
    await expect(alphaRow.getByRole("link", { name: "#alpha" }).count()).resolves.toBe(1);
    await expect(alphaRow.getByText("Soil moisture alerts by text.").count()).resolves.toBe(1);
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "ideas-desktop");

    await page.getByLabel("Status", { exact: true }).selectOption("exploring");
    await page.waitForURL(/status=exploring/);
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll(".idea-row").length === 1);
    expect(await rowTitles(page)).toEqual(["Alpha greenhouse sensor"]);
    await page.reload(); // the filter is in the URL
    await rows(page).first().waitFor();
    expect(await rowTitles(page)).toEqual(["Alpha greenhouse sensor"]);
    await expect(page.getByLabel("Status", { exact: true }).inputValue()).resolves.toBe("exploring");
    await page.getByLabel("Status", { exact: true }).selectOption("");

    await page.getByRole("checkbox", { name: "blocks", exact: true }).check();
    await page.waitForURL(/connection_types=blocks/);
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll(".idea-row").length === 2);
    expect(await rowTitles(page)).toEqual(["Delta delivery drone", "Charlie chess clock"]);

    // Choosing a tag clears the connection types (the API would ignore them) and disables them, saying why.
    await page.getByLabel("Tag", { exact: true }).selectOption("beta");
    await page.waitForURL((u) => u.searchParams.get("tag") === "beta" && !u.searchParams.has("connection_types"));
    await page.getByText("A tag filter and a connection filter do not combine: the tag wins.").waitFor();
    expect(await page.getByRole("checkbox", { name: "blocks", exact: true }).isDisabled()).toBe(true);
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll(".idea-row").length === 1);
    expect(await rowTitles(page)).toEqual(["Beta bread schedule"]);

    // A deep link with both: the tag wins and the ignored half leaves the URL.
    await page.goto(`${server.base}/ideas?tag=gamma&connection_types=blocks&status=captured`);
    await page.waitForURL((u) => u.searchParams.get("tag") === "gamma" && !u.searchParams.has("connection_types"));
    await rows(page).first().waitFor();
    expect(await rowTitles(page)).toEqual(["Delta delivery drone", "Charlie chess clock"]);

    // Nothing matches: say so, and clear the filters in one step.
    await page.getByLabel("Status", { exact: true }).selectOption("shipped");
    await page.getByText("No ideas match these filters").waitFor();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll(".idea-row").length === 4);
    expect(new URL(page.url()).search).toBe("");
    expectClean(o);
  }, 60_000);

  test("an empty account says so; a full last page shows 'more', then the end cleanly", async () => {
    const o = await openSignedIn(web, server, "/ideas");
    const { page, key } = o;
    await page.getByText("No ideas yet").waitFor();
    expect(await page.getByRole("main").getByRole("link", { name: "Capture an idea" }).getAttribute("href")).toBe("/capture");
    // Exactly one page (50): the API says has_more on it, and the next page is empty.
    await seed(server.base, key, Array.from({ length: 50 }, (_, i) => ({ title: `Paged idea ${i + 1}`, tags: ["paged"] })));
    await page.reload();
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBe(50);
    expect((await rowTitles(page))[0]).toBe("Paged idea 50");
    // k with no current row goes to the last one.
    await page.keyboard.press("k");
    await page.waitForFunction('document.activeElement?.textContent === "Paged idea 1"', undefined, { timeout: 10_000 });
    const more = page.getByRole("button", { name: "Show more" });
    await more.click();
    await page.getByText("That is all: 50 ideas.").waitFor();
    expect(await more.count()).toBe(0);
    expect(await rows(page).count()).toBe(50);
    expect(await page.getByRole("alert").count()).toBe(0);
    expectClean(o);
  }, 60_000);

  test("keyboard: j/k and ↓/↑ move between rows, x selects, Enter opens the idea", async () => {
    const o = await openSignedIn(web, server, "/ideas");
    const { page, key } = o;
    const [first, second] = await seed(server.base, key, [{ title: "Kite festival", tags: ["k"] }, { title: "Jam session", tags: ["k"] }]);
    await page.reload();
    await rows(page).first().waitFor();
    await page.keyboard.press("j");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe("Jam session");
    await page.keyboard.press("j");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe("Kite festival");
    await page.keyboard.press("x");
    expect(await page.getByRole("checkbox", { name: `Select #${first.number} Kite festival` }).isChecked()).toBe(true);
    await page.getByText("1 selected").waitFor();
    await page.keyboard.press("ArrowUp");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe("Jam session");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe("Kite festival");
    await page.keyboard.press("k");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe("Jam session");
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/ideas/${second.id}`);
    expectClean(o);
  }, 60_000);

  test("bulk status and tags over the selection, with the per-id error of an idea that cannot take another tag", async () => {
    const o = await openSignedIn(web, server, "/ideas");
    const { page, key } = o;
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i + 1}`);
    const [full, plain, other] = await seed(server.base, key, [
      { title: "Full of tags", tags: twenty },
      { title: "Plain idea", tags: ["misc"] },
      { title: "Left alone", tags: ["misc"] },
    ]);
    await page.reload();
    await rows(page).first().waitFor();
    await page.getByRole("checkbox", { name: `Select #${full.number} Full of tags` }).check();
    await page.getByRole("checkbox", { name: `Select #${plain.number} Plain idea` }).check();
    await page.getByText("2 selected").waitFor();

    // The shared tags field: a typed comma makes a chip; the text left over is added when the field loses focus.
    await page.getByRole("combobox", { name: "Tags to add" }).fill("urgent, later");
    await page.getByRole("button", { name: "Add tags" }).click();
    const report = page.getByRole("alert").filter({ hasText: "Added urgent, later" });
    await report.waitFor();
    expect(await report.textContent()).toContain("1 idea updated, 1 not");
    expect(await report.textContent()).toContain(`#${full.number} Full of tags: An idea can have at most 20 tags`);
    const get = async (id: number) => (await api(server.base, key, "GET", `/ideas/${id}`)).body;
    expect((await get(plain.id)).tags.sort()).toEqual(["later", "misc", "urgent"]);
    expect((await get(full.id)).tags).toHaveLength(20);
    // The rows show the new tags.
    await page.locator(".idea-row", { has: page.getByRole("link", { name: "Plain idea" }) }).getByRole("link", { name: "#urgent" }).waitFor();

    await page.getByLabel("New status").selectOption("building");
    await page.getByRole("button", { name: "Apply status" }).click();
    await page.getByText("Status set to building on 2 ideas.").waitFor();
    expect((await get(full.id)).status).toBe("building");
    expect((await get(plain.id)).status).toBe("building");
    expect((await get(other.id)).status).toBe("captured");

    await page.getByRole("combobox", { name: "Tags to remove" }).fill("later");
    await page.getByRole("combobox", { name: "Tags to remove" }).press("Enter");
    await page.getByRole("button", { name: "Remove tags" }).click();
    await page.getByText("Removed later on 2 ideas.").waitFor();
    expect((await get(plain.id)).tags.sort()).toEqual(["misc", "urgent"]);

    await page.getByRole("button", { name: "Select all 3 shown" }).click();
    await page.getByText("3 selected").waitFor();
    await page.getByRole("button", { name: "Clear selection" }).click();
    expect(await page.getByRole("region", { name: "Selected ideas" }).count()).toBe(0);
    expectClean(o);
  }, 60_000);

  test("archive asks first (permanent): cancel keeps the ideas, confirm archives them", async () => {
    const o = await openSignedIn(web, server, "/ideas");
    const { page, key } = o;
    const [keep, gone1, gone2] = await seed(server.base, key, [
      { title: "Keeper", tags: ["a"] },
      { title: "Old plan", tags: ["a"] },
      { title: "Older plan", tags: ["a"] },
    ]);
    await page.reload();
    await rows(page).first().waitFor();
    await page.getByRole("checkbox", { name: `Select #${gone1.number} Old plan` }).check();
    await page.getByRole("checkbox", { name: `Select #${gone2.number} Older plan` }).check();
    await page.getByRole("button", { name: "Archive…" }).click();
    const dialog = page.getByRole("dialog", { name: "Archive 2 ideas?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Archiving is permanent: no operation restores an idea.");
    expect(await a11yViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    const archived = async (id: number) => (await api(server.base, key, "GET", `/ideas/${id}`)).body.is_archived;
    expect(await archived(gone1.id)).toBe(0);

    await page.getByRole("button", { name: "Archive…" }).click();
    await dialog.getByRole("button", { name: "Archive" }).click();
    await page.getByText("Archived 2 ideas.").waitFor();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll(".idea-row").length === 1);
    expect(await rowTitles(page)).toEqual(["Keeper"]);
    expect(await archived(gone1.id)).toBe(1);
    expect(await archived(gone2.id)).toBe(1);
    expect(await archived(keep.id)).toBe(0);
    expectClean(o);
  }, 60_000);

  test("a duplicate pair from the background pass shows 'looks like #N' on both rows", async () => {
    const o = await openSignedIn(web, server, "/ideas");
    const { page, key } = o;
    const [older, newer, third] = await seed(server.base, key, [
      { title: "Solar powered phone charger for hikers", body: "A foldable solar panel that charges a phone on the trail.", tags: ["outdoor"] },
      { title: "Solar powered phone charger for hiking", body: "A foldable solar panel that charges phones on the trail.", tags: ["outdoor"] },
      { title: "Recipe box for grandmother's soups", body: "Scan handwritten cards into a small book.", tags: ["family"] },
    ]);
    await waitForQuiescence(server.dataDir);
    const dups = (await api(server.base, key, "GET", "/ideas/duplicates")).body.duplicates;
    expect(dups).toHaveLength(1);
    // The rows are badged from a summary of the ideas shown, never the whole listing (issue 27).
    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/v1/ideas/duplicates")) asked.push(r.url());
    });
    await page.reload();
    const newerRow = page.locator(".idea-row", { has: page.getByRole("link", { name: newer.title, exact: true }) });
    const olderRow = page.locator(".idea-row", { has: page.getByRole("link", { name: older.title, exact: true }) });
    await newerRow.getByRole("link", { name: `looks like #${older.number}` }).waitFor();
    await olderRow.getByRole("link", { name: `looks like #${newer.number}` }).waitFor();
    expect(await page.getByRole("link", { name: /^looks like/ }).count()).toBe(2);
    expect(asked.length, asked.join("\n")).toBeGreaterThan(0);
    // Only the per-idea summary (a count and the closest one), never the detections themselves.
    for (const url of asked) expect(new URL(url).pathname).toBe("/api/v1/ideas/duplicates/summary");
    for (const url of asked) expect(new URL(url).searchParams.get("idea_ids")?.split(",").map(Number).sort((a, b) => a - b)).toEqual([older.id, newer.id, third.id].sort((a, b) => a - b));
    await newerRow.getByRole("link", { name: `looks like #${older.number}` }).click();
    await page.waitForURL(`**/ideas/${older.id}`);
    expectClean(o);
  }, 90_000);

  test("phone width and dark theme", async () => {
    const o = await openSignedIn(web, server, "/ideas", { viewport: "phone" });
    const { page, key } = o;
    await seed(server.base, key, [
      { title: "Rain barrel overflow alarm with a long title that has to wrap on a phone", body: "Float switch and a buzzer. ".repeat(12), tags: ["garden", "water"], status: "building" },
      { title: "Neighbourhood tool library", body: "Lend drills and ladders.", tags: ["community"] },
    ]);
    await page.reload();
    await rows(page).first().check();
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "ideas-phone");
    // Nothing is wider than the screen, the selection's bar included.
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    expectClean(o);

    const dark = await web.open(server.base, "/ideas", { colorScheme: "dark" });
    await dark.context.addCookies(await o.context.cookies());
    await dark.page.reload();
    await rows(dark.page).first().waitFor();
    expect(await a11yViolations(dark.page)).toEqual([]);
    await screenshot(dark.page, "ideas-dark");
    expectClean(dark);
  }, 60_000);
});
