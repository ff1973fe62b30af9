// The idea page's History panel in a real browser: versions with when and which writer, a diff of two, and Restore
// after a confirmation; each step checked through the API afterwards (issue 36).
import { beforeAll, expect, test } from "bun:test";
import { api } from "../ops/harness";
import { a11yViolations, describeBrowser, expectClean, openSignedIn, webScope, type WebServer } from "./harness";

describeBrowser("idea history", () => {
  const web = webScope("idearepo-web-history-");
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server();
  }, 30_000);

  test("the versions list their writers; the diff shows what changed; Restore asks, then brings the text back", async () => {
    const pro = await openSignedIn(web, server, "/ideas");
    const { page } = pro;
    const made = await api(server.base, pro.key, "POST", "/ideas", { title: "Rain barrel", body: "Intro\nfirst plan\nOutro" });
    const id = (made.body as { id: number }).id;
    await api(server.base, pro.key, "PATCH", `/ideas/${id}`, { body: "Intro\nsecond plan\nOutro" });
    await page.goto(`${server.base}/ideas/${id}`);
    await page.getByRole("heading", { level: 1, name: "Rain barrel" }).waitFor();

    // An edit in the web app is the third version, written by the web app.
    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Body", { exact: true }).fill("Intro\nthird plan, pasted over\nOutro");
    await page.getByLabel("Body", { exact: true }).press("Control+Enter");
    await page.getByRole("region", { name: "Body" }).getByText("third plan, pasted over").waitFor();

    await page.getByRole("button", { name: "Show history" }).click();
    const list = page.getByRole("list", { name: "Versions" });
    await list.getByRole("listitem").filter({ hasText: "Version 3 (current)" }).getByText("by the web app").waitFor();
    await list.getByRole("listitem").filter({ hasText: "Version 2" }).getByText("by the API").waitFor();
    expect(await list.getByRole("listitem").count()).toBe(3);

    // By default the version before the current one against it: the changed line removed and added, the rest kept.
    const diff = page.getByRole("region", { name: "Differences" });
    await diff.locator("del", { hasText: "second plan" }).waitFor();
    await diff.locator("ins", { hasText: "third plan, pasted over" }).waitFor();
    expect(await diff.locator("del, ins").filter({ hasText: "Intro" }).count()).toBe(0);
    await page.getByLabel("Older version").selectOption("1");
    await diff.locator("del", { hasText: "first plan" }).waitFor();
    expect(await a11yViolations(page)).toEqual([]);

    // Restore asks first; Cancel changes nothing.
    await page.getByRole("button", { name: "Restore version 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Restore version 1?" });
    await dialog.getByText("stays in the history as version 3").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await api(server.base, pro.key, "GET", `/ideas/${id}`)).body.body).toBe("Intro\nthird plan, pasted over\nOutro");

    await page.getByRole("button", { name: "Restore version 1" }).click();
    await page.getByRole("dialog", { name: "Restore version 1?" }).getByRole("button", { name: "Restore" }).click();
    await page.getByRole("region", { name: "Body" }).getByText("first plan").waitFor();
    await list.getByRole("listitem").filter({ hasText: "Version 4 (current)" }).getByText("by a restore").waitFor();
    expect((await api(server.base, pro.key, "GET", `/ideas/${id}`)).body.body).toBe("Intro\nfirst plan\nOutro");
    const versions = (await api(server.base, pro.key, "GET", `/ideas/${id}/versions`)).body.versions;
    expect(versions.map((v: { version: number; writer: string }) => [v.version, v.writer])).toEqual([[4, "restore"], [3, "web"], [2, "api"], [1, "api"]]);
    expectClean(pro);
  }, 60_000);
});
