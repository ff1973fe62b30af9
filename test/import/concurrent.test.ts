// Imports that overlap in one account: the settings page sends a dry run when a file is chosen and the real import when
// Import is clicked, so both can be in flight at once; a capture can arrive beside them too. Each must answer as if
// alone (on PostgreSQL both transactions run at once; two that create the same new tag must not collide).
import { afterAll, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { call, makeApp, makeUser, type TestApp, type TestUser } from "../helpers";
import { seedIdea, tagIdea } from "../fixtures/seed";
import { count, exportJson, importBody } from "./helpers";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

/** The export of an account with two ideas tagged "garden" (the settings browser test's file). */
async function gardenExport(): Promise<unknown> {
  const src = await makeUser(t, { plan: "pro" });
  for (const title of ["Rain barrel sensor", "Seed swap, with comma"]) await tagIdea(t, src.id, await seedIdea(t, src, { title }), "garden");
  return exportJson(t, src);
}

const importDoc = (app: TestApp, u: TestUser, doc: unknown, dryRun: boolean) =>
  call(app, "POST", `/user/import${dryRun ? "?dry_run=true" : ""}`, { key: u.key, body: doc });

const titles = async (u: TestUser) => ((await call(t, "GET", "/ideas?limit=100", { key: u.key })).body.ideas as { title: string }[]).map((i) => i.title).sort();

test("a dry run and the real import of one file, sent together either way round, both succeed; the import is written once", async () => {
  const doc = await gardenExport();
  for (let round = 0; round < 6; round++) {
    const dst = await makeUser(t, { plan: "pro" });
    const realFirst = round % 2 === 0;
    const [a, b] = await Promise.all(realFirst
      ? [importDoc(t, dst, doc, false), importDoc(t, dst, doc, true)]
      : [importDoc(t, dst, doc, true), importDoc(t, dst, doc, false)]);
    const [real, dry] = realFirst ? [a, b] : [b, a];
    expect({ round, status: dry.status, body: dry.body }).toEqual({ round, status: 200, body: expect.objectContaining({ dry_run: true }) });
    expect({ round, status: real.status }).toEqual({ round, status: 201 });
    expect(real.body.imported).toEqual({ ideas: 2, tags: 1, links: 0, relations: 0 });
    // The dry run counts the tag as new when it ran before the import committed it, as existing after: either is right.
    expect(dry.body.imported.ideas).toBe(2);
    expect(await titles(dst)).toEqual(["Rain barrel sensor", "Seed swap, with comma"]);
    const tags = (await call(t, "GET", "/tags", { key: dst.key })).body;
    expect((tags.tags ?? tags).map((x: { name: string }) => x.name)).toEqual(["garden"]);
  }
}, 60_000);

test("two real imports of one file at once both land: four ideas, one tag", async () => {
  const doc = await gardenExport();
  const dst = await makeUser(t, { plan: "pro" });
  const [a, b] = await Promise.all([importDoc(t, dst, doc, false), importDoc(t, dst, doc, false)]);
  expect([a.status, b.status]).toEqual([201, 201]);
  expect((await titles(dst)).length).toBe(4);
});

test("a capture that creates the tag an import is creating: both succeed", async () => {
  const doc = await gardenExport();
  for (let round = 0; round < 4; round++) {
    const dst = await makeUser(t, { plan: "pro" });
    const [imported, captured] = await Promise.all([
      importDoc(t, dst, doc, false),
      call(t, "POST", "/ideas", { key: dst.key, body: { title: `Captured beside ${round}`, tags: ["garden"] } }),
    ]);
    expect({ round, imported: imported.status, captured: captured.status }).toEqual({ round, imported: 201, captured: 201 });
    expect((await titles(dst)).length).toBe(3);
  }
}, 60_000);

test("an edit that gives an idea the new tag an import is creating: both succeed, one tag", async () => {
  const doc = await gardenExport();
  for (let round = 0; round < 4; round++) {
    const dst = await makeUser(t, { plan: "pro" });
    const mine = await seedIdea(t, dst, { title: `Edited beside ${round}` });
    const [imported, edited] = await Promise.all([
      importDoc(t, dst, doc, false),
      call(t, "PATCH", `/ideas/${mine}`, { key: dst.key, body: { tags: ["garden"] } }),
    ]);
    expect({ round, imported: imported.status, edited: edited.status }).toEqual({ round, imported: 201, edited: 200 });
    const tags = (await call(t, "GET", "/tags", { key: dst.key })).body;
    expect((tags.tags ?? tags).map((x: { name: string; idea_count: number }) => [x.name, x.idea_count])).toEqual([["garden", 3]]);
  }
}, 60_000);

test("a Markdown folder imported twice at once: each note becomes one idea (a note import is idempotent by origin)", async () => {
  const zip = zipSync({
    "Garden/Rain barrel.md": strToU8("Collect the roof's water. #garden"),
    "Garden/Seed swap.md": strToU8("Saturday at the library. #garden #swap"),
    "Compost.md": strToU8("Turn it weekly, see [[Rain barrel]]."),
  });
  const dst = await makeUser(t, { plan: "pro" });
  const [a, b] = await Promise.all([importBody(t, dst, zip, "?from=markdown"), importBody(t, dst, zip, "?from=markdown")]);
  expect([a.status, b.status]).toEqual([201, 201]);
  expect(await count(t, "SELECT count(*) AS n FROM ideas WHERE user_id = ?", dst.id)).toBe(3);
  expect([a.body.imported.created + b.body.imported.created, a.body.imported.unchanged + b.body.imported.unchanged]).toEqual([3, 3]);
});
