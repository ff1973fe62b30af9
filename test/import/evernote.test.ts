// Evernote .enex: ENML → Markdown (paragraphs, lists, both checkbox styles, links, bold/italic), tags, ENEX dates, resources.
import { describe, expect, test } from "bun:test";
import { evernoteReader, enexDate } from "../../src/modules/import/sources/evernote";
import { htmlToMarkdown } from "../../src/modules/import/sources/html-to-markdown";
import { fixtureFiles, inputOf, readAll } from "./source-fixtures";

const files = fixtureFiles("evernote");
const enc = (s: string) => new TextEncoder().encode(s);

describe("Evernote reader", () => {
  test("detects .enex files", async () => {
    expect(await evernoteReader.detect(inputOf("n.enex", files))).toBe(true);
    expect(await evernoteReader.detect(inputOf("k.json", fixtureFiles("karakeep")))).toBe(false);
  });

  test("a note's ENML becomes Markdown; tags, dates and source-url are kept; the resource is listed as skipped", async () => {
    const { byTitle, skipped } = await readAll(evernoteReader, inputOf("n.enex", files));
    const n = byTitle("Garden & greenhouse plan");
    expect(n.body).toBe([
      "Build a **small** greenhouse from *old windows*.",
      "",
      "- [x] Collect windows\n- [ ] Pour the base",
      "",
      "- Tomatoes\n- Peppers\n  - Hot ones",
      "",
      "1. Measure\n2. Cut",
      "",
      "Guide: [windows greenhouse](https://diy.example.org/greenhouse?step=1&lang=en)\n**Budget**: 5 \\* 20 = 100",
    ].join("\n"));
    expect(n.tags).toEqual(["garden", "projects/2024"]);
    expect(n.created_at!.toISOString()).toBe("2024-01-02T03:04:05.000Z");
    expect(n.updated_at!.toISOString()).toBe("2024-01-05T10:15:00.000Z");
    expect(n.links).toContainEqual({ url: "https://plants.example.com/greenhouse", title: "Source" });
    expect(n.links).toContainEqual({ url: "https://diy.example.org/greenhouse?step=1&lang=en", title: "windows greenhouse" });
    expect(skipped).toEqual([{ skipped: "My Notebook.enex: Garden & greenhouse plan → windows.jpg", reason: "attachment (image/jpeg) not imported" }]);
  });

  test("Evernote 10 checklists; encrypted text is reported, never imported; entities decoded as text", async () => {
    const { byTitle } = await readAll(evernoteReader, inputOf("n.enex", files));
    const n = byTitle("Checklist, Evernote 10 style");
    expect(n.body).toStartWith("- [x] Write the outline\n- [ ] Ask \\<Kim> for review");
    expect(n.body).not.toContain("RU5DMI");
    expect(n.problems).toEqual(["encrypted text is not imported"]);
  });

  test("two notes created in the same second get distinct origins", async () => {
    const { notes } = await readAll(evernoteReader, inputOf("n.enex", files));
    expect(new Set(notes.map((n) => n.origin)).size).toBe(3);
  });

  test("a large .enex is read note by note (notes split across decode chunks arrive whole)", async () => {
    const filler = "x".repeat(300_000);
    const note = (i: number) => `<note><title>N${i}</title><created>20240101T000000Z</created><content><![CDATA[<en-note><div>${i} ${filler}</div></en-note>]]></content></note>`;
    const xml = `<?xml version="1.0"?><en-export>${Array.from({ length: 12 }, (_, i) => note(i)).join("\n")}</en-export>`;
    const { notes } = await readAll(evernoteReader, inputOf("big.enex", { "big.enex": enc(xml) }));
    expect(notes.map((n) => n.title)).toEqual(Array.from({ length: 12 }, (_, i) => `N${i}`));
    expect(notes.every((n, i) => n.body.startsWith(`${i} x`) && n.body.length === String(i).length + 1 + filler.length)).toBe(true);
  });

  test("ENEX dates", () => {
    expect(enexDate("20240102T030405Z")!.toISOString()).toBe("2024-01-02T03:04:05.000Z");
    expect(enexDate("2024-01-02")).toBeUndefined();
  });

  test("the converter keeps user text as text: markup characters escaped, tags dropped, scripts gone", () => {
    const r = htmlToMarkdown('<div># not a heading</div><div>*stars* and <script>alert(1)</script>&lt;b&gt;</div><p><a href="javascript:alert(1)">click</a></p>');
    expect(r.markdown).toBe("\\# not a heading\n\\*stars\\* and \\<b>\n\nclick");
  });

  test("an unknown named reference stays as written, also one named like an Object member", () => {
    expect(htmlToMarkdown("<div>&constructor; &unknown; &copy;</div>").markdown).toBe("&constructor; &unknown; ©");
  });
});

describe("Evernote reader: several notebooks", () => {
  test("with more than one .enex, each note is tagged with its notebook (the file's name); with one, not", async () => {
    const enex = (title: string) => enc(`<en-export><note><title>${title}</title><created>20240101T000000Z</created><content><![CDATA[<en-note>x</en-note>]]></content><tag>own</tag></note></en-export>`);
    const two = await readAll(evernoteReader, inputOf("all.zip", { "Work.enex": enex("A"), "Home & Garden.enex": enex("B") }));
    expect(two.notes.map((n) => n.tags)).toEqual([["own", "Work"], ["own", "Home & Garden"]]);
    const one = await readAll(evernoteReader, inputOf("Work.enex", { "Work.enex": enex("A") }));
    expect(one.notes[0].tags).toEqual(["own"]);
  });
});
