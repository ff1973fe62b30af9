// Karakeep JSON export: link/text/asset bookmarks, tags and lists, archived and favourited, note, createdAt in seconds.
import { describe, expect, test } from "bun:test";
import { karakeepReader } from "../../src/modules/import/sources/karakeep";
import { fixtureFiles, inputOf, readAll } from "./source-fixtures";

const files = fixtureFiles("karakeep");

describe("Karakeep reader", () => {
  test("detects its export and not a Keep folder", async () => {
    expect(await karakeepReader.detect(inputOf("karakeep-export.json", files))).toBe(true);
    expect(await karakeepReader.detect(inputOf("takeout.zip", fixtureFiles("keep")))).toBe(false);
  });

  test("a link bookmark: URL is a link, note/description/summary form the body, favourite → pinned, list → tag", async () => {
    const { notes } = await readAll(karakeepReader, inputOf("k.json", files));
    const n = notes.find((x) => x.origin === "bookmark:ieidlxygmwj87oxz5hxttoc8")!;
    expect(n.title).toBe("blog.example.com/posts/local-first");
    expect(n.links[0]).toEqual({ url: "https://blog.example.com/posts/local-first?utm=x", title: null });
    expect(n.body).toBe("Compare with our sync idea #sync\n\n> Why local-first software matters.\n\n**Summary:** Local-first keeps data on the device.");
    expect(n.tags).toEqual(["reading", "ai", "sync", "Project research"]);
    expect(n).toMatchObject({ pinned: true, archived: false });
    expect(n.created_at!.toISOString()).toBe("2024-05-01T10:00:00.000Z");
  });

  test("a text bookmark keeps its text and archived state", async () => {
    const { byTitle } = await readAll(karakeepReader, inputOf("k.json", files));
    expect(byTitle("Idea: tiny habit tracker")).toMatchObject({ body: "A habit tracker that lives in the menu bar.\nOne click per day.", archived: true, pinned: false });
  });

  test("an asset bookmark with no words is skipped; one with a title and note is kept and says what was lost", async () => {
    const { byTitle, skipped } = await readAll(karakeepReader, inputOf("k.json", files));
    expect(skipped).toEqual([{ skipped: "karakeep-export.json: bookmark z9y8x7w6v5u4t3s2r1q0pona", reason: "an image or PDF bookmark; its file is not in Karakeep's export" }]);
    const n = byTitle("Whiteboard photo");
    expect(n.body).toBe("The architecture sketch from Tuesday");
    expect(n.problems[0]).toContain("not in Karakeep's export");
  });

  test("older exports without ids get an origin from the creation time and URL", async () => {
    const { byTitle } = await readAll(karakeepReader, inputOf("k.json", files));
    expect(byTitle("From an old export").origin).toBe("bookmark:1700000000:https://old.example.net/");
  });

  test("a JSON that is not an export is skipped with a reason", async () => {
    const { notes, skipped } = await readAll(karakeepReader, inputOf("x.json", { "x.json": new TextEncoder().encode('{"items": []}') }));
    expect(notes).toEqual([]);
    expect(skipped[0].reason).toContain("no bookmarks list");
  });
});
