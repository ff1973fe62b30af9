// The review queue in a real browser: one key per action on stale ideas, new connections and duplicates found by the
// real background pass, undo of a status move, confirmations before what cannot be undone, the nav badge, Free's notice.
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { dataDirStore } from "../cli";
import { api, waitForQuiescence } from "../ops/harness";
import { a11yViolations, createAccount, describeBrowser, expectClean, openSignedIn, screenshot, signIn, webScope, type WebServer } from "./harness";

const DAY = 86_400_000;
const stamp = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 19).replace("T", " ");

/** The Review link's accessible name with its badge: "Review, 5 to review". */
const badgeName = (n: number) => new RegExp(`^Review\\s*, ${n} to review$`);

/** The text of the review item that has keyboard focus. */
const focusedItem = (page: Page) => page.evaluate(() => (globalThis as any).document.activeElement?.closest?.("[data-key]")?.textContent ?? "");
/**
 * j until the focused item holds `text`, waiting after each press for the focus to move: pressed again before the
 * page has moved it (a loaded machine), j would be read twice and go past the item.
 */
async function jUntil(page: Page, text: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const now = await focusedItem(page);
    if (now.includes(text)) return;
    await page.keyboard.press("j");
    await page.waitForFunction((was) => ((globalThis as any).document.activeElement?.closest?.("[data-key]")?.textContent ?? "") !== was, now, { timeout: 5_000 }).catch(() => {}); // the end of the list: the caller's expect says what was focused
  }
}

describeBrowser("review queue", () => {
  const web = webScope("idearepo-web-review-");
  let server: WebServer;
  const email = "reviewer@example.com";
  const password = "review password 1";
  let key: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    const first = await web.server();
    key = createAccount(first, email, password, "pro");
    expect((await api(first.base, key, "PATCH", "/user/me", { settings_json: JSON.stringify({ stale_threshold_days: 7 }) })).status).toBe(200);
    const seed = async (name: string, title: string, body: string) => {
      const r = await api(first.base, key, "POST", "/ideas", { title, body });
      expect(r.status).toBe(201);
      ids[name] = r.body.id;
    };
    await seed("keep", "Sourdough starter feeding schedule", "Flour and water ratios for a rye starter kept in the fridge.");
    await seed("move", "Solar powered bird feeder camera", "Photograph visiting birds and label the species automatically.");
    await seed("archive", "Quarterly tax form reminders", "Calendar entries before each filing deadline.");
    await seed("conn1", "Chess opening flashcards", "Spaced repetition for openings.");
    await seed("conn2", "Mountain bike trail map", "Offline trail map with elevation.");
    await seed("dupOld", "Grocery list app that sorts items by supermarket aisle", "Shared grocery list for the household that orders items by the aisle of my usual supermarket.");
    await seed("dupNew", "Grocery list app sorting items by supermarket aisle", "A shared grocery list for the household which orders items by the aisle of the usual supermarket.");
    // The real background pass: embeddings, related relations and the duplicate detection of the grocery pair.
    await waitForQuiescence(first.dataDir);
    const rel = await api(first.base, key, "POST", "/map/relations", { source_idea_id: ids.conn1, target_idea_id: ids.conn2, relation_type: "inspires" });
    expect(rel.status).toBe(201);
    ids.relation = rel.body.relation.id;
    // Setup only, simulating the passage of time: the API cannot backdate an idea, so with the server stopped the
    // three "stale" ideas get an older updated_at in the database file, and the server starts again on the same data.
    await first.stop();
    const db = dataDirStore(first.dataDir);
    const backdate = db.query("UPDATE ideas SET updated_at = ? WHERE id = ?");
    await backdate.run(stamp(30 * DAY), ids.keep);
    await backdate.run(stamp(20 * DAY), ids.move);
    await backdate.run(stamp(10 * DAY), ids.archive);
    await db.close();
    server = await web.server({}, first.dataDir);
  }, 90_000);

  test("phone and dark: the queue before any action, duplicates marked word by word", async () => {
    const phone = await web.open(server.base, "/review", { viewport: "phone" });
    await signIn(phone.page, email, password);
    await phone.page.getByRole("heading", { name: /Stale ideas/ }).waitFor();
    expect(await a11yViolations(phone.page)).toEqual([]);
    await screenshot(phone.page, "review-phone");
    expectClean(phone);
    const dark = await web.open(server.base, "/review", { colorScheme: "dark" });
    await signIn(dark.page, email, password);
    await dark.page.getByRole("heading", { name: /Stale ideas/ }).waitFor();
    await dark.page.evaluate(() => (globalThis as any).document.getElementById("group-connections").scrollIntoView());
    expect(await dark.page.getByRole("region", { name: /^Newer, #\d+$/ }).locator("ins").count()).toBeGreaterThan(0);
    expect(await a11yViolations(dark.page)).toEqual([]);
    await screenshot(dark.page, "review-dark");
    expectClean(dark);
  }, 30_000);

  test("a queue worked through from the keyboard: keep, move and undo, archive, reject, merge; the badge follows", async () => {
    const before = await api(server.base, key, "GET", "/review");
    expect(before.body.stale.map((s: any) => s.id)).toEqual([ids.keep, ids.move, ids.archive]);
    expect(before.body.duplicates.length).toBe(1);
    expect(before.body.duplicates[0].idea_id).toBe(ids.dupNew);
    const total = before.body.counts.total;

    const o = await web.open(server.base, "/review");
    const { page } = o;
    await signIn(page, email, password);
    await page.getByRole("heading", { name: /Stale ideas/ }).waitFor();
    // The badge in the navigation matches the API's total.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: badgeName(total) }).waitFor();
    await page.getByText("7 days.").first().waitFor();
    expect(await page.getByRole("link", { name: "Change the threshold in Settings" }).getAttribute("href")).toBe("/settings");
    await page.getByText("30 days without changes").waitFor();
    // The duplicate pair side by side, differing words marked.
    expect(await page.locator(".dup-side ins").count()).toBeGreaterThan(0);
    expect(await page.locator(".dup-side del").count()).toBeGreaterThan(0);
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "review-desktop");

    // k: keep the oldest stale idea; its updated_at moves to now; the next item takes focus.
    const keptBefore = (await api(server.base, key, "GET", `/ideas/${ids.keep}`)).body.updated_at;
    await page.keyboard.press("k");
    await page.getByText(/Kept #\d+\. A keep cannot be undone/).waitFor();
    expect(await focusedItem(page)).toContain("Solar powered bird feeder camera");
    const kept = (await api(server.base, key, "GET", `/ideas/${ids.keep}`)).body;
    expect(kept.updated_at > keptBefore).toBe(true);
    expect(kept.status).toBe("captured");
    // ↓/↑ inside the queue move between items as j does (the same list keys as the ideas list).
    const focusLeaves = (text: string) => page.waitForFunction((t) => !((globalThis as any).document.activeElement?.closest?.("[data-key]")?.textContent ?? "").includes(t), text, { timeout: 5_000 });
    await page.keyboard.press("ArrowDown");
    await focusLeaves("Solar powered bird feeder camera");
    await page.keyboard.press("ArrowUp");
    await page.waitForFunction(() => ((globalThis as any).document.activeElement?.closest?.("[data-key]")?.textContent ?? "").includes("Solar powered bird feeder camera"), null, { timeout: 5_000 });

    // e: move to exploring, then Undo restores captured.
    await page.keyboard.press("e");
    await page.getByText(/Moved #\d+ to exploring/).waitFor();
    expect((await api(server.base, key, "GET", `/ideas/${ids.move}`)).body.status).toBe("exploring");
    expect(await focusedItem(page)).toContain("Quarterly tax form reminders");
    await page.getByRole("button", { name: "Undo" }).click();
    await page.getByText(/is captured again/).waitFor();
    expect((await api(server.base, key, "GET", `/ideas/${ids.move}`)).body.status).toBe("captured");

    // a: archive asks first; Escape cancels, Enter confirms.
    await page.keyboard.press("a");
    await page.getByRole("dialog", { name: /Archive #\d+\?/ }).waitFor();
    await page.getByText("Archiving is permanent").waitFor();
    await page.keyboard.press("Escape");
    expect((await api(server.base, key, "GET", `/ideas/${ids.archive}`)).body.is_archived).toBe(0);
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    expect(await focusedItem(page)).toContain("Quarterly tax form reminders"); // focus is back on the item
    await page.keyboard.press("a");
    await page.getByRole("dialog", { name: /Archive #\d+\?/ }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByText(/Archived #\d+\./).waitFor();
    expect((await api(server.base, key, "GET", `/ideas/${ids.archive}`)).body.is_archived).toBe(1);

    // Connections: j until the chess/bike connection has focus, r rejects it after a confirmation.
    await jUntil(page, "Chess opening flashcards");
    expect(await focusedItem(page)).toContain("Mountain bike trail map");
    await page.keyboard.press("r");
    await page.getByRole("dialog", { name: "Reject this connection?" }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByText("Connection rejected.").waitFor();
    const rels = (await api(server.base, key, "GET", `/ideas/${ids.conn1}/relations`)).body;
    expect([...rels.outgoing, ...rels.incoming].map((r: any) => r.id)).not.toContain(ids.relation);

    // Duplicates: j to the pair, m merges into the newer after a confirmation; the older is archived.
    await jUntil(page, "look alike");
    expect(await focusedItem(page)).toContain("look alike");
    await page.keyboard.press("m");
    await page.getByRole("dialog", { name: /Merge #\d+ into #\d+\?/ }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByText(/Merged #\d+ into #\d+\./).waitFor();
    expect((await api(server.base, key, "GET", `/ideas/${ids.dupOld}`)).body.is_archived).toBe(1);
    const survivor = (await api(server.base, key, "GET", `/ideas/${ids.dupNew}`)).body;
    expect(survivor.is_archived).toBe(0);
    expect(survivor.body).toContain("---");

    // The badge follows the queue, and after a reload it matches the API's total again. The merge queued a full
    // pass for the survivor, which may find new connections: wait for it, so the total read here is the one the
    // navigation will read (reading it mid-pass raced the pipeline on a slow CI machine).
    await waitForQuiescence(server.dataDir);
    const after = (await api(server.base, key, "GET", "/review")).body.counts.total;
    expect(after).toBeLessThan(total);
    await page.getByRole("link", { name: "Ideas", exact: true }).click();
    await page.waitForURL("**/ideas");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: after ? badgeName(after) : "Review" }).waitFor();
    expectClean(o);
  }, 60_000);

  test("a Free account: all caught up, duplicates said to be Pro instead of an empty group, rejecting a connection gated", async () => {
    const o = await openSignedIn(web, server, "/review", { plan: "free" });
    const { page } = o;
    await page.getByText("All caught up").waitFor();
    await page.getByText("Finding duplicate ideas requires a Pro plan.").waitFor();
    await page.getByText("On the Free plan the duplicates group stays empty").waitFor();
    expect((await api(server.base, o.key, "GET", "/review")).body.counts.total).toBe(0);
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Review" }).textContent()).toBe("Review");
    expect(await a11yViolations(page)).toEqual([]);
    // A connection found by the background pass: keeping it is local, rejecting it is Pro, so the gate is shown instead.
    for (const title of ["Bike repair cafe on Saturdays", "Bicycle repair cafe every Saturday"]) {
      expect((await api(server.base, o.key, "POST", "/ideas", { title })).status).toBe(201);
    }
    await waitForQuiescence(server.dataDir);
    const q = (await api(server.base, o.key, "GET", "/review")).body;
    expect(q.counts.connections).toBeGreaterThan(0);
    expect(q.counts.duplicates).toBe(0);
    await page.reload();
    await page.getByRole("heading", { name: /New connections/ }).waitFor();
    await page.getByText("Rejecting a connection requires a Pro plan.").waitFor();
    expect(await page.getByRole("button", { name: "Reject" }).count()).toBe(0);
    await page.keyboard.press("j");
    await page.keyboard.press("r");
    await page.getByText("Rejecting a connection requires a Pro plan.").nth(1).waitFor(); // said again, in a toast
    await page.keyboard.press("k");
    await page.getByText("Connection kept.").waitFor();
    expect((await api(server.base, o.key, "GET", "/review")).body.counts.connections).toBe(q.counts.connections); // local only
    expect(await a11yViolations(page)).toEqual([]);
    expectClean(o);
  }, 60_000);
});
