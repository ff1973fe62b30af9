// Notion "Markdown & CSV" ZIP: ids in names, nested folders, database rows with properties, links between pages.
import { describe, expect, test } from "bun:test";
import { notionDate, notionReader, notionStatus, parseCsv } from "../../src/modules/import/sources/notion";
import { fixtureFiles, inputOf, readAll } from "./source-fixtures";

const files = fixtureFiles("notion");
const ROOT = "Export-d609fb9f-43a4-475d-ba88-1db3e9e6bcd2";
const IDEAS = `${ROOT}/Ideas 3f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c`;
const DB = `${IDEAS}/Roadmap 0123456789abcdef0123456789abcdef`;

describe("Notion reader", () => {
  test("detects page names with Notion ids", async () => {
    expect(await notionReader.detect(inputOf("notion.zip", files))).toBe(true);
    expect(await notionReader.detect(inputOf("a.zip", fixtureFiles("apple-notes")))).toBe(false);
  });

  test("every page is a note titled by its heading; a plain page's 'Note: …' line is body, not a property", async () => {
    const { notes, byTitle } = await readAll(notionReader, inputOf("notion.zip", files));
    expect(notes.map((n) => n.title).sort()).toEqual(["Ideas", "Notes about ideas", "Rain sensor", 'Row with "quotes", no page', "Solar kettle"]);
    expect(byTitle("Ideas").body).toContain("Note: this first paragraph looks like a property");
    expect(byTitle("Ideas").body).not.toStartWith("# Ideas");
  });

  test("a database row: Tags → tags, Status → status, Created/Last edited → dates, URL property → link, others stay in the body", async () => {
    const { byTitle } = await readAll(notionReader, inputOf("notion.zip", files));
    const n = byTitle("Solar kettle");
    expect(n.tags).toEqual(["hardware", "energy", "outdoor/camping"]);
    expect(n.status).toBe("exploring");
    expect(n.created_at!.toISOString()).toBe("2024-01-02T15:04:00.000Z");
    expect(n.updated_at!.toISOString()).toBe("2024-02-10T09:30:00.000Z");
    expect(n.links).toContainEqual({ url: "https://kettle.example.com/spec", title: "Link" });
    expect(n.body).toStartWith("Owner: Sam Lee\n\nA kettle with a fold-out mirror.");
    expect(n.body).not.toContain("Status:");
  });

  test("links between pages, URL-encoded and relative (../ included), become related paths of the ZIP", async () => {
    const { byTitle } = await readAll(notionReader, inputOf("notion.zip", files));
    expect(byTitle("Solar kettle").related).toEqual(["notion:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "notion:3f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c"]);
    expect(byTitle("Ideas").related).toEqual(["notion:cccccccccccccccccccccccccccccccc"]);
    expect(byTitle("Notes about ideas").related).toEqual(["notion:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]);
    // Origins are the ids, so the references above name notes of this import.
    expect(byTitle("Rain sensor").origin).toBe("notion:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    expect(byTitle("Notes about ideas").links).toEqual([{ url: "https://en.wikipedia.org/wiki/Solar_cooker", title: "the wiki" }]);
  });

  test("an unknown status is reported and kept in the body; a row without a page comes from the _all CSV", async () => {
    const { byTitle, skipped } = await readAll(notionReader, inputOf("notion.zip", files));
    const rain = byTitle("Rain sensor");
    expect(rain.status).toBeUndefined();
    expect(rain.problems).toEqual(['Status "Waiting on parts" matches no idea status; left unset']);
    expect(rain.body).toStartWith("Status: Waiting on parts");
    expect(byTitle('Row with "quotes", no page')).toMatchObject({ status: "shipped", origin: 'notion:0123456789abcdef0123456789abcdef#Row with "quotes", no page' });
    expect(skipped).toEqual([{ skipped: `${IDEAS}/Notes about ideas cccccccccccccccccccccccccccccccc/diagram.png`, reason: "attachment not imported" }]);
  });

  test("a ZIP of ZIPs (Notion's split export) says what to do", async () => {
    const { skipped } = await readAll(notionReader, inputOf("outer.zip", { "Export-1-Part-1.zip": new Uint8Array([0x50, 0x4b, 3, 4]) }));
    expect(skipped[0].reason).toContain("unzip the outer file");
  });

  test("status words, dates and CSV quoting", () => {
    expect(["Not started", "In progress", "Building", "Done", "Cancelled", "Whatever"].map(notionStatus)).toEqual(["captured", "exploring", "building", "shipped", "shelved", undefined]);
    expect(notionDate("March 5, 2024")!.toISOString()).toBe("2024-03-05T00:00:00.000Z");
    expect(notionDate("2024-03-05T10:00:00.000Z")!.toISOString()).toBe("2024-03-05T10:00:00.000Z");
    expect(notionDate("not a date")).toBeUndefined();
    expect(parseCsv('a,"b, ""c""\nd"\r\n1,2\n')).toEqual([["a", 'b, "c"\nd'], ["1", "2"]]);
  });
});

describe("Notion reader: a database row exported on its own", () => {
  test("a block of property lines naming a known property is read without the CSV; prose after it stays", async () => {
    const page = "# My First Note\n\nCreated By: Johnny Cage\nLast Edited: July 20, 2023 12:00 PM\nCategory: personal\n\nThis is the body: with a colon.\n";
    const { notes } = await readAll(notionReader, inputOf("p.zip", { "My First Note 0123456789abcdef0123456789abcdef.md": new TextEncoder().encode(page) }));
    expect(notes[0]).toMatchObject({ title: "My First Note", tags: ["personal"], body: "Created By: Johnny Cage\n\nThis is the body: with a colon." });
    expect(notes[0].updated_at!.toISOString()).toBe("2023-07-20T12:00:00.000Z");
  });
});
