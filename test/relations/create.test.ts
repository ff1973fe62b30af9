// POST /map/relations: single and bulk bodies, uniqueness per creator, validation, ownership, the archive rule.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { archiveIdea, seedIdea, seedIdeas, seedRelation, relationCount } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

const post = (u: TestUser, body: unknown, query = "") => call(t, "POST", `/map/relations${query}`, { key: u.key, body });

describe("POST /map/relations (single)", () => {
  test("201 with exactly id, ends, type and note; defaults to related; stored as user-made with null score", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const a = await seedIdea(t, u);
    const b = await seedIdea(t, u);
    const r = await post(u, { source_idea_id: a, target_idea_id: b, note: "why" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ relation: { id: expect.any(Number), source_idea_id: a, target_idea_id: b, relation_type: "related", note: "why" } });
    const row = (await t.deps.store.query("SELECT * FROM relations WHERE id = ?").get(r.body.relation.id)) as any;
    expect(row).toMatchObject({ user_id: u.id, created_by: "user", score: null, created_at: "2026-03-01 12:00:00" });
  });

  test("note is null when omitted and silently truncated to 500 characters", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b, c] = [await seedIdea(t, u), await seedIdea(t, u), await seedIdea(t, u)];
    expect((await post(u, { source_idea_id: a, target_idea_id: b })).body.relation.note).toBeNull();
    const long = "x".repeat(499) + "😀" + "tail";
    const r = await post(u, { source_idea_id: a, target_idea_id: c, relation_type: "inspires", note: long });
    expect(r.status).toBe(201);
    expect(Array.from(r.body.relation.note).length).toBe(500);
    expect(r.body.relation.note).toBe("x".repeat(499) + "😀");
  });

  test("every user type is accepted", async () => {
    const u = await makeUser(t, { plan: "pro" });
    for (const type of ["related", "parent", "blocks", "inspires", "supersedes"]) {
      const r = await post(u, { source_idea_id: await seedIdea(t, u), target_idea_id: await seedIdea(t, u), relation_type: type });
      expect(r.status).toBe(201);
      expect(r.body.relation.relation_type).toBe(type);
    }
  });

  test("400 for unknown types, including the system-only duplicate", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = [await seedIdea(t, u), await seedIdea(t, u)];
    for (const type of ["duplicate", "child", "", "BLOCKS"]) {
      const r = await post(u, { source_idea_id: a, target_idea_id: b, relation_type: type });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.error)).toEqual(["relation_type"]);
    }
    expect(await relationCount(t, "source_idea_id = ?", a)).toBe(0);
  });

  test("400 for a self-link", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const a = await seedIdea(t, u);
    const r = await post(u, { source_idea_id: a, target_idea_id: a });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "Cannot relate an idea to itself" });
  });

  test("400 for missing or non-integer ids", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const a = await seedIdea(t, u);
    expect((await post(u, { target_idea_id: a })).body).toEqual({ error: { source_idea_id: ["source_idea_id is required"] } });
    expect((await post(u, { source_idea_id: a })).body).toEqual({ error: { target_idea_id: ["target_idea_id is required"] } });
    const r = await post(u, { source_idea_id: "a", target_idea_id: a });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.error)).toEqual(["source_idea_id"]);
    expect((await post(u, { source_idea_id: 1.5, target_idea_id: a })).status).toBe(400);
  });

  test("404 when either idea is absent or another account's; nothing is written", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const other = await makeUser(t, { plan: "pro" });
    const mine = await seedIdea(t, u);
    const theirs = await seedIdea(t, other);
    for (const body of [
      { source_idea_id: mine, target_idea_id: 987654 },
      { source_idea_id: 987654, target_idea_id: mine },
      { source_idea_id: mine, target_idea_id: theirs },
      { source_idea_id: theirs, target_idea_id: mine },
    ]) {
      const r = await post(u, body);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: "Idea not found" });
    }
    expect(await relationCount(t, "source_idea_id IN (?, ?) OR target_idea_id IN (?, ?)", mine, theirs, mine, theirs)).toBe(0);
  });

  test("400 when an end is archived (archived ideas are outside every relation)", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = [await seedIdea(t, u), await seedIdea(t, u)];
    await archiveIdea(t, b);
    const r = await post(u, { source_idea_id: a, target_idea_id: b });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: `Idea #${b} is archived and cannot be related` });
  });

  test("Free accounts get the plan gate before validation", async () => {
    const u = await makeUser(t, { plan: "free" });
    const r = await post(u, { nonsense: true });
    expect(r.status).toBe(403);
    expect(r.body.pro_required).toBe(true);
  });
});

describe("uniqueness", () => {
  test("a second user relation for the same ordered pair is 409 whatever its type", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = [await seedIdea(t, u), await seedIdea(t, u)];
    expect((await post(u, { source_idea_id: a, target_idea_id: b, relation_type: "blocks" })).status).toBe(201);
    for (const type of ["blocks", "related", "inspires"]) {
      const r = await post(u, { source_idea_id: a, target_idea_id: b, relation_type: type });
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ error: "Relation already exists" });
    }
    expect(await relationCount(t, "source_idea_id = ? AND target_idea_id = ?", a, b)).toBe(1);
  });

  test("the reverse pair is a different pair", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = [await seedIdea(t, u), await seedIdea(t, u)];
    expect((await post(u, { source_idea_id: a, target_idea_id: b, relation_type: "inspires" })).status).toBe(201);
    expect((await post(u, { source_idea_id: b, target_idea_id: a, relation_type: "inspires" })).status).toBe(201);
  });

  test("a system relation for the pair does not block a user one; both coexist", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = [await seedIdea(t, u), await seedIdea(t, u)];
    await seedRelation(t, u, { source: a, target: b, type: "related", score: 0.7, by: "system" });
    const r = await post(u, { source_idea_id: a, target_idea_id: b, relation_type: "related" });
    expect(r.status).toBe(201);
    expect(await relationCount(t, "source_idea_id = ? AND target_idea_id = ?", a, b)).toBe(2);
  });
});

describe("POST /map/relations (bulk)", () => {
  test("creates each valid link and reports per-link errors with 201", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const other = await makeUser(t, { plan: "pro" });
    const [a, b, c] = [await seedIdea(t, u), await seedIdea(t, u), await seedIdea(t, u)];
    const foreign = await seedIdea(t, other);
    const r = await post(u, {
      links: [
        { source_idea_id: a, target_idea_id: b, relation_type: "blocks", note: "n" },
        { source_idea_id: a, target_idea_id: b },
        { source_idea_id: a, target_idea_id: a },
        { source_idea_id: a, target_idea_id: foreign },
        { source_idea_id: b, target_idea_id: c, relation_type: "duplicate" },
        { source_idea_id: b, target_idea_id: c },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.body.linked).toBe(2);
    expect(r.body.errors).toBe(4);
    const ids = (await t.deps.store.query("SELECT id FROM relations WHERE user_id = ? ORDER BY id").all(u.id)).map((x: any) => x.id);
    expect(r.body.results).toEqual([
      { source_idea_id: a, target_idea_id: b, relation_type: "blocks", status: "created", relation_id: ids[0] },
      { source_idea_id: a, target_idea_id: b, relation_type: "related", status: "error", error: "Relation already exists" },
      { source_idea_id: a, target_idea_id: a, relation_type: "related", status: "error", error: "Cannot relate an idea to itself" },
      { source_idea_id: a, target_idea_id: foreign, relation_type: "related", status: "error", error: "Idea not found" },
      { source_idea_id: b, target_idea_id: c, relation_type: "duplicate", status: "error", error: expect.stringContaining("relation_type must be one of") },
      { source_idea_id: b, target_idea_id: c, relation_type: "related", status: "created", relation_id: ids[1] },
    ]);
    expect(await relationCount(t, "user_id = ?", other.id)).toBe(0);
  });

  test("201 even when every link failed", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const a = await seedIdea(t, u);
    const r = await post(u, { links: [{ source_idea_id: a, target_idea_id: a }, { source_idea_id: a, target_idea_id: 999999 }] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ linked: 0, errors: 2 });
  });

  test("a later link sees the earlier ones: a cycle closed inside one batch is refused", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = [await seedIdea(t, u), await seedIdea(t, u)];
    const r = await post(u, {
      links: [
        { source_idea_id: a, target_idea_id: b, relation_type: "blocks" },
        { source_idea_id: b, target_idea_id: a, relation_type: "blocks" },
      ],
    });
    expect(r.body.results[1]).toMatchObject({ status: "error", error: `This would create a circular blocking chain: #${b} → #${a} → #${b}` });
  });

  test("force applies to every link of the batch", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = [await seedIdea(t, u), await seedIdea(t, u)];
    const links = [
      { source_idea_id: a, target_idea_id: b, relation_type: "supersedes" },
      { source_idea_id: b, target_idea_id: a, relation_type: "supersedes" },
    ];
    expect((await post(u, { links })).body.linked).toBe(1);
    const u2 = await makeUser(t, { plan: "pro" });
    const [c, d] = [await seedIdea(t, u2), await seedIdea(t, u2)];
    const forced = await post(u2, { links: links.map((l, i) => ({ ...l, source_idea_id: i ? d : c, target_idea_id: i ? c : d })) }, "?force=true");
    expect(forced.body.linked).toBe(2);
  });

  test("1 to 50 links: 0 and 51 are 400 and write nothing", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const ids = await seedIdeas(t, u, 52);
    const many = ids.slice(1).map((id) => ({ source_idea_id: ids[0], target_idea_id: id }));
    expect(many.length).toBe(51);
    const over = await post(u, { links: many });
    expect(over.status).toBe(400);
    expect(Object.keys(over.body.error)).toEqual(["links"]);
    expect((await post(u, { links: [] })).status).toBe(400);
    expect(await relationCount(t, "user_id = ?", u.id)).toBe(0);
    const fifty = await post(u, { links: many.slice(0, 50) });
    expect(fifty.status).toBe(201);
    expect(fifty.body.linked).toBe(50);
  });

  test("a structurally bad entry (missing id) is a 400 for the whole batch", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = [await seedIdea(t, u), await seedIdea(t, u)];
    const r = await post(u, { links: [{ source_idea_id: a, target_idea_id: b }, { source_idea_id: a }] });
    expect(r.status).toBe(400);
    expect(await relationCount(t, "user_id = ?", u.id)).toBe(0);
  });
});

describe("with ideas captured through POST /ideas", () => {
  test("relations connect API-made ideas; a read-only MCP token cannot create them", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const a = await call(t, "POST", "/ideas", { key: u.key, body: { title: "Captured A" } });
    const b = await call(t, "POST", "/ideas", { key: u.key, body: { title: "Captured B" } });
    expect([a.status, b.status]).toEqual([201, 201]);
    const r = await post(u, { source_idea_id: a.body.id, target_idea_id: b.body.id, relation_type: "inspires" });
    expect(r.status).toBe(201);
    const listed = await call(t, "GET", `/ideas/${b.body.id}/relations`, { key: u.key });
    expect(listed.body.incoming).toEqual([expect.objectContaining({ id: r.body.relation.id, idea_id: a.body.id, idea_title: "Captured A", idea_number: a.body.number })]);
    const { createApiKeysService } = await import("../../src/modules/api-keys/service");
    const reader = (await createApiKeysService(t.deps).mint(u.id, "MCP (test)", "ideas:read", "mcp")).key;
    const refused = await call(t, "POST", "/map/relations", { key: reader, body: { source_idea_id: b.body.id, target_idea_id: a.body.id } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Insufficient scope: requires ideas:write" });
    expect((await call(t, "GET", `/ideas/${a.body.id}/relations`, { key: reader })).status).toBe(200);
  });
});
