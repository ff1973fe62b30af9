// POST /user/import with Markdown folders, Obsidian vaults, Logseq graphs and Basic Memory projects: what maps to what,
// re-imports that update instead of copying, dry runs that write nothing, sources named or detected.
import { afterAll, describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { count, exportJson, importBody } from "./helpers";
import { fixtureFiles } from "./source-fixtures";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

/** ZIP entry dates are DOS wall-clock times; the reader reads them as UTC, so this local time reads back as noon UTC. */
const ZIP_DATE = new Date(2024, 5, 1, 12, 0, 0);
const ZIP_STAMP = "2024-06-01 12:00:00";
const zipFolder = (files: Record<string, Uint8Array>) => zipSync(files, { mtime: ZIP_DATE });

const byTitle = (doc: any, title: string) => doc.ideas.find((i: any) => i.title === title);
const relatedTitles = (doc: any, title: string) => {
  const titleOf = new Map<number, string>(doc.ideas.map((i: any) => [i.id, i.title]));
  const id = byTitle(doc, title).id;
  return doc.ideas.flatMap((i: any) => i.relations)
    .filter((r: any) => r.source_idea_id === id || r.target_idea_id === id)
    .map((r: any) => titleOf.get(r.source_idea_id === id ? r.target_idea_id : r.source_idea_id)).sort();
};
const tableCounts = async (u: TestUser) => ({
  ideas: await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", u.id),
  tags: await count(t, "SELECT count(*) AS n FROM tags WHERE user_id = ?", u.id),
  links: await count(t, "SELECT count(*) AS n FROM links l JOIN ideas i ON i.id = l.idea_id WHERE i.user_id = ?", u.id),
  relations: await count(t, "SELECT count(*) AS n FROM relations WHERE user_id = ?", u.id),
  jobs: await count(t, "SELECT count(*) AS n FROM jobs j JOIN ideas i ON i.id = j.idea_id WHERE i.user_id = ?", u.id),
  origins: await count(t, "SELECT count(*) AS n FROM import_origins WHERE user_id = ?", u.id),
  seq: await count(t, "SELECT idea_seq AS n FROM users WHERE id = ?", u.id),
});

describe("an Obsidian vault", () => {
  test("one idea per note: titles, tags, dates, links, relations; attachments and trash skipped and listed", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importBody(t, u, zipFolder(fixtureFiles("obsidian")));
    expect(r.status).toBe(201);
    expect(r.body.source).toBe("obsidian");
    expect(r.body.imported).toEqual({ ideas: 4, created: 4, updated: 0, unchanged: 0, tags: 6, links: 3, relations: 3 });
    expect(r.body.queued).toBe(4);
    expect(r.body.skipped.items).toEqual(expect.arrayContaining([
      { skipped: ".trash/Old idea.md", reason: "in Obsidian's trash" },
      { skipped: "attachments/diagram.png", reason: "attachment not imported" },
    ]));
    expect(r.body.skipped.relations).toBe(1); // [[Missing note]]
    expect(r.body.problems).toEqual([
      { origin: "Broken front matter.md", problem: expect.stringMatching(/^front matter is not valid YAML .*imported with the whole text as body$/) },
    ]);

    const doc = await exportJson(t, u);
    expect(doc.ideas.map((i: any) => i.title).sort()).toEqual(["2024-01-15", "Broken front matter", "Garden planner v2", "Solar kettle"]);
    const kettle = byTitle(doc, "Solar kettle");
    expect(kettle.tags).toEqual(["energy/solar", "hardware", "idea/hardware", "prototype"]);
    expect([kettle.created_at, kettle.updated_at]).toEqual(["2024-01-10 08:30:00", "2024-02-01 09:15:00"]);
    expect(kettle.body).toStartWith("# Solar kettle\n\nA kettle that boils water");
    expect(kettle.body).not.toContain("aliases:");
    expect(kettle.links.map((l: any) => [l.url, l.title])).toEqual([
      ["https://example.org/parabola", "Parabolic mirrors"],
      ["https://example.org/kettle#specs", null],
      ["https://example.org/angle-brackets", null],
    ]);
    // [[Garden planner|…]] and [[Garden planner#Beds]] are one relation; the planner's [[Sun kettle]] (an alias) the same pair.
    expect(relatedTitles(doc, "Solar kettle")).toEqual(["2024-01-15", "Garden planner v2"]);
    expect(relatedTitles(doc, "Garden planner v2")).toEqual(["2024-01-15", "Solar kettle"]);
    expect(doc.ideas.flatMap((i: any) => i.relations).every((x: any) => x.relation_type === "related" && x.created_by === "user")).toBe(true);

    const planner = byTitle(doc, "Garden planner v2");
    expect(planner.tags).toEqual(["garden"]);
    expect([planner.created_at, planner.updated_at]).toEqual([ZIP_STAMP, ZIP_STAMP]);
    const journal = byTitle(doc, "2024-01-15");
    expect([journal.tags, journal.created_at]).toEqual([["daily"], "2024-01-15 00:00:00"]);
    const broken = byTitle(doc, "Broken front matter");
    expect(broken.body).toStartWith("---\ntitle: [unclosed\n");
    expect(broken.tags).toEqual([]);
  });

  test("imported notes are queued for the background pass and counted by GET /health's embeddings block", async () => {
    const before = (await call(t, "GET", "/health")).body.embeddings;
    const u = await makeUser(t, { plan: "pro" });
    await importBody(t, u, zipFolder(fixtureFiles("obsidian")));
    const after = (await call(t, "GET", "/health")).body.embeddings;
    expect(after.pending - before.pending).toBe(4);
    expect(await count(t, "SELECT count(*) AS n FROM jobs j JOIN ideas i ON i.id = j.idea_id WHERE i.user_id = ? AND j.kind = 'full'", u.id)).toBe(4);
  });
});

describe("importing the same source again", () => {
  test("unchanged notes are skipped: no copies, no new relations, nothing queued", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const zip = zipFolder(fixtureFiles("obsidian"));
    await importBody(t, u, zip);
    const before = await tableCounts(u);
    await t.deps.store.query("DELETE FROM jobs").run();
    const again = await importBody(t, u, zip);
    expect(again.status).toBe(201);
    expect(again.body.imported).toEqual({ ideas: 0, created: 0, updated: 0, unchanged: 4, tags: 0, links: 0, relations: 0 });
    expect(again.body.queued).toBe(0);
    expect({ ...(await tableCounts(u)), jobs: before.jobs }).toEqual(before);
    expect(await count(t, "SELECT count(*) AS n FROM jobs j JOIN ideas i ON i.id = j.idea_id WHERE i.user_id = ?", u.id)).toBe(0);
  });

  test("a changed note updates its idea in place (same id and number); tags and links are added", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const files = fixtureFiles("obsidian");
    await importBody(t, u, zipFolder(files));
    const first = byTitle(await exportJson(t, u), "Garden planner v2");
    files["Ideas/Garden planner.md"] = strToU8("# Garden planner v3\n\nNow with #compost and https://compost.example/guide\n\nBack to [[Solar kettle]].\n");
    const r = await importBody(t, u, zipFolder(files));
    expect(r.body.imported).toMatchObject({ created: 0, updated: 1, unchanged: 3, tags: 1, links: 1 });
    expect(r.body.queued).toBe(1);
    const second = byTitle(await exportJson(t, u), "Garden planner v3");
    expect([second.id, second.number]).toEqual([first.id, first.number]);
    expect(second.body).toContain("Now with #compost");
    expect(second.tags).toEqual(["compost", "garden"]);
    expect(second.links.map((l: any) => l.url)).toEqual(["https://compost.example/guide"]);
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", u.id)).toBe(4);
  });

  test("a source named differently but of the same family (markdown vs obsidian) recognises what it imported", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const zip = zipFolder(fixtureFiles("obsidian"));
    await importBody(t, u, zip);
    const r = await importBody(t, u, zip, "?from=markdown");
    expect(r.body.source).toBe("markdown");
    expect(r.body.imported).toMatchObject({ created: 0, unchanged: 4 });
  });

  test("an idea its user archived (DELETE) stays archived: not re-created, and a changed note updates it without reviving it", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const files = fixtureFiles("obsidian");
    await importBody(t, u, zipFolder(files));
    const id = byTitle(await exportJson(t, u), "2024-01-15").id;
    expect((await call(t, "DELETE", `/ideas/${id}`, { key: u.key })).status).toBe(200);
    const again = await importBody(t, u, zipFolder(files));
    expect(again.body.imported).toMatchObject({ created: 0, unchanged: 4 });
    files["Journal/2024-01-15.md"] = strToU8("Rewritten.");
    const changed = await importBody(t, u, zipFolder(files));
    expect(changed.body.imported).toMatchObject({ created: 0, updated: 1 });
    expect(changed.body.queued).toBe(0);
    const row = (await t.deps.store.query("SELECT title, is_archived FROM ideas WHERE id = ?").get(id)) as any;
    expect(row).toEqual({ title: "2024-01-15", is_archived: 1 });
    expect(((await t.deps.store.query("SELECT body FROM ideas WHERE id = ?").get(id)) as any).body).toBe("Rewritten.");
  });
});

describe("dry run", () => {
  test("reports what would be created, updated and skipped, with reasons, and writes nothing", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const files = fixtureFiles("obsidian");
    const before = await tableCounts(u);
    const dry = await importBody(t, u, zipFolder(files), "?dry_run=true");
    expect(dry.status).toBe(200);
    expect(dry.body.dry_run).toBe(true);
    expect(dry.body.imported).toEqual({ ideas: 4, created: 4, updated: 0, unchanged: 0, tags: 6, links: 3, relations: 3 });
    expect(dry.body.queued).toBe(4);
    expect(dry.body.notes).toContainEqual({ origin: "Ideas/Solar kettle.md", title: "Solar kettle", action: "create", reason: "new note" });
    expect(await tableCounts(u)).toEqual(before);

    // The real import then does exactly what the dry run said.
    const real = await importBody(t, u, zipFolder(files));
    expect(real.body.imported).toEqual(dry.body.imported);
    files["Journal/2024-01-15.md"] = strToU8("Edited in Obsidian.");
    const after = await tableCounts(u);
    const dry2 = await importBody(t, u, zipFolder(files), "?dry_run=1");
    expect(dry2.body.imported).toMatchObject({ created: 0, updated: 1, unchanged: 3, relations: 0 });
    expect(dry2.body.notes).toContainEqual({ origin: "Journal/2024-01-15.md", title: "2024-01-15", action: "update", reason: "changed since the last import: its idea is updated" });
    expect(dry2.body.notes).toContainEqual(expect.objectContaining({ origin: "Ideas/Solar kettle.md", action: "unchanged", reason: "unchanged since the last import" }));
    expect(await tableCounts(u)).toEqual(after);
  });

  test("our own export can be dry-run too: its counts, nothing written", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const doc = { format: "idearepo-export", version: 1, tags: [{ name: "t", color: null }], ideas: [{ id: 1, title: "one", tags: ["t"] }, { id: 2, title: "two" }] };
    const before = await tableCounts(u);
    const r = await call(t, "POST", "/user/import?dry_run=true", { key: u.key, body: doc });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ imported: { ideas: 2, tags: 1, links: 0, relations: 0 }, skipped: { relations: 0, files: [] }, dry_run: true });
    expect(await tableCounts(u)).toEqual(before);
  });

  test("a bad dry_run value is a field error", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importBody(t, u, zipFolder(fixtureFiles("markdown")), "?dry_run=maybe");
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { dry_run: ["dry_run must be true or false"] } });
  });
});

describe("Logseq, Basic Memory and plain Markdown folders", () => {
  test("a Logseq graph: page properties, namespaced file names, journals, aliases, #[[tags]]", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importBody(t, u, zipFolder(fixtureFiles("logseq")));
    expect(r.body.source).toBe("logseq");
    expect(r.body.imported).toMatchObject({ created: 3, relations: 2 });
    expect(r.body.skipped.items).toEqual([{ skipped: "assets/photo_1.png", reason: "attachment not imported" }]);
    const doc = await exportJson(t, u);
    expect(doc.ideas.map((i: any) => i.title).sort()).toEqual(["2024-03-01", "Beta", "Project/Alpha"]);
    const alpha = byTitle(doc, "Project/Alpha");
    expect(alpha.tags).toEqual(["deep work", "open questions", "research"]);
    expect(alpha.body).toStartWith("- Goal: ship the first prototype");
    expect(alpha.links.map((l: any) => l.url)).toEqual(["https://logseq.example/docs"]);
    expect(relatedTitles(doc, "Project/Alpha")).toEqual(["2024-03-01", "Beta"]);
    expect(byTitle(doc, "2024-03-01")).toMatchObject({ tags: ["focus"], created_at: "2024-03-01 00:00:00" });
  });

  test("a Basic Memory project: permalinked notes, relations from its Relations section", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importBody(t, u, zipFolder(fixtureFiles("basic-memory")));
    expect(r.body.source).toBe("basic-memory");
    expect(r.body.imported).toMatchObject({ created: 2, relations: 1 });
    expect(r.body.skipped.relations).toBe(1); // [[Grinder Settings]] is not in the project
    const doc = await exportJson(t, u);
    expect(byTitle(doc, "Coffee Brewing Methods").tags).toEqual(["brewing", "coffee", "technique"]);
    expect(relatedTitles(doc, "Coffee Beans")).toEqual(["Coffee Brewing Methods"]);
  });

  test("a plain folder: file-name titles, URL-encoded relative links", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importBody(t, u, zipFolder(fixtureFiles("markdown")));
    expect(r.body.source).toBe("markdown");
    const doc = await exportJson(t, u);
    expect(byTitle(doc, "Other note").tags).toEqual(["books"]);
    expect(byTitle(doc, "Reading list").links).toEqual([expect.objectContaining({ url: "https://books.example/list", title: "A site" })]);
    expect(relatedTitles(doc, "Reading list")).toEqual(["Other note"]);
  });
});

describe("naming and detecting the source", () => {
  test("an unknown source name is a field error listing the known ones", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await importBody(t, u, zipFolder(fixtureFiles("markdown")), "?from=onenote");
    expect(r.status).toBe(400);
    expect(r.body.error.from[0]).toStartWith("from must be one of idearepo, obsidian, logseq, notion, keep,");
  });

  test("a file no reader recognises is a 400 that lists the supported sources; nothing written", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const png = await importBody(t, u, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), "?name=photo.png", "image/png");
    expect(png.status).toBe(400);
    expect(png.body.error).toStartWith("Cannot tell which app this file comes from. Supported sources: idearepo (");
    expect(png.body.error).toContain("obsidian (Obsidian vault (ZIP or folder))");
    const onlyImages = await importBody(t, u, zipFolder({ "a.png": strToU8("x"), "b.jpg": strToU8("y") }));
    expect(onlyImages.status).toBe(400);
    expect(onlyImages.body.error).toStartWith("Cannot tell which app this file comes from.");
    expect((await tableCounts(u)).ideas).toBe(0);
  });
});

describe("the Free plan", () => {
  test("an import that would pass 50 active ideas is refused whole; archived notes do not count", async () => {
    const u = await makeUser(t, { plan: "free" });
    const files: Record<string, Uint8Array> = {};
    for (let i = 1; i <= 51; i++) files[`n${i}.md`] = strToU8(`Note ${i}`);
    const r = await importBody(t, u, zipFolder(files));
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: "idea_limit_reached", currentCount: 0, limit: 50 });
    expect((await tableCounts(u)).ideas).toBe(0);
    files["n51.md"] = strToU8("---\narchived: true\n---\nNote 51");
    const ok = await importBody(t, u, zipFolder(files));
    expect(ok.status).toBe(201);
    expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ? AND is_archived = 0", u.id)).toBe(50);
  });
});

describe("dates: a note keeps the times its source gives, and is never updated before it was created", () => {
  test("the ZIP's date fills in only what the front matter leaves out, and yields to it", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const md = (front: string, text: string) => strToU8(`---\n${front}\n---\n${text}\n`);
    const r = await importBody(t, u, zipFolder({
      // No created: before, updated was lifted to the ZIP's date (2024-06-01), losing the note's own time.
      "Only updated.md": md("updated: 2024-02-01 09:15", "Edited in February, zipped in June."),
      "Only created.md": md("created: 2024-09-01 10:00", "Created after the file's date."),
      "Both.md": md("created: 2024-01-10 08:30\nupdated: 2024-02-01 09:15", "Both stated, in order."),
      "Backwards.md": md("created: 2024-03-01 00:00\nupdated: 2024-01-01 00:00", "Both stated, the wrong way round."),
      "Neither.md": strToU8("No front matter at all.\n"),
    }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const doc = await exportJson(t, u);
    const dates = (title: string) => [byTitle(doc, title).created_at, byTitle(doc, title).updated_at];
    expect(dates("Only updated")).toEqual(["2024-02-01 09:15:00", "2024-02-01 09:15:00"]);
    expect(dates("Only created")).toEqual(["2024-09-01 10:00:00", "2024-09-01 10:00:00"]);
    expect(dates("Both")).toEqual(["2024-01-10 08:30:00", "2024-02-01 09:15:00"]);
    expect(dates("Backwards")).toEqual(["2024-03-01 00:00:00", "2024-03-01 00:00:00"]);
    expect(dates("Neither")).toEqual([ZIP_STAMP, ZIP_STAMP]);
    expect(r.body.problems).toEqual([
      { origin: "Backwards.md", problem: "front matter says it was updated (2024-01-01T00:00:00.000Z) before it was created (2024-03-01T00:00:00.000Z): updated is taken as created" },
    ]);
  });
});
