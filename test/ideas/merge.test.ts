// POST /ideas/:id/merge: body, tags, created_at, relation repointing, links, the absorbed idea's fate, refusals.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { seedRelation, clearJobs, IDEA_KEYS, jobsFor, newIdea, relationRows } from "../fixtures/seed";

const t = makeApp({ now: "2026-02-01T00:00:00Z" });
afterAll(() => t.close());

const merge = (u: TestUser, id: number | string, body: unknown) => call(t, "POST", `/ideas/${id}/merge`, { key: u.key, body });
const get = async (u: TestUser, id: number) => (await call(t, "GET", `/ideas/${id}`, { key: u.key })).body;

describe("POST /ideas/:id/merge", () => {
  test("kept body first, joined by a blank line, --- and a blank line; tags united; the survivor is returned", async () => {
    const u = await makeUser(t);
    const kept = await newIdea(t, u, { title: "Kept", body: "Kept body", tags: ["a", "shared"] });
    const gone = await newIdea(t, u, { title: "Gone", body: "Gone body", tags: ["shared", "z"] });
    const r = await merge(u, kept.id, { absorb_id: gone.id });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([...IDEA_KEYS].sort());
    expect(r.body).toMatchObject({ id: kept.id, title: "Kept", body: "Kept body\n\n---\n\nGone body", tags: ["a", "shared", "z"], is_archived: 0 });
    expect((await get(u, kept.id)).body).toBe("Kept body\n\n---\n\nGone body");
  });

  test("the survivor takes the earlier created_at of the two", async () => {
    const u = await makeUser(t);
    t.clock.set("2026-01-01T00:00:00Z");
    const older = await newIdea(t, u, { title: "older" });
    t.clock.set("2026-01-05T00:00:00Z");
    const newer = await newIdea(t, u, { title: "newer" });
    const other = await newIdea(t, u, { title: "newest" });
    expect((await merge(u, newer.id, { absorb_id: older.id })).body.created_at).toBe("2026-01-01 00:00:00");
    expect((await merge(u, newer.id, { absorb_id: other.id })).body.created_at).toBe("2026-01-01 00:00:00");
  });

  test("the absorbed idea is shelved, then archived; its links stay with it", async () => {
    const u = await makeUser(t);
    const kept = await newIdea(t, u);
    const gone = await newIdea(t, u, { status: "building" });
    await call(t, "POST", `/ideas/${gone.id}/links`, { key: u.key, body: { url: "https://stays.example" } });
    await merge(u, kept.id, { absorb_id: gone.id });
    const g = await get(u, gone.id);
    expect(g).toMatchObject({ status: "shelved", is_archived: 1 });
    expect(g.links.map((l: any) => l.url)).toEqual(["https://stays.example"]);
    expect((await get(u, kept.id)).links).toEqual([]);
    expect((await call(t, "GET", "/ideas", { key: u.key })).body.ideas.map((i: any) => i.id)).toEqual([kept.id]);
  });

  test("relations move from the absorbed idea to the kept one; self-relations and duplicate pairs are dropped", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [kept, gone, x, y, z] = [await newIdea(t, u, { title: "kept" }), await newIdea(t, u, { title: "gone" }), await newIdea(t, u), await newIdea(t, u), await newIdea(t, u)];
    const out = await seedRelation(t, u, { source: gone.id, target: x.id, type: "blocks" }); // → kept→x
    const inc = await seedRelation(t, u, { source: y.id, target: gone.id, type: "inspires" }); // → y→kept
    await seedRelation(t, u, { source: kept.id, target: gone.id }); // would become kept→kept: removed
    await seedRelation(t, u, { source: gone.id, target: kept.id, by: "system", score: 0.9 }); // likewise
    const keptZ = await seedRelation(t, u, { source: kept.id, target: z.id, type: "related" });
    await seedRelation(t, u, { source: gone.id, target: z.id, type: "parent" }); // same ordered pair and creator as keptZ: dropped
    const sysZ = await seedRelation(t, u, { source: gone.id, target: z.id, by: "system", score: 0.7 }); // system-made: coexists with keptZ
    const r = await merge(u, kept.id, { absorb_id: gone.id });
    expect(r.status).toBe(200);
    const rows = (await relationRows(t)).filter((x2) => [kept.id, gone.id].includes(x2.source_idea_id) || [kept.id, gone.id].includes(x2.target_idea_id));
    expect(rows).toEqual([
      { id: out, source_idea_id: kept.id, target_idea_id: x.id, relation_type: "blocks", created_by: "user" },
      { id: inc, source_idea_id: y.id, target_idea_id: kept.id, relation_type: "inspires", created_by: "user" },
      { id: keptZ, source_idea_id: kept.id, target_idea_id: z.id, relation_type: "related", created_by: "user" },
      { id: sysZ, source_idea_id: kept.id, target_idea_id: z.id, relation_type: "related", created_by: "system" },
    ]);
    const detail = await get(u, kept.id);
    expect(detail.relations.map((x2: any) => x2.id).sort()).toEqual([out, inc, keptZ, sysZ].sort());
  });

  test("ideas under the absorbed parent move under the kept idea; a kept child of the absorbed idea loses that parent", async () => {
    const u = await makeUser(t);
    const gone = await newIdea(t, u);
    const kept = await newIdea(t, u, { parent_id: gone.id });
    const child = await newIdea(t, u, { parent_id: gone.id });
    const r = await merge(u, kept.id, { absorb_id: gone.id });
    expect(r.body.parent_id).toBeNull();
    expect((await get(u, child.id)).parent_id).toBe(kept.id);
  });

  test("queues the full job for the survivor", async () => {
    const u = await makeUser(t);
    const [kept, gone] = [await newIdea(t, u), await newIdea(t, u)];
    await clearJobs(t);
    await merge(u, kept.id, { absorb_id: gone.id });
    expect(await jobsFor(t, kept.id)).toEqual(["full"]);
  });

  test("merging an idea with itself is 400", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    const r = await merge(u, idea.id, { absorb_id: idea.id });
    expect(r.status).toBe(400);
    expect(typeof r.body.error).toBe("string");
    expect((await get(u, idea.id)).is_archived).toBe(0);
  });

  test("either id missing or another account's: 404 and nothing changes", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    const mine = await newIdea(t, u, { body: "mine" });
    const theirs = await newIdea(t, other, { body: "theirs" });
    for (const [id, absorb] of [[mine.id, theirs.id], [theirs.id, mine.id], [mine.id, 777_777], [777_777, mine.id]]) {
      const r = await merge(u, id, { absorb_id: absorb });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: "Idea not found" });
    }
    expect(await get(u, mine.id)).toMatchObject({ body: "mine", is_archived: 0, status: "captured" });
    expect(await get(other, theirs.id)).toMatchObject({ body: "theirs", is_archived: 0, status: "captured" });
  });

  test("an archived idea cannot take part (400)", async () => {
    const u = await makeUser(t);
    const [a, b] = [await newIdea(t, u), await newIdea(t, u)];
    await call(t, "DELETE", `/ideas/${b.id}`, { key: u.key });
    expect((await merge(u, a.id, { absorb_id: b.id })).status).toBe(400);
    expect((await merge(u, b.id, { absorb_id: a.id })).status).toBe(400);
    expect((await get(u, a.id)).is_archived).toBe(0);
  });

  test("a merged body over 50,000 characters is refused (400) and nothing changes", async () => {
    const u = await makeUser(t);
    const a = await newIdea(t, u, { body: "a".repeat(30_000) });
    const b = await newIdea(t, u, { body: "b".repeat(20_000) });
    const r = await merge(u, a.id, { absorb_id: b.id });
    expect(r.status).toBe(400);
    expect((await get(u, a.id)).body).toHaveLength(30_000);
    expect((await get(u, b.id)).is_archived).toBe(0);
  });

  test("absorb_id is required and must be an integer; a non-numeric path id is Invalid idea ID", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    for (const body of [{}, { absorb_id: "x" }, { absorb_id: 1.5 }]) {
      const r = await merge(u, idea.id, body);
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.error)).toEqual(["absorb_id"]);
    }
    expect((await merge(u, "first", { absorb_id: idea.id })).body).toEqual({ error: "Invalid idea ID" });
  });
});
