// Google Keep (Takeout JSON): checklists, labels, trash, archive/pin, microsecond timestamps, annotations and attachments.
import { describe, expect, test } from "bun:test";
import { keepReader } from "../../src/modules/import/sources/keep";
import { fixtureFiles, inputOf, readAll } from "./source-fixtures";

const files = fixtureFiles("keep");

describe("Keep reader", () => {
  test("detects a Takeout Keep folder and not a Karakeep export", async () => {
    expect(await keepReader.detect(inputOf("takeout.zip", files))).toBe(true);
    expect(await keepReader.detect(inputOf("k.zip", fixtureFiles("karakeep")))).toBe(false);
  });

  test("one note per JSON file; HTML copies and Labels.txt are not notes; trashed notes are skipped", async () => {
    const { notes, skipped } = await readAll(keepReader, inputOf("takeout.zip", files));
    expect(notes.map((n) => n.title).sort()).toEqual(["A note without a title: its first line names it", "Shopping list", "Trip ideas"]);
    expect(skipped).toContainEqual({ skipped: "Takeout/Keep/Old note.json", reason: "in Keep's trash" });
    expect(notes.some((n) => n.body.includes("Thrown away"))).toBe(false);
  });

  test("checklists become task lists; labels become tags (nested kept); pinned and timestamps mapped", async () => {
    const { byTitle } = await readAll(keepReader, inputOf("takeout.zip", files));
    const n = byTitle("Shopping list");
    expect(n.body).toBe("- [ ] Oat milk\n- [x] Coffee beans\n- [ ] Bread rye");
    expect(n.tags).toEqual(["home", "errands/weekly"]);
    expect(n).toMatchObject({ pinned: true, archived: false, origin: "keep:1704153600000000" });
    expect(n.created_at!.toISOString()).toBe("2024-01-02T00:00:00.000Z");
    expect(n.updated_at!.toISOString()).toBe("2024-01-02T03:04:05.123Z");
  });

  test("archived note: text URLs and annotations become links; its attachment is listed as skipped", async () => {
    const { byTitle, skipped } = await readAll(keepReader, inputOf("takeout.zip", files));
    const n = byTitle("Trip ideas");
    expect(n.archived).toBe(true);
    expect(n.links).toEqual([
      { url: "https://cabins.example.com/lake-42", title: null },
      { url: "https://ferry.example.org/timetable", title: "Island Ferries" },
    ]);
    expect(skipped.find((s) => s.skipped.includes("1f6c2a9e3b"))?.reason).toContain("attachment (image/png)");
  });

  test("a note without a title is named by its first line", async () => {
    const { notes } = await readAll(keepReader, inputOf("takeout.zip", files));
    const n = notes.find((x) => x.origin === "keep:1709629872123000")!;
    expect(n.title).toBe("A note without a title: its first line names it");
    expect(n.body).toContain("and a second line.");
  });

  test("broken JSON is skipped with the reason, the other notes still read", async () => {
    const { notes, skipped } = await readAll(keepReader, inputOf("t.zip", { ...files, "Takeout/Keep/Broken.json": new TextEncoder().encode('{"title": "x", ') }));
    expect(notes.length).toBe(3);
    expect(skipped.find((s) => s.skipped === "Takeout/Keep/Broken.json")?.reason).toMatch(/^not valid JSON/);
  });
});
