// /tags: counted list, create, rename/recolour (with the spec's 500 on collision), delete, similar tags.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, STAMP_RE, type TestUser } from "../helpers";
import { clearJobs, jobs, jobsFor, newIdea } from "../fixtures/seed";

const t = makeApp({ now: "2026-02-01T00:00:00Z" });
afterAll(() => t.close());

const listTags = async (u: TestUser) => (await call(t, "GET", "/tags", { key: u.key })).body.tags as any[];
const createTag = (u: TestUser, body: unknown) => call(t, "POST", "/tags", { key: u.key, body });
const patchTag = (u: TestUser, id: number | string, body: unknown) => call(t, "PATCH", `/tags/${id}`, { key: u.key, body });
const delTag = (u: TestUser, id: number | string) => call(t, "DELETE", `/tags/${id}`, { key: u.key });
const similar = (u: TestUser, query: string) => call(t, "GET", `/tags/similar${query}`, { key: u.key });
const ideaTags = async (u: TestUser, id: number) => (await call(t, "GET", `/ideas/${id}`, { key: u.key })).body.tags;

describe("GET /tags", () => {
  test("most used first, then alphabetical; idea_count counts unarchived ideas only; unused tags included", async () => {
    const u = await makeUser(t);
    await newIdea(t, u, { tags: ["beta", "gamma"] });
    await newIdea(t, u, { tags: ["gamma", "alpha"] });
    const gone = await newIdea(t, u, { tags: ["alpha", "delta"] });
    await newIdea(t, u, { tags: ["delta"] });
    await call(t, "DELETE", `/ideas/${gone.id}`, { key: u.key });
    await createTag(u, { name: "aardvark" });
    const tags = await listTags(u);
    expect(tags.map((x) => [x.name, x.idea_count])).toEqual([["gamma", 2], ["alpha", 1], ["beta", 1], ["delta", 1], ["aardvark", 0]]);
  });

  test("each tag has exactly id, user_id, name, color, vectorize_id, created_at, idea_count", async () => {
    const u = await makeUser(t);
    await createTag(u, { name: "shape", color: "#00ff00" });
    const [tag] = await listTags(u);
    expect(tag).toEqual({ id: expect.any(Number), user_id: u.id, name: "shape", color: "#00ff00", vectorize_id: null, created_at: "2026-02-01 00:00:00", idea_count: 0 });
  });

  test("only the caller's tags", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await createTag(a, { name: "a-only" });
    expect(await listTags(b)).toEqual([]);
  });
});

describe("POST /tags", () => {
  test("201 {tag} without idea_count; colour optional", async () => {
    const u = await makeUser(t);
    const r = await createTag(u, { name: "ops", color: "#A1b2C3" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ tag: { id: expect.any(Number), user_id: u.id, name: "ops", color: "#A1b2C3", vectorize_id: null, created_at: expect.stringMatching(STAMP_RE) } });
    expect((await createTag(u, { name: "plain" })).body.tag.color).toBeNull();
  });

  test("queues the tag's embedding", async () => {
    const u = await makeUser(t);
    await clearJobs(t);
    const r = await createTag(u, { name: "embed-me" });
    expect(await jobs(t)).toEqual([{ kind: "tag-embed", idea_id: null, payload: JSON.stringify({ tag_id: r.body.tag.id }) }]);
  });

  test("an existing name (also one created implicitly, also after trimming) is 409", async () => {
    const u = await makeUser(t);
    await newIdea(t, u, { tags: ["implicit"] });
    await createTag(u, { name: "explicit" });
    for (const name of ["implicit", "explicit", " explicit "]) {
      const r = await createTag(u, { name });
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ error: "Tag name already exists" });
    }
    expect((await createTag(u, { name: "Explicit" })).status).toBe(201); // names are case-sensitive
  });

  test("the same name in another account is not a conflict", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await createTag(a, { name: "common" });
    expect((await createTag(b, { name: "common" })).status).toBe(201);
  });

  const invalid: Array<[string, unknown, string]> = [
    ["missing name", {}, "name"],
    ["empty name", { name: "" }, "name"],
    ["blank name", { name: "   " }, "name"],
    ["name over 50", { name: "n".repeat(51) }, "name"],
    ["three-digit colour", { name: "c", color: "#abc" }, "color"],
    ["colour word", { name: "c", color: "red" }, "color"],
    ["colour without #", { name: "c", color: "aabbcc" }, "color"],
    ["seven digits", { name: "c", color: "#aabbccd" }, "color"],
    ["non-hex colour", { name: "c", color: "#gggggg" }, "color"],
  ];
  for (const [name, body, field] of invalid) {
    test(`400: ${name}`, async () => {
      const u = await makeUser(t);
      const r = await createTag(u, body);
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.error)).toEqual([field]);
      expect(await listTags(u)).toEqual([]);
    });
  }

  test("a 50-character name is accepted", async () => {
    const u = await makeUser(t);
    expect((await createTag(u, { name: "n".repeat(50) })).status).toBe(201);
  });
});

describe("PATCH /tags/:id", () => {
  test("renames and recolours; only given fields change; null clears the colour", async () => {
    const u = await makeUser(t);
    const tag = (await createTag(u, { name: "old", color: "#111111" })).body.tag;
    expect((await patchTag(u, tag.id, { name: "new" })).body).toEqual({ tag: { ...tag, name: "new" } });
    expect((await patchTag(u, tag.id, { color: "#222222" })).body.tag).toMatchObject({ name: "new", color: "#222222" });
    expect((await patchTag(u, tag.id, { color: null })).body.tag.color).toBeNull();
    expect((await patchTag(u, tag.id, {})).body.tag).toMatchObject({ name: "new", color: null });
  });

  test("a rename shows on every idea carrying the tag and queues their light update", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { tags: ["before"] });
    const tag = (await listTags(u))[0];
    await clearJobs(t);
    await patchTag(u, tag.id, { name: "after" });
    expect(await ideaTags(u, idea.id)).toEqual(["after"]);
    expect(await jobsFor(t, idea.id)).toEqual(["light"]);
  });

  test("renaming onto another existing name is the spec's 500, and nothing changes", async () => {
    const u = await makeUser(t);
    const a = (await createTag(u, { name: "taken" })).body.tag;
    const b = (await createTag(u, { name: "mine" })).body.tag;
    const r = await patchTag(u, b.id, { name: "taken" });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: "Internal server error" });
    expect((await listTags(u)).map((x) => x.name).sort()).toEqual(["mine", "taken"]);
    expect((await patchTag(u, a.id, { name: "taken" })).status).toBe(200); // its own name is no collision
  });

  test("validation: 400 for a bad colour or name", async () => {
    const u = await makeUser(t);
    const tag = (await createTag(u, { name: "v" })).body.tag;
    expect((await patchTag(u, tag.id, { color: "#fff" })).status).toBe(400);
    expect((await patchTag(u, tag.id, { name: "" })).status).toBe(400);
    expect((await patchTag(u, tag.id, { name: "x".repeat(51) })).status).toBe(400);
  });

  test("404 for another account's tag (unchanged) or an absent one; 400 for a non-numeric id", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const tag = (await createTag(a, { name: "guarded" })).body.tag;
    expect(await patchTag(b, tag.id, { name: "hijack" })).toMatchObject({ status: 404, body: { error: "Tag not found" } });
    expect((await listTags(a))[0].name).toBe("guarded");
    expect((await patchTag(a, 424_242, { name: "x" })).status).toBe(404);
    expect(await patchTag(a, "x", { name: "y" })).toMatchObject({ status: 400, body: { error: "Invalid tag ID" } });
  });
});

describe("DELETE /tags/:id", () => {
  test("removes the tag and detaches it from every idea; the ideas are otherwise unchanged", async () => {
    const u = await makeUser(t);
    const i1 = await newIdea(t, u, { tags: ["doomed", "stays"] });
    const i2 = await newIdea(t, u, { tags: ["doomed"] });
    const doomed = (await listTags(u)).find((x) => x.name === "doomed");
    t.clock.advance(60_000);
    expect(await delTag(u, doomed.id)).toMatchObject({ status: 200, body: { success: true } });
    const d1 = (await call(t, "GET", `/ideas/${i1.id}`, { key: u.key })).body;
    expect(d1.tags).toEqual(["stays"]);
    expect(d1.updated_at).toBe(i1.updated_at);
    expect(await ideaTags(u, i2.id)).toEqual([]);
    expect((await listTags(u)).map((x) => x.name)).toEqual(["stays"]);
    expect((await call(t, "GET", "/ideas?tag=doomed", { key: u.key })).body.ideas).toEqual([]);
  });

  test("404 for another account's tag (which survives), absent ids and a second delete", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const tag = (await createTag(a, { name: "mine" })).body.tag;
    expect(await delTag(b, tag.id)).toMatchObject({ status: 404, body: { error: "Tag not found" } });
    expect(await listTags(a)).toHaveLength(1);
    expect((await delTag(a, tag.id)).status).toBe(200);
    expect((await delTag(a, tag.id)).status).toBe(404);
    expect((await delTag(a, "abc")).status).toBe(400);
  });
});

describe("GET /tags/similar", () => {
  test("400 when the tag parameter is missing or empty", async () => {
    const u = await makeUser(t);
    for (const q of ["", "?tag=", "?limit=3"]) {
      expect(await similar(u, q)).toMatchObject({ status: 400, body: { error: 'Missing "tag" query parameter' } });
    }
  });

  test("404 naming the tag when it is unknown, including another account's tag", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await createTag(b, { name: "theirs" });
    expect(await similar(a, "?tag=nope")).toMatchObject({ status: 404, body: { error: 'Tag "nope" not found' } });
    expect(await similar(a, "?tag=theirs")).toMatchObject({ status: 404, body: { error: 'Tag "theirs" not found' } });
  });

  test("a tag without an embedding answers an empty list with the message", async () => {
    const u = await makeUser(t);
    await createTag(u, { name: "fresh" });
    expect(await similar(u, "?tag=fresh")).toMatchObject({ status: 200, body: { similar: [], message: "Tag has no embedding yet" } });
  });
});
