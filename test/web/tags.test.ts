// The tags page in a real browser: create (409 at the field), rename with the collision check, recolour, delete
// with the count it detaches from, and merging a similar tag by retagging its ideas in bulk; each checked via the API.
import { expect, test } from "bun:test";
import { api, listAllIdeas, waitForQuiescence } from "../ops/harness";
import { a11yViolations, allowConsole, describeBrowser, expectClean, openSignedIn, screenshot, webScope, VIEWPORTS } from "./harness";

const MANY = 55; // more than one bulk call (50 ids each)

describeBrowser("tags page", () => {
  const web = webScope("idearepo-web-tags-");

  test("create, rename, recolour, delete with its count, and merge a similar tag into another", async () => {
    const server = await web.server();
    const o = await openSignedIn(web, server, "/tags");
    const { page, key } = o;
    const capture = async (title: string, tags: string[]) => {
      const r = await api(server.base, key, "POST", "/ideas", { title, tags });
      expect(r.status).toBe(201);
      return r.body.id as number;
    };
    await capture("Raised beds for tomatoes", ["gardening", "recipes"]);
    await capture("Compost bin from pallets", ["gardening"]);
    await capture("Rainwater barrel", ["gardening"]);
    const soup = await capture("Nettle soup", ["obsolete", "recipes"]);
    const old = await capture("Old note", ["obsolete"]);
    await capture("Type-safe router", ["javascript"]);
    await capture("Bundle size budget", ["javascript"]);
    const both = await capture("Preact signals demo", ["js", "javascript"]);
    const jsOnly: number[] = [];
    for (let i = 0; i < MANY; i++) jsOnly.push(await capture(`Script idea ${i + 1}`, ["js"]));
    // Similar tags need the tags' embeddings, made by the real background pass.
    await waitForQuiescence(server.dataDir);
    await page.reload();
    const tagId = async (name: string) => ((await api(server.base, key, "GET", "/tags")).body.tags.find((t: any) => t.name === name))?.id as number | undefined;

    const list = page.getByRole("list", { name: "Tags" });
    await list.waitFor();
    expect(await page.getByRole("link", { name: "3 ideas tagged gardening" }).getAttribute("href")).toBe("/ideas?tag=gardening");
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "tags-desktop");

    // Create: an existing name is refused at the field (409); a new one appears. The 409 is the point (Chromium logs it).
    allowConsole(o, /status of 409 .*\/api\/v1\/tags\)/);
    await page.getByLabel("New tag").fill("gardening");
    await page.getByRole("button", { name: "Create tag" }).click();
    await page.getByText("Tag name already exists").waitFor();
    await page.getByLabel("New tag").fill("reading");
    await page.getByRole("button", { name: "Create tag" }).click();
    await page.getByRole("link", { name: "0 ideas tagged reading" }).waitFor();
    expect(await tagId("reading")).toBeNumber();

    // Rename: a name that exists is caught before the request (the API would answer 500) and a merge is offered.
    const recipesId = await tagId("recipes");
    await page.getByRole("button", { name: "Rename recipes" }).click();
    await page.getByLabel("New name for “recipes”").fill("gardening");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("A tag named “gardening” already exists.").waitFor();
    await page.getByRole("button", { name: "Merge “recipes” into “gardening” instead" }).waitFor();
    await page.getByLabel("New name for “recipes”").fill("cooking");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByRole("link", { name: "2 ideas tagged cooking" }).waitFor();
    expect(await tagId("cooking")).toBe(recipesId!);
    expect(await tagId("recipes")).toBeUndefined();

    // Recolour: the colour input gives #rrggbb, stored as is.
    await page.getByLabel("Colour of cooking").fill("#12ab34");
    await page.getByText("“cooking” is now #12ab34.").waitFor();
    expect((await api(server.base, key, "GET", "/tags")).body.tags.find((t: any) => t.name === "cooking").color).toBe("#12ab34");

    // Delete: the confirmation states how many ideas lose the tag; the tag is detached from them.
    await page.getByRole("button", { name: "Delete obsolete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete the tag “obsolete”?" });
    await dialog.getByText("It will be removed from 2 ideas").waitFor();
    await dialog.getByRole("button", { name: "Delete tag" }).click();
    await page.getByText("Deleted “obsolete”.").waitFor();
    expect(await tagId("obsolete")).toBeUndefined();
    expect((await api(server.base, key, "GET", `/ideas/${soup}`)).body.tags).toEqual(["cooking"]);
    expect((await api(server.base, key, "GET", `/ideas/${old}`)).body.tags).toEqual([]);

    // Merge: "javascript" is among the tags similar to "js"; merging retags every js idea in bulk, then deletes js.
    await page.getByRole("button", { name: "Similar to js" }).click();
    const similar = page.getByRole("list", { name: "Tags similar to js" });
    await similar.waitFor();
    await similar.getByRole("button", { name: "Merge “js” into “javascript”" }).click();
    const merge = page.getByRole("dialog", { name: "Merge “js” into another tag" });
    expect(await merge.getByLabel("Merge into").inputValue()).toBe("javascript");
    await merge.getByRole("button", { name: "Merge into “javascript”" }).click();
    await merge.getByText(`Done: ${MANY + 1} ideas retagged, “js” deleted.`).waitFor();
    expect(await merge.getByRole("progressbar", { name: "Merge progress" }).getAttribute("value")).toBe(String(MANY + 1));
    await merge.getByRole("button", { name: "Close" }).click();
    await page.getByRole("link", { name: `${MANY + 3} ideas tagged javascript` }).waitFor();
    expect(await tagId("js")).toBeUndefined();
    const ideas = await listAllIdeas(server.base, key);
    for (const id of [...jsOnly, both]) expect(ideas.find((i) => i.id === id).tags).toEqual(["javascript"]);

    await page.setViewportSize(VIEWPORTS.phone);
    await page.reload(); // without the stack of toasts
    await list.waitFor();
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "tags-phone");
    // The count opens the ideas list filtered by the tag.
    await page.getByRole("link", { name: "3 ideas tagged gardening" }).click();
    await page.waitForURL("**/ideas?tag=gardening");
    expectClean(o);
  }, 90_000);
});
