// The settings page's import section in a real browser: a dry run first, then Import; results checked through the API.
declare const document: any;
import { beforeAll, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { api } from "../ops/harness";
import { fixtureFiles } from "../import/source-fixtures";
import { a11yViolations, describeBrowser, expectClean, openSignedIn, webScope, type WebServer } from "./harness";

const keepZip = () => Buffer.from(zipSync(fixtureFiles("keep")));
const titles = async (base: string, key: string) =>
  ((await api(base, key, "GET", "/ideas?limit=100")).body.ideas as { title: string }[]).map((i) => i.title).sort();

describeBrowser("settings: import", () => {
  const web = webScope("idearepo-web-import-");
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server();
  });

  test("a Takeout ZIP: the dry run reports and writes nothing, Import writes, a second run finds nothing new", async () => {
    const o = await openSignedIn(web, server, "/settings#import");
    const { page, key } = o;
    await page.getByLabel("Export file").setInputFiles({ name: "takeout-keep.zip", mimeType: "application/zip", buffer: keepZip() });
    const dry = page.getByRole("region", { name: "Dry run: nothing written yet" });
    await dry.getByText("Would create 3 ideas").waitFor();
    await dry.getByText("Read as Google Keep").waitFor();
    await dry.getByText("in Keep's trash").waitFor();
    expect(await titles(server.base, key)).toEqual([]);
    expect(await a11yViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Import", exact: true }).click();
    const result = page.getByRole("region", { name: "Import result" });
    await result.getByText("Imported 3 ideas").waitFor();
    // "Trip ideas" was archived in Keep: imported, and archived, so the list leaves it out.
    expect(await titles(server.base, key)).toEqual(["A note without a title: its first line names it", "Shopping list"]);
    const shopping = (await api(server.base, key, "GET", "/ideas?limit=100")).body.ideas.find((i: { title: string }) => i.title === "Shopping list");
    expect(shopping.tags.sort()).toEqual(["errands/weekly", "home", "pinned"]); // pinned in Keep: the framework tags it
    expect(shopping.body).toContain("- [x] Coffee beans");

    // The same file again: nothing would be created, and importing adds no copies.
    await page.getByLabel("Export file").setInputFiles({ name: "takeout-keep.zip", mimeType: "application/zip", buffer: keepZip() });
    await dry.getByText("Would create 0 ideas").waitFor();
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await result.waitFor();
    expect(await titles(server.base, key)).toHaveLength(2);
    await result.getByText("3 notes already imported and unchanged").waitFor();
    expectClean(o);
    await o.context.close();
  }, 60_000);

  test("the source can be named; files that are not that source are listed as skipped and nothing is written", async () => {
    const o = await openSignedIn(web, server, "/settings#import");
    const { page, key } = o;
    await page.getByLabel("Source").selectOption({ label: "Evernote (.enex)" });
    await page.getByLabel("Export file").setInputFiles({ name: "notes.zip", mimeType: "application/zip", buffer: Buffer.from(zipSync({ "a.txt": strToU8("hello") })) });
    const dry = page.getByRole("region", { name: "Dry run: nothing written yet" });
    await dry.getByText("Would create 0 ideas").waitFor();
    await dry.getByText("Read as Evernote").waitFor();
    await dry.getByText("not an .enex file").waitFor();
    expect(await titles(server.base, key)).toEqual([]);
    expectClean(o);
    await o.context.close();
  }, 60_000);

  test("user text from the file is shown as text", async () => {
    const o = await openSignedIn(web, server, "/settings#import");
    const { page } = o;
    const evil = '<img src=x onerror="document.body.dataset.owned=1">.json';
    const karakeep = JSON.stringify({ bookmarks: [{ id: "b1", createdAt: 1714557600, title: null, tags: [], content: { type: "asset", assetId: "x" }, note: null }] });
    await page.getByLabel("Export file").setInputFiles({ name: evil, mimeType: "application/json", buffer: Buffer.from(karakeep) });
    await page.getByRole("region", { name: "Dry run: nothing written yet" }).getByText("its file is not in Karakeep's export").waitFor();
    expect(await page.evaluate(() => document.body.dataset.owned ?? null)).toBeNull();
    expectClean(o);
    await o.context.close();
  }, 60_000);
});
