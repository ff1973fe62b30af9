// GET, PATCH and DELETE /ideas/:id: detail with links and relations, partial updates and queueing, archive.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { seedRelation, clearJobs, IDEA_KEYS, jobsFor, newIdea, newIdeas } from "../fixtures/seed";

const t = makeApp({ now: "2026-02-01T00:00:00Z" });
afterAll(() => t.close());

const get = (u: TestUser, id: number | string) => call(t, "GET", `/ideas/${id}`, { key: u.key });
const patch = (u: TestUser, id: number | string, body: unknown) => call(t, "PATCH", `/ideas/${id}`, { key: u.key, body });
const del = (u: TestUser, id: number | string) => call(t, "DELETE", `/ideas/${id}`, { key: u.key });

describe("GET /ideas/:id", () => {
  test("200 with the idea fields, tags, links (newest first) and relations", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { title: "Detail", tags: ["x"] });
    await call(t, "POST", `/ideas/${idea.id}/links`, { key: u.key, body: { url: "https://a.example" } });
    t.clock.advance(1000);
    await call(t, "POST", `/ideas/${idea.id}/links`, { key: u.key, body: { url: "https://b.example" } });
    const r = await get(u, idea.id);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([...IDEA_KEYS, "links", "relations"].sort());
    expect(r.body).toMatchObject({ id: idea.id, title: "Detail", tags: ["x"], relations: [] });
    expect(r.body.links.map((l: any) => l.url)).toEqual(["https://b.example", "https://a.example"]);
  });

  test("relations: both directions, highest score first (user-made null scores last), documented fields", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [me, a, b, c] = await newIdeas(t, u, 4, (i) => ({ title: ["me", "a", "b", "c"][i] }));
    const rUser = await seedRelation(t, u, { source: me.id, target: a.id, type: "blocks", note: "first" });
    const rLow = await seedRelation(t, u, { source: b.id, target: me.id, type: "related", by: "system", score: 0.55 });
    const rHigh = await seedRelation(t, u, { source: me.id, target: c.id, type: "related", by: "system", score: 0.91 });
    const r = await get(u, me.id);
    expect(r.body.relations.map((x: any) => x.id)).toEqual([rHigh, rLow, rUser]);
    expect(r.body.relations[1]).toEqual({
      id: rLow,
      source_idea_id: b.id,
      target_idea_id: me.id,
      relation_type: "related",
      score: 0.55,
      note: null,
      created_by: "system",
      created_at: expect.any(String),
      direction: "incoming",
      related_idea_id: b.id,
      related_idea_number: b.number,
      related_idea_title: "b",
      related_idea_status: "captured",
    });
    expect(r.body.relations[2]).toMatchObject({ direction: "outgoing", related_idea_id: a.id, related_idea_title: "a", related_idea_number: a.number, note: "first" });
  });

  test("relations whose other side is archived are left out", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [me, gone, kept] = await newIdeas(t, u, 3);
    await seedRelation(t, u, { source: me.id, target: gone.id });
    await seedRelation(t, u, { source: kept.id, target: me.id });
    await del(u, gone.id);
    expect((await get(u, me.id)).body.relations.map((x: any) => x.related_idea_id)).toEqual([kept.id]);
  });

  test("an archived idea is still returned, with is_archived 1; relations touching it are hidden", async () => {
    const u = await makeUser(t);
    const [idea, other] = await newIdeas(t, u, 2);
    await seedRelation(t, u, { source: idea.id, target: other.id });
    await del(u, idea.id);
    const r = await get(u, idea.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: idea.id, is_archived: 1, relations: [] });
    expect((await get(u, other.id)).body.relations).toEqual([]);
  });

  test("/ideas/search and /ideas/duplicates are their own routes, never read as an :id", async () => {
    const u = await makeUser(t);
    await newIdea(t, u, { title: "Findable kettle" });
    const search = await call(t, "GET", "/ideas/search?q=kettle&mode=keyword", { key: u.key });
    expect(search.status).toBe(200);
    expect(search.body.results.map((r: any) => r.title)).toEqual(["Findable kettle"]);
    expect(await call(t, "GET", "/ideas/duplicates", { key: u.key })).toMatchObject({ status: 200, body: { duplicates: [] } });
  });

  test("another account's idea and absent ids are 404 Idea not found", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const idea = await newIdea(t, a);
    for (const [u, id] of [[b, idea.id], [a, 987_654], [a, 0], [a, -3]] as const) {
      const r = await get(u, id);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: "Idea not found" });
    }
  });

  test("a non-numeric id is 400 Invalid idea ID (the segment bulk is not an id)", async () => {
    const u = await makeUser(t);
    for (const id of ["abc", "1.5", "1e3", "bulk", "%20"]) {
      const r = await get(u, id);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "Invalid idea ID" });
    }
  });
});

describe("PATCH /ideas/:id", () => {
  test("only given fields change; body replaces; updated_at moves with the clock", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { title: "Old", body: "old body", tags: ["keep"], status: "exploring", source: "cli" });
    t.clock.advance(60_000);
    const r = await patch(u, idea.id, { body: "new body" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: "Old", body: "new body", tags: ["keep"], status: "exploring", source: "cli", created_at: idea.created_at });
    expect(r.body.updated_at > idea.updated_at).toBe(true);
    expect(Object.keys(r.body).sort()).toEqual([...IDEA_KEYS].sort());
    expect((await get(u, idea.id)).body.body).toBe("new body");
  });

  test("title, status and tags (replacing all tags)", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { tags: ["a", "b"] });
    const r = await patch(u, idea.id, { title: "Renamed", status: "shipped", tags: ["c", "a"] });
    expect(r.body).toMatchObject({ title: "Renamed", status: "shipped", tags: ["a", "c"] });
    expect((await patch(u, idea.id, { tags: [] })).body.tags).toEqual([]);
  });

  test("parent_id sets a parent; null detaches it", async () => {
    const u = await makeUser(t);
    const [parent, child] = await newIdeas(t, u, 2);
    expect((await patch(u, child.id, { parent_id: parent.id })).body.parent_id).toBe(parent.id);
    expect((await patch(u, child.id, { title: "still attached" })).body.parent_id).toBe(parent.id);
    expect((await patch(u, child.id, { parent_id: null })).body.parent_id).toBeNull();
  });

  test("parent_id must be another live idea of the caller and must not close a loop", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    const [a, b, c] = await newIdeas(t, u, 3);
    const foreign = await newIdea(t, other);
    await patch(u, b.id, { parent_id: a.id });
    await patch(u, c.id, { parent_id: b.id });
    expect((await patch(u, a.id, { parent_id: foreign.id })).body).toEqual({ error: { parent_id: ["Parent idea not found"] } });
    expect((await patch(u, a.id, { parent_id: a.id })).body).toEqual({ error: { parent_id: ["An idea cannot be its own parent"] } });
    const loop = await patch(u, a.id, { parent_id: c.id });
    expect(loop.status).toBe(400);
    expect(Object.keys(loop.body.error)).toEqual(["parent_id"]);
    expect((await get(u, a.id)).body.parent_id).toBeNull();
  });

  test("validation errors are 400 in the field shape, and change nothing", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { title: "Stable" });
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ title: "" }, "title"],
      [{ title: "x".repeat(201) }, "title"],
      [{ body: "x".repeat(50_001) }, "body"],
      [{ status: "archived" }, "status"],
      [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, "tags"],
      [{ tags: ["y".repeat(51)] }, "tags"],
      [{ parent_id: "x" }, "parent_id"],
    ];
    for (const [body, field] of bad) {
      const r = await patch(u, idea.id, { ...body });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.error)).toContain(field);
    }
    expect((await get(u, idea.id)).body).toMatchObject({ title: "Stable", status: "captured", tags: [] });
  });

  test("404 for another account's idea (and it stays unchanged); 400 for a non-numeric id even with a bad body", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const idea = await newIdea(t, a, { title: "Mine" });
    const r = await patch(b, idea.id, { title: "Stolen" });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "Idea not found" });
    expect((await get(a, idea.id)).body.title).toBe("Mine");
    expect((await patch(a, "abc", { title: "" })).body).toEqual({ error: "Invalid idea ID" });
  });

  test("title, body or parent_id changes queue the full job; status or tags alone queue the light one", async () => {
    const u = await makeUser(t);
    const [parent, idea] = await newIdeas(t, u, 2);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ title: "T2" }, ["full"]],
      [{ body: "B2" }, ["full"]],
      [{ parent_id: parent.id }, ["full"]],
      [{ status: "building" }, ["light"]],
      [{ tags: ["n"] }, ["light"]],
      [{ status: "shipped", tags: ["m"] }, ["light"]],
      [{ title: "T3", status: "shelved" }, ["full"]],
    ];
    for (const [body, expected] of cases) {
      await clearJobs(t);
      expect((await patch(u, idea.id, body)).status).toBe(200);
      expect(await jobsFor(t, idea.id)).toEqual(expected);
    }
  });

  test("a PATCH that changes nothing writes nothing: no job, same updated_at", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { title: "Same", tags: ["a", "b"] });
    await clearJobs(t);
    t.clock.advance(3_600_000);
    const r = await patch(u, idea.id, { title: "Same", tags: ["b", "a"], status: "captured" });
    expect(r.status).toBe(200);
    expect(r.body.updated_at).toBe(idea.updated_at);
    expect(await jobsFor(t, idea.id)).toEqual([]);
    expect((await patch(u, idea.id, {})).body.updated_at).toBe(idea.updated_at);
  });

  test("an archived idea can still be edited but is not queued again", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    await del(u, idea.id);
    await clearJobs(t);
    const r = await patch(u, idea.id, { title: "Edited after archive" });
    expect(r.body).toMatchObject({ title: "Edited after archive", is_archived: 1 });
    expect(await jobsFor(t, idea.id)).toEqual([]);
  });
});

describe("DELETE /ideas/:id (archive)", () => {
  test("200 {success:true}; repeating it succeeds and changes nothing", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    expect(await del(u, idea.id)).toMatchObject({ status: 200, body: { success: true } });
    const first = (await get(u, idea.id)).body;
    t.clock.advance(5000);
    expect(await del(u, idea.id)).toMatchObject({ status: 200, body: { success: true } });
    expect((await get(u, idea.id)).body).toEqual(first);
    expect(first.is_archived).toBe(1);
  });

  test("archived ideas leave the list and the tag counts but stay readable", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { tags: ["gone"] });
    await del(u, idea.id);
    expect((await call(t, "GET", "/ideas", { key: u.key })).body.ideas).toEqual([]);
    expect((await call(t, "GET", "/tags", { key: u.key })).body.tags).toEqual([expect.objectContaining({ name: "gone", idea_count: 0 })]);
    expect((await get(u, idea.id)).status).toBe(200);
  });

  test("404 for another account's idea, which stays unarchived; 404 for absent; 400 non-numeric", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const idea = await newIdea(t, a);
    expect(await del(b, idea.id)).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    expect((await get(a, idea.id)).body.is_archived).toBe(0);
    expect((await del(a, 555_555)).status).toBe(404);
    expect(await del(a, "x")).toMatchObject({ status: 400, body: { error: "Invalid idea ID" } });
  });
});
