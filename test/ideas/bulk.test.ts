// PATCH /ideas/bulk: id count, field rules, per-id results for unknown or foreign ids, tag arithmetic, light jobs.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { clearJobs, jobsFor, newIdea, newIdeas } from "../fixtures/seed";

const t = makeApp({ now: "2026-02-01T00:00:00Z" });
afterAll(() => t.close());

const bulk = (u: TestUser, body: unknown) => call(t, "PATCH", "/ideas/bulk", { key: u.key, body });
const get = async (u: TestUser, id: number) => (await call(t, "GET", `/ideas/${id}`, { key: u.key })).body;

describe("PATCH /ideas/bulk", () => {
  test("applies a status to every id and reports each", async () => {
    const u = await makeUser(t);
    const [a, b] = await newIdeas(t, u, 2);
    const r = await bulk(u, { ids: [a.id, b.id], status: "building" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ updated: 2, errors: 0, results: [{ id: a.id, status: "updated" }, { id: b.id, status: "updated" }] });
    expect((await get(u, a.id)).status).toBe("building");
    expect((await get(u, b.id)).status).toBe("building");
  });

  test("unknown and foreign ids become per-id error rows (never a 404) and foreign ideas stay untouched", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    const mine = await newIdea(t, u);
    const theirs = await newIdea(t, other);
    const r = await bulk(u, { ids: [theirs.id, mine.id, 999_999], status: "shipped" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      updated: 1,
      errors: 2,
      results: [
        { id: theirs.id, status: "error", error: "Idea not found" },
        { id: mine.id, status: "updated" },
        { id: 999_999, status: "error", error: "Idea not found" },
      ],
    });
    expect((await get(other, theirs.id)).status).toBe("captured");
  });

  test("tags replace; add_tags append; remove_tags remove; new names become tags", async () => {
    const u = await makeUser(t);
    const a = await newIdea(t, u, { tags: ["x", "y"] });
    const b = await newIdea(t, u, { tags: ["y"] });
    await bulk(u, { ids: [a.id, b.id], add_tags: ["z", "y"], remove_tags: ["x"] });
    expect((await get(u, a.id)).tags).toEqual(["y", "z"]);
    expect((await get(u, b.id)).tags).toEqual(["y", "z"]);
    await bulk(u, { ids: [a.id], tags: ["only"] });
    expect((await get(u, a.id)).tags).toEqual(["only"]);
    const names = (await call(t, "GET", "/tags", { key: u.key })).body.tags.map((x: any) => x.name);
    expect(names).toContain("only");
  });

  test("a name in both add_tags and remove_tags ends up removed", async () => {
    const u = await makeUser(t);
    const a = await newIdea(t, u, { tags: ["k"] });
    await bulk(u, { ids: [a.id], add_tags: ["both"], remove_tags: ["both"] });
    expect((await get(u, a.id)).tags).toEqual(["k"]);
  });

  test("an idea that would exceed 20 tags gets an error row; the others are updated", async () => {
    const u = await makeUser(t);
    const full = await newIdea(t, u, { tags: Array.from({ length: 20 }, (_, i) => `t${i}`) });
    const light = await newIdea(t, u);
    const r = await bulk(u, { ids: [full.id, light.id], add_tags: ["extra"] });
    expect(r.body.updated).toBe(1);
    expect(r.body.results[0]).toEqual({ id: full.id, status: "error", error: expect.stringContaining("20") });
    expect((await get(u, full.id)).tags).toHaveLength(20);
    expect((await get(u, light.id)).tags).toEqual(["extra"]);
  });

  test("repeated ids are handled once", async () => {
    const u = await makeUser(t);
    const a = await newIdea(t, u);
    const r = await bulk(u, { ids: [a.id, a.id], status: "shelved" });
    expect(r.body).toEqual({ updated: 1, errors: 0, results: [{ id: a.id, status: "updated" }] });
  });

  test("queues the light job (never the full one) for each changed idea", async () => {
    const u = await makeUser(t);
    const [a, b] = await newIdeas(t, u, 2);
    await clearJobs(t);
    await bulk(u, { ids: [a.id, b.id], status: "exploring", add_tags: ["q"] });
    expect(await jobsFor(t, a.id)).toEqual(["light"]);
    expect(await jobsFor(t, b.id)).toEqual(["light"]);
  });

  describe("400 for a bad payload", () => {
    const cases: Array<[string, (id: number) => unknown, unknown]> = [
      ["no ids", () => ({ status: "shipped" }), undefined],
      ["empty ids", () => ({ ids: [], status: "shipped" }), undefined],
      ["51 ids", (id) => ({ ids: Array.from({ length: 51 }, (_, i) => id + i), status: "shipped" }), undefined],
      ["non-integer ids", () => ({ ids: ["a"], status: "shipped" }), undefined],
      ["nothing to change", (id) => ({ ids: [id] }), "string"],
      ["tags with add_tags", (id) => ({ ids: [id], tags: ["a"], add_tags: ["b"] }), "string"],
      ["tags with remove_tags", (id) => ({ ids: [id], tags: ["a"], remove_tags: ["b"] }), "string"],
      ["unknown status", (id) => ({ ids: [id], status: "done" }), undefined],
      ["21 replacement tags", (id) => ({ ids: [id], tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }), undefined],
    ];
    for (const [name, body, kind] of cases) {
      test(name, async () => {
        const u = await makeUser(t);
        const idea = await newIdea(t, u);
        const r = await bulk(u, body(idea.id));
        expect(r.status).toBe(400);
        if (kind === "string") expect(typeof r.body.error).toBe("string");
        else expect(typeof r.body.error).toBe("object");
        expect((await get(u, idea.id)).status).toBe("captured");
      });
    }

    test("50 ids is allowed", async () => {
      const u = await makeUser(t);
      const idea = await newIdea(t, u);
      const ids = [idea.id, ...Array.from({ length: 49 }, (_, i) => 900_000 + i)];
      const r = await bulk(u, { ids, status: "shipped" });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ updated: 1, errors: 49 });
    });
  });
});
