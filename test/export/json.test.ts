// POST /user/export: the JSON document (format marker, profile, tags with counts, ideas with tags/links/relations).
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { archiveIdea, seedIdea, seedLink, seedIdeas, seedRelation, tagIdea } from "../fixtures/seed";
import { testStore } from "../support/postgres";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

describe("POST /user/export", () => {
  test("answers the whole document as JSON, not as a download", async () => {
    const u = await makeUser(t);
    const a = await seedIdea(t, u, { title: "First", body: "B1", status: "building", source: "cli", source_url: "https://x.test/1", source_summary: "sum", created_at: "2026-01-01 00:00:00", updated_at: "2026-01-02 00:00:00" });
    const b = await seedIdea(t, u, { title: "Second", parent_id: a, created_at: "2026-01-03 00:00:00" });
    await tagIdea(t, u.id, a, "zeta", "#112233");
    await tagIdea(t, u.id, a, "alpha");
    await tagIdea(t, u.id, b, "alpha");
    const link = await seedLink(t, a, { url: "https://docs.test", title: "Docs", link_type: "code-repo", created_at: "2026-01-04 00:00:00" });
    const rel = await seedRelation(t, u, { source: a, target: b, type: "blocks", note: "n", created_at: "2026-01-05 00:00:00" });
    const sys = await seedRelation(t, u, { source: b, target: a, type: "related", score: 0.81, by: "system", created_at: "2026-01-06 00:00:00" });

    const r = await call(t, "POST", "/user/export", { key: u.key });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("application/json");
    expect(r.headers.get("content-disposition")).toBeNull();
    const numberOf = async (id: number) => ((await t.deps.store.query("SELECT number FROM ideas WHERE id = ?").get(id)) as any).number;
    expect(r.body).toMatchObject({ format: "idearepo-export", version: 1, exported_at: "2026-03-01 12:00:00", idea_count: 2, truncated: false });
    expect(r.body.tags).toEqual([
      { id: expect.any(Number), name: "alpha", color: null, created_at: expect.any(String), idea_count: 2 },
      { id: expect.any(Number), name: "zeta", color: "#112233", created_at: expect.any(String), idea_count: 1 },
    ]);
    expect(r.body.ideas).toEqual([
      {
        id: a, number: await numberOf(a), title: "First", body: "B1", status: "building", source: "cli", source_url: "https://x.test/1",
        source_summary: "sum", parent_id: null, created_at: "2026-01-01 00:00:00", updated_at: "2026-01-02 00:00:00",
        tags: ["alpha", "zeta"],
        links: [{ id: link, url: "https://docs.test", title: "Docs", link_type: "code-repo", created_at: "2026-01-04 00:00:00" }],
        relations: [{ id: rel, source_idea_id: a, target_idea_id: b, relation_type: "blocks", score: null, note: "n", created_by: "user", created_at: "2026-01-05 00:00:00" }],
        versions: [{ version: 1, title: "First", body: "B1", writer: "cli", created_at: "2026-01-01 00:00:00" }],
      },
      {
        id: b, number: await numberOf(b), title: "Second", body: "", status: "captured", source: "api", source_url: null,
        source_summary: null, parent_id: a, created_at: "2026-01-03 00:00:00", updated_at: "2026-01-03 00:00:00",
        tags: ["alpha"], links: [],
        relations: [{ id: sys, source_idea_id: b, target_idea_id: a, relation_type: "related", score: 0.81, note: null, created_by: "system", created_at: "2026-01-06 00:00:00" }],
        versions: [{ version: 1, title: "Second", body: "", writer: "api", created_at: "2026-01-03 00:00:00" }],
      },
    ]);
  });

  test("the profile is the User object: no encrypted provider keys, no password hash", async () => {
    const u = await makeUser(t, { plan: "pro", password: "long enough pw" });
    await t.deps.store.query("UPDATE users SET provider_a_key_enc = 'SECRET-CIPHERTEXT' WHERE id = ?").run(u.id);
    const r = await call(t, "POST", "/user/export", { key: u.key });
    expect(r.body.profile).toMatchObject({ id: u.id, email: u.email, plan: "pro", has_provider_a_key: true, has_provider_b_key: false });
    expect(r.text).not.toContain("SECRET-CIPHERTEXT");
    expect(r.text).not.toContain("password");
    expect(Object.keys(r.body.profile).some((k) => k.endsWith("_enc"))).toBe(false);
  });

  test("archived ideas are excluded, with their relations, parent pointers and tag counts", async () => {
    const u = await makeUser(t);
    const gone = await seedIdea(t, u, { title: "Gone", tags: ["shared"] });
    const live = await seedIdea(t, u, { title: "Live", parent_id: gone, tags: ["shared"] });
    await seedRelation(t, u, { source: live, target: gone });
    await seedRelation(t, u, { source: gone, target: live, type: "inspires" });
    await archiveIdea(t, gone);
    const r = await call(t, "POST", "/user/export", { key: u.key });
    expect(r.body.ideas.map((i: any) => i.title)).toEqual(["Live"]);
    expect(r.body.ideas[0].relations).toEqual([]);
    expect(r.body.ideas[0].parent_id).toBeNull();
    expect(r.body.tags).toEqual([expect.objectContaining({ name: "shared", idea_count: 1 })]);
    expect(r.body.idea_count).toBe(1);
    expect(r.text).not.toContain("Gone");
  });

  test("holds only the caller's data", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    await seedIdea(t, u, { title: "mine", tags: ["t-mine"] });
    const x = await seedIdea(t, other, { title: "theirs", tags: ["t-theirs"] });
    await seedLink(t, x, { url: "https://theirs.test" });
    const r = await call(t, "POST", "/user/export", { key: u.key });
    expect(r.body.ideas.map((i: any) => i.title)).toEqual(["mine"]);
    expect(r.body.tags.map((x: any) => x.name)).toEqual(["t-mine"]);
    expect(r.text).not.toContain("theirs");
  });

  test("an empty account exports an empty document; every plan may export; credentials required", async () => {
    const free = await makeUser(t, { plan: "free" });
    const r = await call(t, "POST", "/user/export", { key: free.key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ idea_count: 0, tags: [], ideas: [] });
    expect((await call(t, "POST", "/user/export")).status).toBe(401);
  });

  test("takes no body: a stray JSON content type or body is ignored", async () => {
    const u = await makeUser(t);
    await seedIdea(t, u);
    const r = await call(t, "POST", "/user/export", { key: u.key, raw: "{not json", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(200);
    expect(r.body.ideas.length).toBe(1);
  });
});

// SQLite's: the cap is the same SQL on both stores (and the copy test holds every export equal across them), while
// seeding 10,002 ideas on PostgreSQL beside three other suites outlasted four minutes in CI.
describe.skipIf(testStore() === "postgres")("the 10,000-idea cap", () => {
  test("exports the first 10,000 unarchived ideas by number and says it truncated", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const ids = await seedIdeas(t, u, 10_002, (i) => ({ title: `n${i}` }));
    await archiveIdea(t, ids[5]); // archived ideas do not use up the cap
    const last = ids[10_000]; // the 10,000th unarchived idea
    const beyond = ids[10_001];
    await seedRelation(t, u, { source: ids[0], target: beyond, type: "blocks" });
    await seedRelation(t, u, { source: ids[0], target: last, type: "inspires" });
    const r = await call(t, "POST", "/user/export", { key: u.key });
    expect(r.headers.get("x-export-truncated")).toBe("true");
    expect(r.body.truncated).toBe(true);
    expect(r.body.idea_count).toBe(10_000);
    expect(r.body.ideas.length).toBe(10_000);
    expect(r.body.ideas[9_999].id).toBe(last);
    expect(r.body.ideas.some((i: any) => i.id === beyond)).toBe(false);
    // A relation pointing past the cap would dangle, so it is left out as well.
    expect(r.body.ideas[0].relations.map((x: any) => x.target_idea_id)).toEqual([last]);
  }, 240_000);
});
