// Apple Notes exports (Markdown/HTML folders per account): folder → tag, Recently Deleted skipped, first line as title.
import { describe, expect, test } from "bun:test";
import { appleNotesReader } from "../../src/modules/import/sources/apple-notes";
import { fixtureFiles, inputOf, readAll } from "./source-fixtures";

const files = fixtureFiles("apple-notes");

describe("Apple Notes reader", () => {
  test("detects an export by its account folders, not a Notion export", async () => {
    expect(await appleNotesReader.detect(inputOf("notes.zip", files))).toBe(true);
    expect(await appleNotesReader.detect(inputOf("n.zip", fixtureFiles("notion")))).toBe(false);
  });

  test("folders below the account become tags; the default Notes folder and the ZIP's wrapper give none", async () => {
    const { byTitle } = await readAll(appleNotesReader, inputOf("notes.zip", files));
    expect(byTitle("Meeting timer").tags).toEqual(["Work/Projects"]);
    expect(byTitle("Sourdough starter").tags).toEqual(["Recipes"]);
    expect(byTitle("Groceries app").tags).toEqual(["shopping"]);
    expect(byTitle("Scanned receipt").tags).toEqual([]);
  });

  test("Recently Deleted is trash: never imported; attachments are listed", async () => {
    const { notes, skipped } = await readAll(appleNotesReader, inputOf("notes.zip", files));
    expect(notes.some((n) => n.title === "Gone")).toBe(false);
    expect(skipped).toContainEqual({ skipped: "Notes Export/iCloud/Recently Deleted/Gone.md", reason: "in Recently Deleted (Apple Notes' trash)" });
    expect(skipped).toContainEqual({ skipped: "Notes Export/iCloud/Work/Projects/sketch.jpeg", reason: "attachment not imported" });
  });

  test("the first line is the title and is not repeated in the body; front matter gives title and dates", async () => {
    const { byTitle } = await readAll(appleNotesReader, inputOf("notes.zip", files));
    expect(byTitle("Groceries app").body).toBe("A shared list that sorts itself by the shop's aisles. #shopping\nLike https://aisles.example.com but offline.");
    const m = byTitle("Meeting timer");
    expect(m.body).toStartWith("A timer that shows **cost per minute** of a meeting.");
    expect(m.created_at!.toISOString()).toBe("2023-11-02T09:15:00.000Z");
    expect(m.updated_at!.toISOString()).toBe("2024-01-20T17:45:10.000Z");
  });

  test("HTML notes are converted; the file date stands in for a missing modification date", async () => {
    const { byTitle } = await readAll(appleNotesReader, inputOf("notes.zip", files));
    const s = byTitle("Sourdough starter");
    expect(s.body).toBe("Feed it **twice** a day.\n\n- Flour\n- Water\n\n[Guide](https://bread.example.com/starter)");
    expect(s.links).toEqual([{ url: "https://bread.example.com/starter", title: "Guide" }]);
    expect(s.problems).toEqual(["1 image or attachment not imported"]);
    expect(s.updated_at!.toISOString()).toBe("2024-06-01T00:00:00.000Z");
  });

  test("invalid UTF-8 is imported with replacement characters and said so", async () => {
    const { notes } = await readAll(appleNotesReader, inputOf("notes.zip", files));
    const n = notes.find((x) => x.origin.endsWith("Latin1 note.txt"))!;
    expect(n.problems).toContain("not valid UTF-8: unreadable bytes were replaced with �");
    expect(n.body).toBe("Second line");
  });
});

describe("Apple Notes reader: note ids", () => {
  test("a front-matter id is the origin, so a renamed or moved note keeps its idea; without one the path is", async () => {
    const note = (fm: string) => new TextEncoder().encode(`---\n${fm}\n---\nTitle\nBody\n`);
    const { notes } = await readAll(appleNotesReader, inputOf("n.zip", {
      "iCloud/Ideas/Renamed title.md": note('id: "x-coredata://ABC/ICNote/p42"\ntitle: Renamed title'),
      "iCloud/Ideas/Plain.md": note("title: Plain"),
    }));
    expect(notes.map((n) => n.origin)).toEqual(["apple-notes:x-coredata://ABC/ICNote/p42", "iCloud/Ideas/Plain.md"]);
  });
});
