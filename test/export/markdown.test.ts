// POST /user/export/markdown: a ZIP vault of NNNN-slug.md files whose front matter reads back exactly and whose
// wiki-links resolve to the other files.
import { afterAll, describe, expect, test } from "bun:test";
import { parse as parseYaml } from "yaml";
import { makeApp, makeUser } from "../helpers";
import { archiveIdea, seedIdea, seedIdeas, seedLink, seedRelation, tagIdea } from "../fixtures/seed";
import { postRaw, unzipText } from "./helpers";

const t = makeApp({ now: "2026-11-22T10:00:00Z" });
afterAll(() => t.close());

function splitFile(text: string) {
  const m = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error("no front matter:\n" + text);
  return { meta: parseYaml(m[1]), rest: m[2] };
}

async function exportVault(u: Awaited<ReturnType<typeof makeUser>>) {
  const r = await postRaw(t, "/user/export/markdown", u);
  expect(r.status).toBe(200);
  return { r, files: unzipText(r.bytes) };
}

describe("POST /user/export/markdown", () => {
  test("a ZIP attachment named with the date and -ideas-", async () => {
    const u = await makeUser(t);
    await seedIdea(t, u);
    const { r } = await exportVault(u);
    expect(r.headers.get("content-type")).toBe("application/zip");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="idearepo-ideas-2026-11-22.zip"');
    expect([...r.bytes.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });

  test("one NNNN-slug.md per idea; front matter fields; body; Links and Related sections", async () => {
    const u = await makeUser(t);
    const a = await seedIdea(t, u, { title: "Build a Bird Feeder!", body: "Wood.\n\n## Links\n\nnot the real section", status: "exploring", source: "web", created_at: "2026-02-01 08:00:00", updated_at: "2026-02-03 09:30:00" });
    const b = await seedIdea(t, u, { title: "Buy seeds" });
    await tagIdea(t, u.id, a, "garden");
    await tagIdea(t, u.id, a, "diy");
    await seedLink(t, a, { url: "https://wood.test/planks", title: "Planks", link_type: "url" });
    await seedLink(t, a, { url: "https://github.test/x", link_type: "code-repo" });
    await seedRelation(t, u, { source: a, target: b, type: "blocks", note: "first things first" });
    const { files } = await exportVault(u);
    const names = Object.keys(files).sort();
    expect(names).toEqual(["0001-build-a-bird-feeder.md", "0002-buy-seeds.md"]);
    const { meta, rest } = splitFile(files["0001-build-a-bird-feeder.md"]);
    expect(meta).toEqual({
      number: 1, title: "Build a Bird Feeder!", status: "exploring", source: "web", tags: ["diy", "garden"],
      created: "2026-02-01 08:00:00", updated: "2026-02-03 09:30:00",
    });
    expect(rest.startsWith("Wood.\n\n## Links\n\nnot the real section\n\n## Links\n")).toBe(true);
    expect(rest).toContain("- [Planks](<https://wood.test/planks>) `url`\n");
    expect(rest).toContain("- <https://github.test/x> `code-repo`\n");
    expect(rest).toContain("## Related\n\n- → blocks [[0002-buy-seeds]] — first things first\n");
    expect(files["0002-buy-seeds.md"]).toContain("- ← blocks [[0001-build-a-bird-feeder]] — first things first\n");
    expect(splitFile(files["0002-buy-seeds.md"]).meta.tags).toEqual([]);
  });

  test("front matter reads back exactly with a YAML parser for nasty titles", async () => {
    const u = await makeUser(t);
    const titles = [
      'He said "hi": then left',
      "it's #1 # not a comment",
      "- starts like a list",
      "--- looks like a fence",
      "...",
      "key: value",
      "[not, a, list]",
      "{not: a map}",
      "&anchor *alias !tag %directive @at `tick`",
      "? question | pipe > fold",
      "null",
      "true",
      "0x1F",
      "1e3",
      "~",
      " leading and trailing ",
      "back\\slash \\n not a newline",
      "tab\there",
      "Zürich café — 日本語 🚀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
      "del\u007fnel\u0085ls\u2028ps\u2029bom\ufeffend",
      "line\nbreak\r\nand\rcr",
    ];
    const ids = await seedIdeas(t, u, titles.length, (i) => ({ title: titles[i], tags: [titles[i].slice(0, 50)] }));
    const { files } = await exportVault(u);
    const byNumber = new Map(Object.entries(files).map(([name, text]) => [Number(name.slice(0, 4)), splitFile(text).meta]));
    for (const [i, title] of titles.entries()) {
      const number = ((await t.deps.store.query("SELECT number FROM ideas WHERE id = ?").get(ids[i])) as any).number;
      const meta = byNumber.get(number);
      expect(meta.title).toBe(title);
      expect(meta.tags).toEqual([title.slice(0, 50)]);
      expect(meta.number).toBe(number);
    }
  });

  test("wiki-links resolve to file names that exist in the ZIP, for every relation in both directions", async () => {
    const u = await makeUser(t);
    const titles = ["Über Idee", "", "!!!", "日本語のアイデア", "Same title", "Same title", "a".repeat(150), "हिंदी विचार", "ＦＵＬＬ ﬁle"];
    const ids = await seedIdeas(t, u, titles.length, (i) => ({ title: titles[i] || " " }));
    for (let i = 0; i < ids.length; i++) await seedRelation(t, u, { source: ids[i], target: ids[(i + 1) % ids.length], type: i % 2 ? "inspires" : "related" });
    await seedRelation(t, u, { source: ids[2], target: ids[5], type: "related", score: 0.77, by: "system" });
    const { files } = await exportVault(u);
    const stems = new Set(Object.keys(files).map((n) => n.replace(/\.md$/, "")));
    expect(stems.size).toBe(ids.length);
    expect([...stems]).toEqual(expect.arrayContaining(["0001-uber-idee", "0002-untitled", "0003-untitled", "0004-日本語のアイデア", "0005-same-title", "0006-same-title", "0007-" + "a".repeat(60), "0008-हिंदी-विचार", "0009-full-file"]));
    for (const name of Object.keys(files)) {
      expect(name).toMatch(/^\d{4,}-[\p{L}\p{M}\p{N}-]+\.md$/u);
      expect(name.length).toBeLessThanOrEqual(4 + 1 + 60 + 3);
    }
    let links = 0;
    for (const text of Object.values(files)) {
      for (const m of text.matchAll(/\[\[([^\]]+)\]\]/g)) {
        expect(stems.has(m[1])).toBe(true);
        links++;
      }
    }
    expect(links).toBe(2 * (ids.length + 1)); // every relation shows in both files
    expect(files["0003-untitled.md"]).toContain("- → related [[0006-same-title]] (auto, score 0.77)\n");
  });

  test("display numbers of five digits keep all digits", async () => {
    const u = await makeUser(t);
    await t.deps.store.query("UPDATE users SET idea_seq = 12344 WHERE id = ?").run(u.id);
    await seedIdea(t, u, { title: "Big number" });
    const { files } = await exportVault(u);
    expect(Object.keys(files)).toEqual(["12345-big-number.md"]);
  });

  test("archived ideas have no file and are never linked; another account's ideas never appear", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    const live = await seedIdea(t, u, { title: "Live" });
    const gone = await seedIdea(t, u, { title: "Gone" });
    await seedRelation(t, u, { source: live, target: gone });
    await archiveIdea(t, gone);
    await seedIdea(t, other, { title: "Foreign" });
    const { files } = await exportVault(u);
    expect(Object.keys(files)).toEqual(["0001-live.md"]);
    expect(files["0001-live.md"]).not.toContain("[[");
  });

  test("entries are UTF-8 named, deflated, and dated with the idea's updated_at", async () => {
    const u = await makeUser(t);
    await seedIdea(t, u, { title: "Zürich", body: "z".repeat(4000), updated_at: "2026-07-04 13:45:58" });
    const { r, files } = await exportVault(u);
    const v = new DataView(r.bytes.buffer, r.bytes.byteOffset);
    expect(v.getUint16(6, true) & 0x0800).toBe(0x0800); // UTF-8 names flag
    expect(v.getUint16(8, true)).toBe(8); // deflate
    const time = v.getUint16(10, true);
    const date = v.getUint16(12, true);
    expect([(date >> 9) + 1980, (date >> 5) & 15, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2]).toEqual([2026, 7, 4, 13, 45, 58]);
    expect(v.getUint32(18, true)).toBeLessThan(v.getUint32(22, true)); // compressed smaller than the text
    expect(Object.keys(files)).toEqual(["0001-zurich.md"]);
  });

  test("an empty account gets a valid empty ZIP", async () => {
    const u = await makeUser(t, { plan: "free" });
    const { files } = await exportVault(u);
    expect(files).toEqual({});
  });
});
