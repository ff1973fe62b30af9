// POST /user/import with a Markdown vault ZIP: our own export round-trips; hand edits and extra notes are handled.
import { afterAll, describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { makeApp, makeUser } from "../helpers";
import { seedIdea, seedIdeas, seedRelation } from "../fixtures/seed";
import { postRaw, unzipText } from "../export/helpers";
import { count, exportJson, importZip, seedVariedAccount } from "./helpers";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

/** The fields a vault carries: no tag colours, link/relation timestamps, summaries or parents in Markdown. */
function vaultView(doc: any) {
  const titleOf = new Map<number, string>(doc.ideas.map((i: any) => [i.id, i.title]));
  return doc.ideas.map((i: any) => ({
    title: i.title, body: i.body, status: i.status, source: i.source, source_url: i.source_url,
    created_at: i.created_at, updated_at: i.updated_at, tags: i.tags,
    links: i.links.map((l: any) => ({ url: l.url, title: l.title, link_type: l.link_type })),
    relations: i.relations.map((r: any) => ({ type: r.relation_type, note: r.note, by: r.created_by, score: r.score, to: titleOf.get(r.target_idea_id) })),
  }));
}

const fmFile = (fm: string, body = "Body") => `---\n${fm}\n---\n\n${body}\n\n## Links\n\n\n## Related\n\n`;

describe("Markdown vault import", () => {
  test("export → import → export keeps what the vault carries", async () => {
    const src = await makeUser(t, { plan: "pro" });
    await seedVariedAccount(t, src);
    const zip = (await postRaw(t, "/user/export/markdown", src)).bytes;
    const dst = await makeUser(t, { plan: "pro" });
    const r = await importZip(t, dst, zip);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ imported: { ideas: 4, tags: 3, links: 3, relations: 6 }, skipped: { relations: 0, files: [] } });
    expect(vaultView(await exportJson(t, dst))).toEqual(vaultView(await exportJson(t, src)));
  });

  test("nasty titles survive the front matter both ways", async () => {
    const src = await makeUser(t, { plan: "pro" });
    const titles = ['a "quoted": title', "- dash", "#hash", "tab\tand\\backslash", "del\u007f nel\u0085 ls\u2028", "日本語 🚀", "null", "123"];
    const ids = await seedIdeas(t, src, titles.length, (i) => ({ title: titles[i], tags: [titles[i]] }));
    await seedRelation(t, src, { source: ids[0], target: ids[7], type: "blocks", note: "a]] (auto) — tricky note" });
    const dst = await makeUser(t, { plan: "pro" });
    const r = await importZip(t, dst, (await postRaw(t, "/user/export/markdown", src)).bytes);
    expect(r.body.imported.ideas).toBe(titles.length);
    const back = await exportJson(t, dst);
    expect(back.ideas.map((i: any) => i.title)).toEqual(titles);
    expect(back.ideas.map((i: any) => i.tags)).toEqual(titles.map((x) => [x]));
    expect(back.ideas[0].relations[0]).toMatchObject({ relation_type: "blocks", note: "a]] (auto) — tricky note", created_by: "user" });
  });

  test("Obsidian-style edits: plain scalars, flow lists, subfolders; foreign notes are skipped and named", async () => {
    const dst = await makeUser(t, { plan: "pro" });
    const zip = zipSync({
      "vault/0002-second.md": strToU8(fmFile('number: 2\ntitle: Second idea\nstatus: exploring\nsource: web\ntags: [alpha, beta]\ncreated: "2025-01-02 00:00:00"')),
      "vault/0001-first.md": strToU8(
        `---\nnumber: 1\ntitle: 'It''s first'\nstatus: captured\nsource: api\ntags:\n  - solo\ncreated: "2025-01-01 00:00:00"\nupdated: "2025-01-05 00:00:00"\n---\n\nHello\n\n## Links\n\n- [Site](<https://site.test>) \`url\`\n\n## Related\n\n- → inspires [[0002-second]] — see it\n- → blocks [[9999-missing]]\n`,
      ),
      "vault/README.md": strToU8("# My vault\nnot an idea"),
      "vault/.obsidian/app.json": strToU8("{}"),
      "__MACOSX/vault/._0001-first.md": strToU8("junk"),
    });
    const r = await importZip(t, dst, zip);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ imported: { ideas: 2, tags: 3, links: 1, relations: 1 }, skipped: { relations: 0, files: ["vault/README.md"] } });
    const doc = await exportJson(t, dst);
    expect(doc.ideas.map((i: any) => [i.number, i.title, i.status, i.tags, i.created_at, i.updated_at])).toEqual([
      [1, "It's first", "captured", ["solo"], "2025-01-01 00:00:00", "2025-01-05 00:00:00"],
      [2, "Second idea", "exploring", ["alpha", "beta"], "2025-01-02 00:00:00", "2025-01-02 00:00:00"],
    ]);
    expect(doc.ideas[0].body).toBe("Hello");
    expect(doc.ideas[0].relations).toEqual([expect.objectContaining({ relation_type: "inspires", note: "see it", target_idea_id: doc.ideas[1].id })]);
  });

  test("a file an editor converted to CRLF line endings still reads", async () => {
    const dst = await makeUser(t, { plan: "pro" });
    const text = fmFile('number: 1\ntitle: "crlf"\ntags:\n  - "x"', "line one\nline two").replace(/\n/g, "\r\n");
    const r = await importZip(t, dst, zipSync({ "0001-crlf.md": strToU8(text) }));
    expect(r.body.imported.ideas).toBe(1);
    const doc = await exportJson(t, dst);
    expect([doc.ideas[0].title, doc.ideas[0].body, doc.ideas[0].tags]).toEqual(["crlf", "line one\nline two", ["x"]]);
  });

  test("a bad value is reported by file name and nothing is written", async () => {
    const dst = await makeUser(t, { plan: "pro" });
    const zip = zipSync({
      "0001-ok.md": strToU8(fmFile('number: 1\ntitle: "ok"\nstatus: captured\nsource: api\ntags: []\ncreated: "2025-01-01 00:00:00"')),
      "0002-bad.md": strToU8(fmFile('number: 2\ntitle: "bad"\nstatus: done\nsource: api\ntags: []\ncreated: "yesterday"')),
    });
    const r = await importZip(t, dst, zip);
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      "0002-bad.md/status": ["status must be one of captured, exploring, building, shipped, shelved"],
      "0002-bad.md/created_at": ["must be a 'YYYY-MM-DD HH:MM:SS' timestamp"],
    });
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", dst.id)).toBe(0);
  });

  test("a ZIP is recognised by its bytes too; a broken one is 400", async () => {
    const dst = await makeUser(t, { plan: "pro" });
    const zip = zipSync({ "0001-x.md": strToU8(fmFile('number: 1\ntitle: "x"')) });
    expect((await importZip(t, dst, zip, "application/octet-stream")).status).toBe(201);
    const broken = await importZip(t, dst, strToU8("PK\x03\x04 definitely not a zip"));
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ error: "Invalid ZIP file" });
  });

  test("the Free cap applies to vaults as well", async () => {
    const u = await makeUser(t, { plan: "free" });
    const files: Record<string, Uint8Array> = {};
    for (let i = 1; i <= 51; i++) files[`${String(i).padStart(4, "0")}-n.md`] = strToU8(fmFile(`number: ${i}\ntitle: "n${i}"`));
    const r = await importZip(t, u, zipSync(files));
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: "idea_limit_reached", currentCount: 0, limit: 50 });
  });

  test("archived ideas stay out of the vault and so out of the import", async () => {
    const src = await makeUser(t, { plan: "pro" });
    await seedVariedAccount(t, src);
    const files = unzipText((await postRaw(t, "/user/export/markdown", src)).bytes);
    expect(Object.values(files).some((f) => f.includes("Archived one"))).toBe(false);
  });
});
