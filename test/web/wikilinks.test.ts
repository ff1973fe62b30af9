// [[Wikilinks]] on the idea page in a real browser: resolved links go to their idea, an unresolved one offers a
// capture, a file embed is a quiet placeholder, no raw brackets; the linked idea lists "Linked from" (issue 36).
import { beforeAll, expect, test } from "bun:test";
import { api } from "../ops/harness";
import { a11yViolations, describeBrowser, expectClean, openSignedIn, webScope, type WebServer } from "./harness";

describeBrowser("wikilinks on the idea page", () => {
  const web = webScope("idearepo-web-wikilinks-");
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server();
  }, 30_000);

  test("a captured [[link]] renders as a link to its idea, relates the two, and shows up under Linked from", async () => {
    const pro = await openSignedIn(web, server, "/ideas");
    const { page } = pro;
    const post = async (idea: Record<string, unknown>) => (await api(server.base, pro.key, "POST", "/ideas", idea)).body as { id: number; number: number };
    const barrel = await post({ title: "Rainwater barrel", body: "## Size\n200 litres" });
    const plan = await post({
      title: "Garden plan",
      body: "Use the [[Rainwater barrel]] first, see [[rainwater barrel#Size|the size]].\n\n![[sketch.png]] and [[Greenhouse]]",
    });

    // The person's related relation, made by the link.
    const rel = (await api(server.base, pro.key, "GET", `/ideas/${plan.id}/relations`)).body.outgoing;
    expect(rel.map((r: { idea_id: number; relation_type: string; created_by: string }) => [r.idea_id, r.relation_type, r.created_by])).toEqual([[barrel.id, "related", "user"]]);

    await page.goto(`${server.base}/ideas/${plan.id}`);
    await page.getByRole("heading", { level: 1, name: "Garden plan" }).waitFor();
    const body = page.getByRole("region", { name: "Body" });
    expect(await body.getByRole("link", { name: "Rainwater barrel", exact: true }).getAttribute("href")).toBe(`/ideas/${barrel.id}`);
    expect(await body.getByRole("link", { name: "Rainwater barrel › Size" }).count()).toBe(0);
    expect(await body.getByRole("link", { name: "the size" }).getAttribute("href")).toBe(`/ideas/${barrel.id}`);
    await body.getByText("📎 sketch.png").waitFor();
    await body.getByText("Greenhouse", { exact: true }).waitFor();
    expect(await body.getByRole("link", { name: "Capture an idea titled Greenhouse" }).getAttribute("href")).toBe("/capture?title=Greenhouse");
    expect(await body.innerText()).not.toContain("[[");
    expect(await a11yViolations(page)).toEqual([]);

    // Following the link: the barrel's page lists the plan under Linked from.
    await body.getByRole("link", { name: "Rainwater barrel", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Rainwater barrel" }).waitFor();
    const backlinks = page.getByRole("region", { name: "Linked from" });
    await backlinks.getByRole("link", { name: `#${plan.number} Garden plan` }).waitFor();

    // Editing the link away in the web app removes the relation it made; the body shows plain text.
    await page.goto(`${server.base}/ideas/${plan.id}`);
    await page.getByRole("heading", { level: 1, name: "Garden plan" }).waitFor();
    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Body", { exact: true }).fill("No links now");
    await page.getByLabel("Body", { exact: true }).press("Control+Enter");
    await page.getByRole("region", { name: "Body" }).getByText("No links now").waitFor();
    expect((await api(server.base, pro.key, "GET", `/ideas/${plan.id}/relations`)).body.outgoing).toEqual([]);
    expectClean(pro);
  }, 60_000);

  test("typing [[ in the editor lists matching ideas; arrows and Enter write the link; Escape closes only the list", async () => {
    const pro = await openSignedIn(web, server, "/ideas");
    const { page } = pro;
    const post = async (idea: Record<string, unknown>) => (await api(server.base, pro.key, "POST", "/ideas", idea)).body as { id: number; number: number };
    const barrel = await post({ title: "Rain barrel" });
    await post({ title: "Rain butt stand" });
    const heap = await post({ title: "Compost heap" });
    const plan = await post({ title: "Water plan with rain", body: "" });

    await page.goto(`${server.base}/ideas/${plan.id}`);
    await page.getByRole("heading", { level: 1, name: "Water plan with rain" }).waitFor();
    await page.getByRole("button", { name: "Edit" }).click();
    const body = page.getByLabel("Body", { exact: true });
    await body.click();
    await body.pressSequentially("Fill the [[rain");
    const list = page.getByRole("listbox", { name: "Link to an idea" });
    await list.waitFor();
    const options = list.getByRole("option");
    // Titles holding what was typed, newest first; never the idea being edited.
    expect(await options.allInnerTexts()).toEqual([expect.stringContaining("Rain butt stand"), expect.stringContaining("Rain barrel")]);
    expect(await options.nth(0).getAttribute("aria-selected")).toBe("true");
    expect(await a11yViolations(page)).toEqual([]);
    await body.press("ArrowDown");
    expect(await options.nth(1).getAttribute("aria-selected")).toBe("true");
    expect(await body.getAttribute("aria-activedescendant")).toBe(await options.nth(1).getAttribute("id"));
    await body.press("Enter");
    expect(await body.inputValue()).toBe("Fill the [[Rain barrel]]");
    await list.waitFor({ state: "hidden" });

    // Escape closes the list and leaves the editor open; typing on finishes the link by hand.
    await body.pressSequentially(" and [[comp");
    await list.waitFor();
    await body.press("Escape");
    await list.waitFor({ state: "hidden" });
    await page.getByRole("form", { name: "Edit idea" }).waitFor();
    await body.pressSequentially("ost heap]]");
    expect(await body.inputValue()).toBe("Fill the [[Rain barrel]] and [[compost heap]]");
    await body.press("Control+Enter");
    await page.getByRole("region", { name: "Body" }).getByRole("link", { name: "Rain barrel" }).waitFor();
    const out = (await api(server.base, pro.key, "GET", `/ideas/${plan.id}/relations`)).body.outgoing as { idea_id: number }[];
    expect(out.map((r) => r.idea_id).sort()).toEqual([barrel.id, heap.id].sort());

    // The capture form completes the same way.
    await page.goto(`${server.base}/capture`);
    const captureBody = page.getByLabel("Body", { exact: true });
    await captureBody.click();
    await captureBody.pressSequentially("[[#" + heap.number);
    await list.waitFor();
    expect(await options.allInnerTexts()).toEqual([expect.stringContaining("Compost heap")]);
    await captureBody.press("Tab");
    expect(await captureBody.inputValue()).toBe("[[Compost heap]]");
    expect(await captureBody.evaluate((el: any) => el === el.ownerDocument.activeElement)).toBe(true);
    expectClean(pro);
  }, 60_000);
});
