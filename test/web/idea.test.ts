// An idea's page in a real browser: edit in place, status with Undo, links, relations and their cycle refusals, merge,
// archive, the plan gate on Free, not-found states, and hostile content that must render inert. Each flow is
// checked through the API afterwards.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any;
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api, waitForQuiescence } from "../ops/harness";
import { a11yViolations, allowConsole, describeBrowser, expectClean, openSignedIn, screenshot, signIn, VIEWPORTS, webScope, type WebServer } from "./harness";

describeBrowser("idea page", () => {
  const web = webScope("idearepo-web-idea-");
  let server: WebServer;
  let shared: Awaited<ReturnType<typeof openSignedIn>> | null = null;

  beforeAll(async () => {
    server = await web.server();
  }, 30_000);
  /** One signed-in Pro account for the flows that need nothing special (signing in is the slow part). */
  const proPage = async () => (shared ??= await openSignedIn(web, server, "/ideas"));

  const seed = async (key: string, idea: Record<string, unknown>) => {
    const res = await api(server.base, key, "POST", "/ideas", { tags: ["seeded"], ...idea });
    expect(res.status).toBe(201);
    return res.body as { id: number; number: number; title: string };
  };
  /**
   * Waits (through the API) until `id` pairs with `n` pending duplicates: on a loaded machine the re-scoring pass can
   * judge a pair after the jobs table and /health have gone quiet, and the page reads the summary only once.
   */
  const duplicatesOf = async (key: string, id: number, n: number) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const summary = (await api(server.base, key, "GET", `/ideas/duplicates/summary?idea_ids=${id}`)).body?.summaries?.[0];
      if ((summary?.pending ?? 0) >= n) return;
      if (Date.now() > deadline) throw new Error(`idea ${id} pairs with ${summary?.pending ?? 0} pending duplicates, not ${n}`);
      await Bun.sleep(200);
    }
  };
  const read = async (id: number) => (await api(server.base, shared!.key, "GET", `/ideas/${id}`)).body;
  const open = async (page: Page, id: number, title: string) => {
    await page.goto(`${server.base}/ideas/${id}`);
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
  };
  /** Types into an idea picker and chooses the option naming `title`. */
  const pick = async (page: Page, label: string, typed: string, title: string) => {
    await page.getByRole("combobox", { name: label }).fill(typed);
    await page.getByRole("option", { name: new RegExp(title) }).click();
  };

  test("edit title, body and tags in place: e opens the editor, the preview renders, Ctrl+Enter saves, Escape cancels", async () => {
    const pro = await proPage();
    const { page } = pro;
    const parent = await seed(pro.key, { title: "Bakery side projects" });
    const idea = await seed(pro.key, { title: "Sourdough timer", body: "first draft" });
    await open(page, idea.id, "Sourdough timer");
    await page.keyboard.press("e");
    await page.getByLabel("Title").fill("Sourdough starter timer");
    await page.getByLabel("Body", { exact: true }).fill("Feeds **twice** a day\n\n- flour\n- water");
    await page.getByRole("button", { name: "Preview" }).click();
    await page.getByLabel("Body preview").locator("strong", { hasText: "twice" }).waitFor();
    await page.getByRole("button", { name: "Write" }).click();
    await page.getByRole("button", { name: "Remove tag seeded" }).click();
    await page.getByRole("combobox", { name: "Tags" }).fill("baking, kitchen");
    await pick(page, "Parent idea", `#${parent.number}`, "Bakery side projects");
    await page.getByLabel("Body", { exact: true }).press("Control+Enter");
    await page.getByRole("heading", { level: 1, name: "Sourdough starter timer" }).waitFor();
    await page.getByRole("region", { name: "Body" }).locator("li", { hasText: "flour" }).waitFor();
    const saved = await read(idea.id);
    expect(saved.title).toBe("Sourdough starter timer");
    expect(saved.body).toBe("Feeds **twice** a day\n\n- flour\n- water");
    expect([...saved.tags].sort()).toEqual(["baking", "kitchen"]);
    expect(saved.parent_id).toBe(parent.id);
    await page.getByRole("complementary", { name: "Details" }).getByRole("link", { name: `#${parent.number} Bakery side projects` }).waitFor();

    // Escape throws the edit away (nothing sent); the toast's Undo brings the typed text back.
    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Title").fill("Not this title");
    await page.getByLabel("Title").press("Escape");
    await page.getByText("Edit discarded").waitFor();
    expect((await read(idea.id)).title).toBe("Sourdough starter timer");
    await page.getByRole("button", { name: "Undo" }).click();
    expect(await page.getByLabel("Title").inputValue()).toBe("Not this title");
    await page.getByRole("button", { name: "Cancel" }).click();
    expectClean(pro);
  }, 45_000);

  test("status moves at once and Undo restores the previous status", async () => {
    const pro = await proPage();
    const { page } = pro;
    const idea = await seed(pro.key, { title: "Garden irrigation plan" });
    await open(page, idea.id, "Garden irrigation plan");
    await page.getByLabel("Status").selectOption("building");
    await page.getByText("Status: building").waitFor();
    expect((await read(idea.id)).status).toBe("building");
    await page.getByRole("button", { name: "Undo" }).click();
    await page.getByText("Status back to captured").waitFor();
    expect((await read(idea.id)).status).toBe("captured");
    expect(await page.getByLabel("Status").inputValue()).toBe("captured");
    expectClean(pro);
  }, 45_000);

  test("a code-repo link is added with its type, then removed", async () => {
    const pro = await proPage();
    const { page } = pro;
    const idea = await seed(pro.key, { title: "Static site generator" });
    await open(page, idea.id, "Static site generator");
    await page.getByRole("button", { name: "Add link" }).click();
    await page.getByLabel("URL").fill("https://git.example.com/me/ssg");
    await page.getByLabel("Link title").fill("Repository");
    await page.getByLabel("Link type").selectOption("code-repo");
    await page.getByRole("form", { name: "Add a link" }).getByRole("button", { name: "Add link" }).click();
    await page.getByRole("link", { name: "Repository" }).waitFor();
    expect(await page.getByRole("link", { name: "Repository" }).getAttribute("rel")).toContain("noopener");
    const links = (await api(server.base, pro.key, "GET", `/ideas/${idea.id}/links`)).body.links;
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ url: "https://git.example.com/me/ssg", title: "Repository", link_type: "code-repo" });
    await page.getByRole("button", { name: "Remove link Repository" }).click();
    await page.getByText("No links.").waitFor();
    expect((await api(server.base, pro.key, "GET", `/ideas/${idea.id}/links`)).body.links).toEqual([]);
    expectClean(pro);
  }, 45_000);

  test("relate two ideas with blocks; the reverse blocks shows the API's refusal sentence and creates nothing", async () => {
    const pro = await proPage();
    const { page } = pro;
    const a = await seed(pro.key, { title: "Alpha migration tool" });
    const b = await seed(pro.key, { title: "Bravo schema registry" });
    await open(page, a.id, "Alpha migration tool");
    await page.getByRole("button", { name: "Add relation" }).click();
    await page.getByLabel("Relation type").selectOption("blocks");
    await pick(page, "Other idea", "Bravo", "Bravo schema registry");
    await page.getByLabel("Note").fill("registry first");
    await page.getByRole("form", { name: "Add a relation" }).getByRole("button", { name: "Add relation" }).click();
    await page.getByRole("form", { name: "Add a relation" }).waitFor({ state: "detached" });
    await page.getByRole("region", { name: "Relations" }).getByRole("listitem").filter({ hasText: "registry first" })
      .getByRole("link", { name: `#${b.number} Bravo schema registry` }).waitFor();
    const out = (await api(server.base, pro.key, "GET", `/ideas/${a.id}/relations`)).body.outgoing;
    expect(out.filter((r: any) => r.created_by === "user")).toMatchObject([{ relation_type: "blocks", idea_id: b.id, note: "registry first" }]);

    await open(page, b.id, "Bravo schema registry");
    await page.getByRole("button", { name: "Add relation" }).click();
    await page.getByLabel("Relation type").selectOption("blocks");
    await pick(page, "Other idea", `#${a.number}`, "Alpha migration tool");
    // A cycle on purpose: the API's 400 sentence is what the page must show; Chromium logs the 400.
    allowConsole(pro, /status of 400 .*\/api\/v1\/map\/relations\)/);
    await page.getByRole("form", { name: "Add a relation" }).getByRole("button", { name: "Add relation" }).click();
    const sentence = `This would create a circular blocking chain: #${b.id} → #${a.id} → #${b.id}`;
    await page.getByRole("alert").filter({ hasText: sentence }).waitFor();
    expect(await page.getByRole("button", { name: "Create anyway" }).count()).toBe(0); // blocks: force does not apply
    // The same request through the API is refused with exactly those words, and nothing was created.
    const again = await api(server.base, pro.key, "POST", "/map/relations", { source_idea_id: b.id, target_idea_id: a.id, relation_type: "blocks" });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(sentence);
    const bOut = (await api(server.base, pro.key, "GET", `/ideas/${b.id}/relations`)).body.outgoing;
    expect(bOut.filter((r: any) => r.created_by === "user")).toEqual([]);
    expectClean(pro);
  }, 45_000);

  test("a supersedes cycle is refused with the hint, and 'Create anyway' creates it", async () => {
    const pro = await proPage();
    const { page } = pro;
    const a = await seed(pro.key, { title: "Charlie notebook v2" });
    const b = await seed(pro.key, { title: "Delta notebook v1" });
    const first = await api(server.base, pro.key, "POST", "/map/relations", { source_idea_id: a.id, target_idea_id: b.id, relation_type: "supersedes" });
    expect(first.status).toBe(201);
    await open(page, b.id, "Delta notebook v1");
    await page.getByRole("button", { name: "Add relation" }).click();
    await page.getByLabel("Relation type").selectOption("supersedes");
    await pick(page, "Other idea", "Charlie", "Charlie notebook v2");
    // A cycle on purpose: the API's 400 (with its hint) is what the page must show; Chromium logs the 400.
    allowConsole(pro, /status of 400 .*\/api\/v1\/map\/relations\)/);
    await page.getByRole("form", { name: "Add a relation" }).getByRole("button", { name: "Add relation" }).click();
    await page.getByRole("alert").filter({ hasText: `This would create a circular blocking chain: #${b.id} → #${a.id} → #${b.id}` }).waitFor();
    await page.getByRole("button", { name: "Create anyway" }).click();
    await page.getByRole("form", { name: "Add a relation" }).waitFor({ state: "detached" });
    const bOut = (await api(server.base, pro.key, "GET", `/ideas/${b.id}/relations`)).body.outgoing;
    expect(bOut.filter((r: any) => r.created_by === "user")).toMatchObject([{ relation_type: "supersedes", idea_id: a.id }]);
    // Removing it is DELETE /map/relations/:id.
    // Both rows name Charlie (b → a under "From this idea", first; a → b under "To this idea"): wait until the new
    // outgoing row has rendered too, or .first() could be the incoming one.
    const removeButtons = page.getByRole("button", { name: `Remove relation supersedes #${a.number} Charlie notebook v2` });
    await removeButtons.nth(1).waitFor();
    await removeButtons.first().click();
    await page.getByText("Relation removed").waitFor();
    const after = (await api(server.base, pro.key, "GET", `/ideas/${b.id}/relations`)).body;
    expect([...after.outgoing, ...after.incoming].filter((r: any) => r.created_by === "user" && r.relation_type === "supersedes")).toHaveLength(1); // a → b stays
    expect(after.outgoing.filter((r: any) => r.created_by === "user")).toEqual([]);
    expectClean(pro);
  }, 45_000);

  test("merge another idea in through the picker: the absorbed idea is shelved and archived, the bodies joined", async () => {
    const pro = await proPage();
    const { page } = pro;
    const keep = await seed(pro.key, { title: "Echo reading list", body: "Books to read." });
    const absorb = await seed(pro.key, { title: "Foxtrot book notes", body: "Notes per chapter.", tags: ["books"] });
    await open(page, keep.id, "Echo reading list");
    await page.getByRole("button", { name: "Merge an idea into this…" }).click();
    await pick(page, "Idea to merge in", `#${absorb.number}`, "Foxtrot book notes");
    await page.getByText("archived permanently").waitFor();
    expect(await a11yViolations(page)).toEqual([]);
    await page.getByRole("button", { name: `Merge and archive #${absorb.number}` }).click();
    await page.getByRole("region", { name: "Body" }).getByText("Notes per chapter.").waitFor();
    const kept = await read(keep.id);
    expect(kept.body).toBe("Books to read.\n\n---\n\nNotes per chapter.");
    expect(kept.tags).toContain("books");
    const gone = await read(absorb.id);
    expect(gone.is_archived).toBe(1);
    expect(gone.status).toBe("shelved");
    expectClean(pro);
  }, 45_000);

  test("archive asks first, then the page turns read-only with the archived banner", async () => {
    const pro = await proPage();
    const { page } = pro;
    const idea = await seed(pro.key, { title: "Golf score tracker" });
    await open(page, idea.id, "Golf score tracker");
    await page.getByRole("button", { name: "Archive…" }).click();
    const dialog = page.getByRole("dialog", { name: `Archive #${idea.number}?` });
    await dialog.getByText("Archiving is permanent").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await read(idea.id)).is_archived).toBe(0);
    await page.getByRole("button", { name: "Archive…" }).click();
    await dialog.getByRole("button", { name: "Archive permanently" }).click();
    await page.getByText("This idea is archived.").waitFor();
    expect((await read(idea.id)).is_archived).toBe(1);
    expect(await page.getByRole("button", { name: "Edit" }).count()).toBe(0);
    expect(await page.getByLabel("Status").count()).toBe(0);
    expectClean(pro);
  }, 45_000);

  test("a pending duplicate shows 'Looks like #n' with links to the other idea and to Review; the rest on request", async () => {
    const pro = await proPage();
    const { page } = pro;
    const text = "Water the tomato plants automatically with a soil moisture sensor and a small pump";
    const older = await seed(pro.key, { title: "Automatic tomato watering", body: text });
    const middle = await seed(pro.key, { title: "Automatic tomato watering", body: text });
    const newer = await seed(pro.key, { title: "Automatic tomato watering", body: text });
    await waitForQuiescence(server.dataDir, 60_000, server.base);
    await duplicatesOf(pro.key, newer.id, 2);
    const dups = (await api(server.base, pro.key, "GET", `/ideas/duplicates?idea_ids=${newer.id}`)).body.duplicates;
    expect(dups.map((d: any) => d.duplicate_of_id).sort(), JSON.stringify(dups)).toEqual([older.id, middle.id].sort());
    // The page reads only the summary (the count and the closest one) until the person asks for all of them.
    const asked: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().includes("/api/v1/ideas/duplicates")) asked.push(new URL(r.url()).pathname);
    };
    page.on("request", onRequest);
    try {
      await open(page, newer.id, "Automatic tomato watering");
      const notice = page.getByRole("note").filter({ hasText: "Looks like" });
      await notice.getByRole("link", { name: /^#\d+ Automatic tomato watering$/ }).waitFor();
      expect(await notice.getByRole("link", { name: /^#\d+ Automatic tomato watering$/ }).count()).toBe(1);
      expect(await notice.getByRole("link", { name: "Review duplicates" }).getAttribute("href")).toBe("/review");
      expect(asked).toEqual(["/api/v1/ideas/duplicates/summary"]);
      await notice.getByRole("button", { name: "Show all 2" }).click();
      for (const other of [older, middle]) await notice.getByRole("link", { name: `#${other.number} Automatic tomato watering` }).waitFor();
      expect(await notice.getByRole("button", { name: /Show all/ }).count()).toBe(0);
      expect(asked).toEqual(["/api/v1/ideas/duplicates/summary", "/api/v1/ideas/duplicates"]);
      expect(await a11yViolations(page)).toEqual([]);
    } finally {
      page.off("request", onRequest);
    }
    expectClean(pro);
  }, 90_000);

  test("unknown and non-numeric ids get a friendly not-found page", async () => {
    const pro = await proPage();
    const { page } = pro;
    // Ids that do not exist, on purpose: the API's 404s are what the page turns into its not-found text, and Chromium
    // logs them ("abc" never reaches the API: the page knows it is not an id).
    allowConsole(pro, /status of 404 .*\/api\/v1\/ideas\/999999(\/relations|\/spec|\/wikilinks)?\)/);
    for (const path of ["/ideas/999999", "/ideas/abc"]) {
      await page.goto(server.base + path);
      await page.getByRole("heading", { level: 1, name: "Idea not found" }).waitFor();
      await page.getByRole("link", { name: "your ideas" }).waitFor();
    }
    expectClean(pro);
  }, 45_000);

  test("a Free account sees the plan-gate notice instead of the add-relation form", async () => {
    const free = await openSignedIn(web, server, "/ideas", { plan: "free" });
    const idea = await seed(free.key, { title: "Hotel booking helper" });
    await open(free.page, idea.id, "Hotel booking helper");
    await free.page.getByText("Relation editing requires a Pro plan.").waitFor();
    expect(await free.page.getByRole("button", { name: "Add relation" }).count()).toBe(0);
    // The rest of the page works as on Pro.
    await free.page.getByLabel("Status").selectOption("exploring");
    await free.page.getByText("Status: exploring").waitFor();
    expect((await api(server.base, free.key, "GET", `/ideas/${idea.id}`)).body.status).toBe("exploring");
    expect(await a11yViolations(free.page)).toEqual([]);
    expectClean(free);
  }, 45_000);

  test("hostile content renders inert: no dialog, no script, iframe or image, no javascript: link, nothing fetched", async () => {
    const o = await proPage();
    const dialogs: string[] = [];
    o.page.on("dialog", (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });
    const title = "<img src=x onerror=alert(1)>";
    const body = [
      "<script>alert(1)</script>",
      "[click](javascript:alert(1))",
      '<iframe src="https://example.com"></iframe>',
      '<a href="javascript:alert(2)">x</a>',
      "![x](http://10.0.0.1/pixel.png)",
    ].join("\n\n");
    const idea = await seed(o.key, { title, body, source_url: "https://example.com/from" });
    await o.page.goto(`${server.base}/ideas/${idea.id}`);
    await o.page.getByRole("heading", { level: 1 }).getByText(title, { exact: true }).waitFor();
    const rendered = o.page.getByRole("region", { name: "Body" });
    await rendered.getByText("<script>alert(1)</script>").waitFor(); // raw HTML shows as text
    for (const tag of ["script", "iframe", "img", "[onerror]", "a[href^='javascript']"]) expect(await rendered.locator(tag).count()).toBe(0);
    expect(await o.page.locator("img[onerror], img[src='x']").count()).toBe(0);
    expect(await rendered.getByRole("link", { name: "click" }).count()).toBe(0);
    await rendered.getByText("click").first().waitFor();
    // The image became a link to its address, never loaded.
    expect(await rendered.getByRole("link", { name: /x/ }).last().getAttribute("href")).toBe("http://10.0.0.1/pixel.png");
    await o.page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    expect(await o.page.evaluate(() => document.title)).toContain(title);
    expect(await a11yViolations(o.page)).toEqual([]);
    expectClean(o);
  }, 45_000);

  test("looks: a full idea with relations, links and possible duplicates, desktop, phone and dark; accessible in every state", async () => {
    const o = await proPage();
    const note = {
      title: "Offline-first field notes app",
      body: "Capture notes **without signal** and sync later.\n\n## Why\n\n- Hikers lose coverage\n- Paper gets wet\n\n```\nsync: last-writer-wins per field\n```",
    };
    // The same note captured twice before: the page's notice names the closest and offers "Show all 2".
    for (let i = 0; i < 2; i++) await seed(o.key, note);
    const main = await seed(o.key, { ...note, tags: ["mobile", "sync", "outdoors"], source: "web", source_url: "https://forum.example.org/t/123" });
    const other = await seed(o.key, { title: "Conflict-free sync library", body: "CRDT experiments" });
    const third = await seed(o.key, { title: "Trail map tiles cache" });
    await api(server.base, o.key, "POST", "/map/relations", { source_idea_id: main.id, target_idea_id: other.id, relation_type: "blocks", note: "needs the sync core first" });
    await api(server.base, o.key, "POST", "/map/relations", { source_idea_id: third.id, target_idea_id: main.id, relation_type: "inspires" });
    await api(server.base, o.key, "POST", `/ideas/${main.id}/links`, { url: "https://git.example.com/notes", title: "Prototype repo", link_type: "code-repo" });
    await waitForQuiescence(server.dataDir, 60_000, server.base);
    await duplicatesOf(o.key, main.id, 2);
    await o.page.goto(`${server.base}/ideas/${main.id}`);
    await o.page.getByRole("link", { name: /Conflict-free sync library/ }).first().waitFor();
    await o.page.getByRole("note").filter({ hasText: "Looks like" }).getByRole("button", { name: "Show all 2" }).waitFor();
    expect(await a11yViolations(o.page)).toEqual([]);
    await screenshot(o.page, "idea-desktop");
    await o.page.getByRole("button", { name: "Add relation" }).click();
    await o.page.getByRole("combobox", { name: "Other idea" }).fill("Trail");
    await o.page.getByRole("option", { name: /Trail map tiles cache/ }).waitFor();
    expect(await a11yViolations(o.page)).toEqual([]);
    await o.page.getByRole("button", { name: "Cancel" }).click();
    await o.page.keyboard.press("e");
    await o.page.getByLabel("Title").waitFor();
    expect(await a11yViolations(o.page)).toEqual([]);
    await o.page.keyboard.press("Escape");
    await o.page.setViewportSize(VIEWPORTS.phone);
    await screenshot(o.page, "idea-phone");
    const dark = await web.open(server.base, `/ideas/${main.id}`, { colorScheme: "dark" });
    await signIn(dark.page, o.email, "correct horse battery");
    await dark.page.getByRole("link", { name: /Conflict-free sync library/ }).first().waitFor();
    await dark.page.getByRole("button", { name: "Show all 2" }).waitFor();
    expect(await a11yViolations(dark.page)).toEqual([]);
    await screenshot(dark.page, "idea-dark");
    expectClean(o);
    expectClean(dark);
  }, 90_000);
});
