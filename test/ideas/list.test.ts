// GET /ideas: order, archive exclusion, status/tag/connection_types filters, limit clamping, offset and has_more.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { seedRelation, IDEA_KEYS, newIdea, newIdeas } from "../fixtures/seed";

const t = makeApp({ now: "2026-02-01T00:00:00Z" });
afterAll(() => t.close());

const list = async (u: TestUser, query = "") => {
  const r = await call(t, "GET", `/ideas${query}`, { key: u.key });
  if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
  return r.body as { ideas: any[]; has_more: boolean };
};
const titles = (body: { ideas: any[] }) => body.ideas.map((i) => i.title);

describe("order and shape", () => {
  test("newest first by created_at (not by id); equal created_at falls back to the higher id first", async () => {
    const u = await makeUser(t);
    t.clock.set("2026-02-01T10:00:00Z");
    await newIdea(t, u, { title: "ten" });
    t.clock.set("2026-02-01T08:00:00Z");
    await newIdea(t, u, { title: "eight (captured later, older stamp)" });
    t.clock.set("2026-02-01T12:00:00Z");
    await newIdea(t, u, { title: "twelve a" });
    await newIdea(t, u, { title: "twelve b" });
    expect(titles(await list(u))).toEqual(["twelve b", "twelve a", "ten", "eight (captured later, older stamp)"]);
  });

  test("each idea has exactly the documented fields, with its tags", async () => {
    const u = await makeUser(t);
    await newIdea(t, u, { title: "shape", tags: ["b", "a"] });
    const [idea] = (await list(u)).ideas;
    expect(Object.keys(idea).sort()).toEqual([...IDEA_KEYS].sort());
    expect(idea.tags).toEqual(["a", "b"]);
    expect(idea.is_archived).toBe(0);
  });

  test("archived ideas are excluded", async () => {
    const u = await makeUser(t);
    const [a, b] = await newIdeas(t, u, 2);
    await call(t, "DELETE", `/ideas/${a.id}`, { key: u.key });
    expect((await list(u)).ideas.map((i) => i.id)).toEqual([b.id]);
  });

  test("only the caller's ideas are listed", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await newIdea(t, a, { title: "a's", tags: ["x"] });
    await newIdea(t, b, { title: "b's", tags: ["x"] });
    expect(titles(await list(a))).toEqual(["a's"]);
    expect(titles(await list(b, "?tag=x"))).toEqual(["b's"]);
  });
});

describe("filters", () => {
  let u: TestUser;
  let ideas: any[];
  beforeAll(async () => {
    u = await makeUser(t, { plan: "pro" });
    ideas = await newIdeas(t, u, 6, (i) => ({
      title: `f${i}`,
      status: i % 2 === 0 ? "captured" : "building",
      tags: i < 3 ? ["ml"] : ["ML"],
    }));
    const [f0, f1, f2, f3, f4, f5] = ideas;
    await seedRelation(t, u, { source: f0.id, target: f1.id, type: "blocks" });
    await seedRelation(t, u, { source: f2.id, target: f3.id, type: "inspires", by: "system", score: 0.8 });
    await seedRelation(t, u, { source: f4.id, target: f5.id, type: "blocks" });
    // f5's blocks partner f4 gets archived below: that relation must stop counting for f5
    await call(t, "DELETE", `/ideas/${f4.id}`, { key: u.key });
  });

  test("status", async () => {
    expect(titles(await list(u, "?status=building"))).toEqual(["f5", "f3", "f1"]);
    expect(titles(await list(u, "?status=shipped"))).toEqual([]);
  });

  test("an unknown status is 400 on the status field", async () => {
    const r = await call(t, "GET", "/ideas?status=done", { key: u.key });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.error)).toEqual(["status"]);
  });

  test("tag is an exact (case-sensitive) name", async () => {
    expect(titles(await list(u, "?tag=ml"))).toEqual(["f2", "f1", "f0"]);
    expect(titles(await list(u, "?tag=ML"))).toEqual(["f5", "f3"]);
    expect(titles(await list(u, "?tag=m"))).toEqual([]);
  });

  test("connection_types returns ideas at either end of a relation of those types", async () => {
    expect(titles(await list(u, "?connection_types=blocks"))).toEqual(["f1", "f0"]);
    expect(titles(await list(u, "?connection_types=inspires"))).toEqual(["f3", "f2"]);
    expect(titles(await list(u, "?connection_types=blocks,%20inspires"))).toEqual(["f3", "f2", "f1", "f0"]);
    expect(titles(await list(u, "?connection_types=related"))).toEqual([]);
  });

  test("a relation whose other end is archived does not count", async () => {
    expect(titles(await list(u, "?connection_types=blocks"))).not.toContain("f5");
  });

  test("an unknown relation type is 400 on connection_types", async () => {
    const r = await call(t, "GET", "/ideas?connection_types=blocks,friends", { key: u.key });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.error)).toEqual(["connection_types"]);
  });

  test("status combines with tag and with connection_types", async () => {
    expect(titles(await list(u, "?status=captured&tag=ml"))).toEqual(["f2", "f0"]);
    expect(titles(await list(u, "?status=building&connection_types=blocks"))).toEqual(["f1"]);
  });

  test("tag and connection_types do not combine: tag wins", async () => {
    expect(titles(await list(u, "?tag=ML&connection_types=blocks"))).toEqual(["f5", "f3"]);
    // the ignored parameter is not even validated
    expect(titles(await list(u, "?tag=ML&connection_types=nonsense"))).toEqual(["f5", "f3"]);
  });

  test("another account's relations do not match", async () => {
    const other = await makeUser(t, { plan: "pro" });
    const [x, y] = await newIdeas(t, other, 2);
    await seedRelation(t, other, { source: x.id, target: y.id, type: "supersedes" });
    expect(titles(await list(u, "?connection_types=supersedes"))).toEqual([]);
    expect((await list(other, "?connection_types=supersedes")).ideas).toHaveLength(2);
  });
});

describe("pagination", () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await makeUser(t, { plan: "pro" });
    await newIdeas(t, u, 105, (i) => ({ title: `p${i}` }));
  });

  test("limit defaults to 20", async () => {
    const page = await list(u);
    expect(page.ideas).toHaveLength(20);
    expect(page.ideas[0].title).toBe("p104");
    expect(page.has_more).toBe(true);
  });

  test("limit is clamped to 100 without an error", async () => {
    const page = await list(u, "?limit=500");
    expect(page.ideas).toHaveLength(100);
    expect(page.has_more).toBe(true);
  });

  test("offset skips; has_more is true exactly when the page is full, so the last full page reports true", async () => {
    const page = await list(u, "?limit=5&offset=100");
    expect(titles(page)).toEqual(["p4", "p3", "p2", "p1", "p0"]);
    expect(page.has_more).toBe(true);
    const after = await list(u, "?limit=5&offset=105");
    expect(after).toEqual({ ideas: [], has_more: false });
    const partial = await list(u, "?limit=10&offset=100");
    expect(partial.ideas).toHaveLength(5);
    expect(partial.has_more).toBe(false);
  });

  test("paging with offset visits every idea once", async () => {
    const seen: string[] = [];
    for (let offset = 0; ; offset += 30) {
      const page = await list(u, `?limit=30&offset=${offset}`);
      seen.push(...titles(page));
      if (!page.has_more) break;
    }
    expect(seen).toHaveLength(105);
    expect(new Set(seen).size).toBe(105);
  });

  test("limit below 1 reads as 1; unreadable limit or offset fall back to the defaults", async () => {
    expect((await list(u, "?limit=0")).ideas).toHaveLength(1);
    expect((await list(u, "?limit=-7")).ideas).toHaveLength(1);
    expect((await list(u, "?limit=abc")).ideas).toHaveLength(20);
    expect((await list(u, "?limit=2.9")).ideas).toHaveLength(2);
    expect(titles(await list(u, "?limit=1&offset=-3"))).toEqual(["p104"]);
    expect(titles(await list(u, "?limit=1&offset=zz"))).toEqual(["p104"]);
  });
});
