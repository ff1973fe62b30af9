// /ideas/:id/links: list newest first, add with validation and defaults, delete that never 404s, ownership.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { newIdea } from "../fixtures/seed";

const t = makeApp({ now: "2026-02-01T00:00:00Z" });
afterAll(() => t.close());

const listLinks = (u: TestUser, id: number | string) => call(t, "GET", `/ideas/${id}/links`, { key: u.key });
const addLink = (u: TestUser, id: number | string, body: unknown) => call(t, "POST", `/ideas/${id}/links`, { key: u.key, body });
const delLink = (u: TestUser, id: number | string, linkId: number | string) => call(t, "DELETE", `/ideas/${id}/links/${linkId}`, { key: u.key });

describe("POST /ideas/:id/links", () => {
  test("201 {link} with the documented fields; link_type defaults to url, title to null", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    const r = await addLink(u, idea.id, { url: "https://example.com/a" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      link: { id: expect.any(Number), idea_id: idea.id, url: "https://example.com/a", title: null, link_type: "url", created_at: "2026-02-01 00:00:00" },
    });
  });

  test("every link_type is accepted; title stored; duplicate URLs are separate rows; URL kept as given", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    for (const link_type of ["url", "assistant-chat", "code-repo", "code-issue", "attachment"]) {
      const r = await addLink(u, idea.id, { url: "vscode://file/x?y=1#z", title: "Same place", link_type });
      expect(r.status).toBe(201);
      expect(r.body.link).toMatchObject({ link_type, title: "Same place", url: "vscode://file/x?y=1#z" });
    }
    expect((await listLinks(u, idea.id)).body.links).toHaveLength(5);
  });

  const invalid: Array<[string, unknown, string]> = [
    ["missing url", {}, "url"],
    ["unparseable url", { url: "not a url" }, "url"],
    ["url over 2,000", { url: "https://e.com/" + "a".repeat(1987) }, "url"],
    ["title over 200", { url: "https://e.com", title: "t".repeat(201) }, "title"],
    ["unknown link_type", { url: "https://e.com", link_type: "video" }, "link_type"],
  ];
  for (const [name, body, field] of invalid) {
    test(`400: ${name}`, async () => {
      const u = await makeUser(t);
      const idea = await newIdea(t, u);
      const r = await addLink(u, idea.id, body);
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.error)).toEqual([field]);
      expect((await listLinks(u, idea.id)).body.links).toEqual([]);
    });
  }

  test("limits are inclusive: a 2,000-character URL and a 200-character title", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    expect((await addLink(u, idea.id, { url: "https://e.com/" + "a".repeat(1986), title: "t".repeat(200) })).status).toBe(201);
  });

  test("404 for another account's or an absent idea; 400 for a non-numeric id", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const idea = await newIdea(t, a);
    expect(await addLink(b, idea.id, { url: "https://e.com" })).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    expect((await listLinks(a, idea.id)).body.links).toEqual([]);
    expect((await addLink(a, 919_191, { url: "https://e.com" })).status).toBe(404);
    expect(await addLink(a, "x", { url: "nope" })).toMatchObject({ status: 400, body: { error: "Invalid idea ID" } });
  });

  test("links can be added to an archived idea, which stays readable", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    await call(t, "DELETE", `/ideas/${idea.id}`, { key: u.key });
    expect((await addLink(u, idea.id, { url: "https://e.com" })).status).toBe(201);
  });
});

describe("GET /ideas/:id/links", () => {
  test("newest first; only that idea's links", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    const other = await newIdea(t, u);
    await addLink(u, idea.id, { url: "https://one.example" });
    t.clock.advance(1000);
    await addLink(u, idea.id, { url: "https://two.example" });
    await addLink(u, other.id, { url: "https://elsewhere.example" });
    const r = await listLinks(u, idea.id);
    expect(r.status).toBe(200);
    expect(r.body.links.map((l: any) => l.url)).toEqual(["https://two.example", "https://one.example"]);
  });

  test("404 for another account's idea; 400 non-numeric", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const idea = await newIdea(t, a);
    await addLink(a, idea.id, { url: "https://private.example" });
    expect(await listLinks(b, idea.id)).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    expect((await listLinks(a, "abc")).status).toBe(400);
  });
});

describe("DELETE /ideas/:id/links/:linkId", () => {
  test("deletes the link: 200 {success:true}", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    const link = (await addLink(u, idea.id, { url: "https://bye.example" })).body.link;
    expect(await delLink(u, idea.id, link.id)).toMatchObject({ status: 200, body: { success: true } });
    expect((await listLinks(u, idea.id)).body.links).toEqual([]);
  });

  test("a nonexistent link still answers success", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    expect(await delLink(u, idea.id, 123_456)).toMatchObject({ status: 200, body: { success: true } });
  });

  test("the link must belong to the idea in the path: otherwise success but nothing is deleted", async () => {
    const u = await makeUser(t);
    const a = await newIdea(t, u);
    const b = await newIdea(t, u);
    const link = (await addLink(u, a.id, { url: "https://a.example" })).body.link;
    expect((await delLink(u, b.id, link.id)).body).toEqual({ success: true });
    expect((await listLinks(u, a.id)).body.links).toHaveLength(1);
  });

  test("another account cannot delete a link, even naming the right idea (success, nothing deleted)", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const idea = await newIdea(t, a);
    const link = (await addLink(a, idea.id, { url: "https://kept.example" })).body.link;
    expect(await delLink(b, idea.id, link.id)).toMatchObject({ status: 200, body: { success: true } });
    expect((await listLinks(a, idea.id)).body.links).toHaveLength(1);
  });

  test("non-numeric ids are 400", async () => {
    const u = await makeUser(t);
    const idea = await newIdea(t, u);
    expect(await delLink(u, "x", 1)).toMatchObject({ status: 400, body: { error: "Invalid idea ID" } });
    expect(await delLink(u, idea.id, "y")).toMatchObject({ status: 400, body: { error: "Invalid link ID" } });
  });
});
