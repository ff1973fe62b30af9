// GET /ideas reads each idea's tags in the same statement as the page (as JSON text from SQLite): the names must come
// out exactly as stored and in the order every other idea view uses (code points, as SQLite's BINARY collation).
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { newIdea } from "../fixtures/seed";
import { NUL_REFUSED } from "../../src/http/error-handler";
import { testStore } from "../support/postgres";

const t = makeApp({ now: "2026-02-01T00:00:00Z" });
afterAll(() => t.close());

const list = async (u: TestUser, query = "") => {
  const r = await call(t, "GET", `/ideas${query}`, { key: u.key });
  if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
  return r.body as { ideas: any[]; has_more: boolean };
};
const detailTags = async (u: TestUser, id: number) => (await call(t, "GET", `/ideas/${id}`, { key: u.key })).body.tags as string[];

// U+FF5E sorts before U+1F600 by code point but after it by UTF-16 unit (0xFF5E > 0xD83D): a plain JS sort fails here.
// A NUL is kept on SQLite; PostgreSQL's text cannot hold one (a 400 there, below).
const NUL = testStore() === "postgres" ? [] : ["zero\u0000byte"];
const AWKWARD = ["b", "😀", "～", "A", "a", "é", 'say "hi"', "back\\slash", "tab\there", "line\nbreak", ...NUL];
const BY_CODE_POINT = ["A", "a", "b", "back\\slash", "line\nbreak", 'say "hi"', "tab\there", ...NUL, "é", "～", "😀"];

describe("tags in the list", () => {
  test("names come back exactly as stored, in code point order, the same as the idea's detail", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { title: "awkward tags", tags: AWKWARD });
    const [listed] = (await list(u)).ideas;
    expect(listed.id).toBe(idea.id);
    expect(listed.tags).toEqual(BY_CODE_POINT);
    expect(await detailTags(u, idea.id)).toEqual(BY_CODE_POINT);
  });

  test.skipIf(testStore() !== "postgres")("on PostgreSQL a NUL in a tag or a title is refused with 400 and nothing is stored", async () => {
    const u = await makeUser(t);
    for (const body of [{ title: "fine", tags: ["zero\u0000byte"] }, { title: "zero\u0000byte" }]) {
      const r = await call(t, "POST", "/ideas", { key: u.key, body });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: NUL_REFUSED });
    }
    expect((await list(u)).ideas).toEqual([]);
  });

  test("an idea without tags lists [], one with a single tag lists it, on every filter's statement", async () => {
    const u = await makeUser(t);
    const none = await newIdea(t, u, { title: "none" });
    t.clock.advance(1000);
    const one = await newIdea(t, u, { title: "one", tags: ["solo"], status: "building" });
    t.clock.advance(1000);
    const two = await newIdea(t, u, { title: "two", tags: ["zeta", "solo"] });
    const tagsOf = (body: { ideas: any[] }) => Object.fromEntries(body.ideas.map((i) => [i.title, i.tags]));
    expect(tagsOf(await list(u))).toEqual({ none: [], one: ["solo"], two: ["solo", "zeta"] });
    // The tag filter runs the catch-all statement: same shape, every tag of a matching idea (not only the filter's).
    expect(tagsOf(await list(u, "?tag=solo"))).toEqual({ one: ["solo"], two: ["solo", "zeta"] });
    expect(tagsOf(await list(u, "?status=building"))).toEqual({ one: ["solo"] });
    expect((await list(u)).ideas.map((i) => i.id)).toEqual([two.id, one.id, none.id]);
  });

  test("a renamed or removed tag shows at once: the list reads tags with the page, nothing is kept between requests", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u, { title: "renamed", tags: ["old", "keep"] });
    expect((await list(u)).ideas[0].tags).toEqual(["keep", "old"]);
    const tags = (await call(t, "GET", "/tags", { key: u.key })).body.tags as Array<{ id: number; name: string }>;
    const old = tags.find((x) => x.name === "old")!;
    expect((await call(t, "PATCH", `/tags/${old.id}`, { key: u.key, body: { name: "new" } })).status).toBe(200);
    expect((await list(u)).ideas[0].tags).toEqual(["keep", "new"]);
    expect((await call(t, "PATCH", `/ideas/${idea.id}`, { key: u.key, body: { tags: ["keep"] } })).status).toBe(200);
    expect((await list(u)).ideas[0].tags).toEqual(["keep"]);
  });
});
