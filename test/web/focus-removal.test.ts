// Keyboard only, in a real browser: when an action removes the control that had the focus (the rows it archived, the
// bulk bar once nothing is selected, a revoked key, a deleted tag, the actions of an idea just archived), the focus
// goes on from the nearest sensible place (docs/web.md, "Keyboard"): the row now in its place, the control that
// replaced it, or the heading of its section; never the page itself, from where Tab starts again at the top.
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api } from "../ops/harness";
import { describeBrowser, expectClean, openSignedIn, webScope, type WebServer } from "./harness";
import { expectFocusOn, focusedName } from "./focus-helpers";

describeBrowser("focus after the focused control is removed", () => {
  const web = webScope("idearepo-web-focus-removal-");
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server();
  }, 30_000);

  /** Files `titles` in order (the list shows them newest first); answers their ids and numbers. */
  const seed = async (key: string, titles: string[], tags: string[] = []) => {
    const out: Array<{ id: number; number: number; title: string }> = [];
    for (const title of titles) {
      const res = await api(server.base, key, "POST", "/ideas", { title, tags });
      expect(res.status).toBe(201);
      out.push(res.body);
    }
    return out;
  };
  /** Presses `name`'s button from the keyboard (focus, then Enter), as a keyboard user reaches it. */
  const press = async (page: Page, name: string | RegExp) => {
    await page.getByRole("button", { name, exact: typeof name === "string" }).focus();
    await page.keyboard.press("Enter");
  };

  test("ideas list: after a bulk archive or a status change that empties the selection, the row now in the first selected row's place has the focus; with no row left, the heading", async () => {
    const pro = await openSignedIn(web, server, "/ideas");
    const { page } = pro;
    const ideas = await seed(pro.key, ["Kite one", "Kite two", "Kite three", "Kite four", "Kite five"]);
    const row = (i: number) => page.getByRole("checkbox", { name: `Select #${ideas[i].number} ${ideas[i].title}` });
    await page.goto(`${server.base}/ideas`);
    // Newest first: five, four, three, two, one. Four and three go; two takes four's place.
    await row(3).check();
    await row(2).check();
    await press(page, "Archive…");
    await page.getByRole("dialog", { name: "Archive 2 ideas?" }).waitFor();
    await page.keyboard.press("Enter"); // the dialog's Archive has the focus
    await page.getByText("Archived 2 ideas.").waitFor();
    await expectFocusOn(page, "Kite two");
    // j goes on from there, as from any row.
    await page.keyboard.press("j");
    await expectFocusOn(page, "Kite one");

    // Filtered to captured, two moves to exploring and leaves the list: one takes its place.
    await page.goto(`${server.base}/ideas?status=captured`);
    await row(1).check();
    await page.getByLabel("New status").selectOption("exploring");
    await press(page, "Apply status");
    await page.getByText("Status set to exploring on 1 idea.").waitFor();
    await expectFocusOn(page, "Kite one");

    // Everything left archived: the list's heading.
    await page.getByRole("checkbox", { name: "Select all shown" }).check();
    await press(page, "Archive…");
    await page.getByRole("dialog", { name: "Archive 2 ideas?" }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByText("No ideas match these filters").waitFor();
    await expectFocusOn(page, "Ideas");
    expectClean(pro);
  });

  test("ideas list: Select all shown, once pressed, hands the focus to Clear selection, and Clear selection to the list", async () => {
    const pro = await openSignedIn(web, server, "/ideas");
    const { page } = pro;
    const ideas = await seed(pro.key, ["Lamp one", "Lamp two"]);
    await page.goto(`${server.base}/ideas`);
    await page.getByRole("checkbox", { name: `Select #${ideas[0].number} Lamp one` }).check();
    await press(page, "Select all 2 shown");
    await expectFocusOn(page, "Clear selection");
    await page.keyboard.press("Enter");
    await expectFocusOn(page, `Select #${ideas[1].number} Lamp two`);
    expectClean(pro);
  });

  test("settings: revoking an API key leaves the focus on the next key's Revoke; revoking the last, on the section's heading", async () => {
    const pro = await openSignedIn(web, server, "/settings#api-keys");
    const { page } = pro;
    const section = page.getByRole("region", { name: "API keys" });
    await page.getByLabel("New key label").fill("laptop");
    await press(page, "Create API key");
    await page.getByRole("dialog", { name: "Your new API key" }).getByRole("button", { name: "Done" }).click();
    const revoke = section.getByRole("button", { name: /^Revoke key / });
    await expect(revoke.count()).resolves.toBe(2); // the account's own key and laptop
    const [first, second] = await revoke.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    await press(page, first!);
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByText(/^Key “.*” revoked$/).waitFor();
    await expectFocusOn(page, second!);
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).waitFor();
    await page.keyboard.press("Enter");
    await section.getByText("No API keys").waitFor();
    await expectFocusOn(page, "API keys");
    expectClean(pro);
  });

  test("tags: deleting a tag leaves the focus in the next tag's row; deleting the last, on the page's heading", async () => {
    const pro = await openSignedIn(web, server, "/tags");
    const { page } = pro;
    await seed(pro.key, ["Tagged twice"], ["aardvark", "zebra"]);
    await page.goto(`${server.base}/tags`);
    const list = page.getByRole("list", { name: "Tags" });
    await list.getByRole("button", { name: "Delete aardvark" }).waitFor();
    const rowOf = (name: string) => page.evaluate(() => (globalThis as any).document.activeElement?.closest?.("li")?.textContent ?? "").then((t: string) => t.includes(name));
    const firstTag = ((await list.locator("li .tag-name").first().textContent()) ?? "").trim();
    const otherTag = firstTag === "aardvark" ? "zebra" : "aardvark";
    await press(page, `Delete ${firstTag}`);
    await page.getByRole("dialog").getByRole("button", { name: /^Delete/ }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByText(`Deleted “${firstTag}”.`).waitFor();
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.closest?.("li") != null, null, { timeout: 10_000 }).catch(() => {});
    expect(await rowOf(otherTag), `the focus is in ${otherTag}'s row, not on ${await page.evaluate(focusedName, undefined)}`).toBe(true);
    await press(page, `Delete ${otherTag}`);
    await page.getByRole("dialog").getByRole("button", { name: /^Delete/ }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByText("No tags yet").waitFor();
    await expectFocusOn(page, "Tags");
    expectClean(pro);
  });

  test("an idea's page: archiving it leaves the focus on its heading; Remove parent in the editor hands it to the parent picker", async () => {
    const pro = await openSignedIn(web, server, "/ideas");
    const { page } = pro;
    const [parent, child, doomed] = await seed(pro.key, ["Mast parent", "Mast child", "Mast doomed"]);
    expect((await api(server.base, pro.key, "PATCH", `/ideas/${child.id}`, { parent_id: parent.id })).status).toBe(200);
    await page.goto(`${server.base}/ideas/${child.id}`);
    await page.getByRole("heading", { level: 1, name: `#${child.number} Mast child` }).waitFor();
    await page.keyboard.press("e");
    await page.getByRole("form", { name: "Edit idea" }).getByRole("link", { name: `#${parent.number} Mast parent` }).waitFor();
    await press(page, "Remove parent");
    await expectFocusOn(page, "Parent idea");
    await page.keyboard.press("Escape"); // closes the picker's list
    await page.keyboard.press("Escape"); // and the editor

    await page.goto(`${server.base}/ideas/${doomed.id}`);
    await page.getByRole("heading", { level: 1, name: `#${doomed.number} Mast doomed` }).waitFor();
    await press(page, "Archive…");
    await page.getByRole("dialog", { name: `Archive #${doomed.number}?` }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByText("This idea is archived.", { exact: false }).waitFor();
    await expectFocusOn(page, `#${doomed.number} Mast doomed`);
    expectClean(pro);
  });

  test("map: closing the selected idea's panel with × or Escape gives the focus back to the list's Show on map that opened it", async () => {
    const pro = await openSignedIn(web, server, "/ideas");
    const { page } = pro;
    const [a, b] = await seed(pro.key, ["Buoy one", "Buoy two"]);
    expect((await api(server.base, pro.key, "POST", "/map/relations", { source_idea_id: a.id, target_idea_id: b.id, relation_type: "related" })).status).toBe(201);
    await page.goto(`${server.base}/map`);
    await page.getByRole("heading", { level: 1, name: "Mind map" }).waitFor();
    await page.getByText(/List of the ideas on the map/).click();
    const show = `Show on map: #${b.number}`;
    const panel = page.getByRole("complementary", { name: "Selected idea" });
    await press(page, show);
    await panel.getByRole("heading", { name: /Buoy two/ }).waitFor();
    await press(page, "Close the selected idea");
    await panel.waitFor({ state: "detached" });
    await expectFocusOn(page, show);
    await page.keyboard.press("Enter");
    await panel.getByRole("heading", { name: /Buoy two/ }).waitFor();
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
    await expectFocusOn(page, show);
    expectClean(pro);
  });

  test("an idea's editor: Remove parent pressed before the parent's name is read stays removed when the name arrives", async () => {
    const pro = await openSignedIn(web, server, "/ideas");
    const { page } = pro;
    const [parent, child] = await seed(pro.key, ["Oar parent", "Oar child"]);
    expect((await api(server.base, pro.key, "PATCH", `/ideas/${child.id}`, { parent_id: parent.id })).status).toBe(200);
    await page.goto(`${server.base}/ideas/${child.id}`);
    await page.getByRole("heading", { level: 1, name: `#${child.number} Oar child` }).waitFor();
    // The editor reads the parent's name when it opens: that answer is held until the parent has been removed.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let asked = false;
    await page.route(`**/api/v1/ideas/${parent.id}`, async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await page.keyboard.press("e");
    const editor = page.getByRole("form", { name: "Edit idea" });
    const until = Date.now() + 10_000;
    while (!asked && Date.now() < until) await Bun.sleep(50);
    expect(asked, "the editor asked for the parent's name").toBe(true);
    await press(page, "Remove parent");
    await expectFocusOn(page, "Parent idea");
    const answered = page.waitForResponse(`**/api/v1/ideas/${parent.id}`);
    release();
    await answered;
    await page.keyboard.press("Escape"); // the picker's list
    await editor.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { level: 1, name: `#${child.number} Oar child` }).waitFor();
    await editor.waitFor({ state: "detached" });
    expect((await api(server.base, pro.key, "GET", `/ideas/${child.id}`)).body.parent_id, "the parent stayed removed").toBeNull();
    expectClean(pro);
  });
});
