// The pickers' lists in a real browser at a phone's width and a desktop's, light and dark (docs/web.md, "Pickers"):
// an open list of ideas or tags sits under its field, in the form's flow, and never over the form's buttons, so a
// pointer reaches Add relation, Save or Add tags while the list is open and a phone does not hide them; Escape and
// leaving the field close it (the ARIA combobox pattern).
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any;
import { beforeAll, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { api } from "../ops/harness";
import { describeBrowser, expectClean, openSignedIn, webScope, type WebServer } from "./harness";

const PHONE = { width: 390, height: 844 };

/** Fails unless `button`, brought into view, is what a pointer at its centre meets (nothing drawn over it). */
async function expectReachable(page: Page, button: Locator, what: string): Promise<void> {
  await button.scrollIntoViewIfNeeded();
  const hit = await button.evaluate((b) => {
    const r = b.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return top && (top === b || b.contains(top)) ? "the button" : `${top?.tagName}.${top?.className} (${(top?.textContent ?? "").trim().slice(0, 60)})`;
  });
  expect(hit, `${what}: a pointer at the button's centre meets`).toBe("the button");
}

describeBrowser("pickers' lists and the form's buttons", () => {
  const web = webScope("idearepo-web-pickers-");
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server();
  }, 30_000);

  for (const [viewport, scheme] of [["phone", "dark"], ["desktop", "light"]] as const) {
    test(`${viewport}, ${scheme}: the idea picker's list open in Add relation and in the editor leaves Add relation, Cancel and Save reachable`, async () => {
      const pro = await openSignedIn(web, server, "/ideas", { viewport, colorScheme: scheme });
      const { page } = pro;
      if (viewport === "phone") await page.setViewportSize(PHONE);
      const ids: number[] = [];
      for (const title of ["Sail one", "Sail two", "Sail three", "Sail four", "Sail five", "Sail six"]) {
        const res = await api(server.base, pro.key, "POST", "/ideas", { title });
        expect(res.status).toBe(201);
        ids.push(res.body.id);
      }
      await page.goto(`${server.base}/ideas/${ids[0]}`);
      await page.getByRole("heading", { level: 1, name: /Sail one/ }).waitFor();

      // Add relation: the picker takes the focus and lists the newest ideas at once.
      await page.getByRole("button", { name: "Add relation" }).click();
      const form = page.getByRole("form", { name: "Add a relation" });
      const list = form.getByRole("listbox", { name: "Other idea" });
      await list.getByRole("option", { name: /Sail six/ }).waitFor();
      await expectReachable(page, form.getByRole("button", { name: "Add relation" }), "Add relation with the list open");
      expect(await list.isVisible(), "the list is still open").toBe(true);
      // Pressed with the pointer while the list is open: the form says what is missing.
      await form.getByRole("button", { name: "Add relation" }).click();
      await form.getByRole("alert").filter({ hasText: "Choose the other idea." }).waitFor();
      await expectReachable(page, form.getByRole("button", { name: "Cancel" }), "Cancel");
      await form.getByRole("button", { name: "Cancel" }).click();
      await form.waitFor({ state: "detached" });

      // The editor's parent picker, then Save with the pointer while its list is open.
      await page.getByRole("button", { name: "Edit" }).click();
      const editor = page.getByRole("form", { name: "Edit idea" });
      await editor.getByRole("combobox", { name: "Parent idea" }).focus();
      const parents = editor.getByRole("listbox", { name: "Parent idea" });
      await parents.getByRole("option", { name: /Sail six/ }).waitFor();
      await editor.getByLabel("Title").fill("Sail one, saved with the list open");
      await editor.getByRole("combobox", { name: "Parent idea" }).focus();
      await parents.getByRole("option", { name: /Sail six/ }).waitFor();
      await expectReachable(page, editor.getByRole("button", { name: "Save" }), "Save with the parent list open");
      await editor.getByRole("button", { name: "Save" }).click();
      await page.getByRole("heading", { level: 1, name: /Sail one, saved with the list open/ }).waitFor();

      // Escape closes the list and leaves the form open; leaving the field closes it too.
      await page.getByRole("button", { name: "Add relation" }).click();
      const picker = form.getByRole("combobox", { name: "Other idea" });
      await list.getByRole("option").first().waitFor();
      await picker.press("Escape");
      await expect(picker.getAttribute("aria-expanded")).resolves.toBe("false");
      expect(await form.isVisible()).toBe(true);
      await picker.press("ArrowDown");
      await list.getByRole("option").first().waitFor();
      await picker.press("Tab");
      await list.waitFor({ state: "hidden" });
      expectClean(pro);
    });
  }

  test("phone, dark: the bulk bar's tag suggestions leave Add tags reachable", async () => {
    const pro = await openSignedIn(web, server, "/ideas", { viewport: "phone", colorScheme: "dark" });
    const { page } = pro;
    await page.setViewportSize(PHONE);
    const res = await api(server.base, pro.key, "POST", "/ideas", { title: "Rope locker", tags: ["garden", "gear", "green"] });
    expect(res.status).toBe(201);
    const other = await api(server.base, pro.key, "POST", "/ideas", { title: "Rope ladder" });
    await page.goto(`${server.base}/ideas`);
    await page.getByRole("checkbox", { name: `Select #${other.body.number} Rope ladder` }).check();
    const bar = page.getByRole("region", { name: "Selected ideas" });
    const field = bar.getByRole("combobox", { name: "Tags to add" });
    await field.fill("gar");
    await field.press("Enter"); // "gar" is a tag of its own; then the suggestions for "g" stay open
    await field.fill("g");
    await bar.getByRole("listbox", { name: "Tags to add suggestions" }).getByRole("option", { name: "gear" }).waitFor();
    await expectReachable(page, bar.getByRole("button", { name: "Add tags" }), "Add tags with the suggestions open");
    await bar.getByRole("button", { name: "Add tags" }).click();
    await page.getByText(/^Added gar/).waitFor();
    expect((await api(server.base, pro.key, "GET", `/ideas/${other.body.id}`)).body.tags).toContain("gar");
    expectClean(pro);
  });
});
