// The cycle rule on POST /map/relations: which types are checked, force, the exact refusal text, the 50-hop horizon.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { archiveIdea, seedIdea, seedIdeas, seedRelation, relationCount } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

const post = (u: TestUser, body: unknown, query = "") => call(t, "POST", `/map/relations${query}`, { key: u.key, body });
const chainText = (ids: number[]) => `This would create a circular blocking chain: ${ids.map((i) => `#${i}`).join(" → ")}`;

/** n ideas joined by existing `type` edges n0 → n1 → … → n(n-1). */
async function chain(u: TestUser, n: number, type: string, by: "user" | "system" = "user"): Promise<number[]> {
  const ids = await seedIdeas(t, u, n);
  for (let i = 0; i + 1 < n; i++) await seedRelation(t, u, { source: ids[i], target: ids[i + 1], type, by });
  return ids;
}

describe("refused types", () => {
  for (const type of ["blocks", "parent"]) {
    test(`${type}: a closing edge is 400 with the chain new-source → target → … → new-source, force or not`, async () => {
      const u = await makeUser(t, { plan: "pro" });
      const [a, b, c] = await chain(u, 3, type); // a → b → c
      for (const q of ["", "?force=true"]) {
        const r = await post(u, { source_idea_id: c, target_idea_id: a, relation_type: type }, q);
        expect(r.status).toBe(400);
        expect(r.body).toEqual({ error: chainText([c, a, b, c]) });
      }
      expect(await relationCount(t, "source_idea_id = ?", c)).toBe(0);
    });
  }

  test("the two-node case names both ids", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = await chain(u, 2, "blocks");
    expect((await post(u, { source_idea_id: b, target_idea_id: a, relation_type: "blocks" })).body).toEqual({ error: chainText([b, a, b]) });
  });

  test("the shortest chain is reported", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b, c, d] = await chain(u, 4, "blocks"); // a → b → c → d
    await seedRelation(t, u, { source: a, target: d, type: "blocks" }); // shortcut a → d
    expect((await post(u, { source_idea_id: d, target_idea_id: a, relation_type: "blocks" })).body).toEqual({ error: chainText([d, a, d]) });
    expect([b, c].every(Number.isInteger)).toBe(true);
  });

  test("system-made edges of the same type count (parent relations from parent_id)", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = await chain(u, 2, "parent", "system");
    expect((await post(u, { source_idea_id: b, target_idea_id: a, relation_type: "parent" })).status).toBe(400);
  });

  test("edges of another type do not close a cycle", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, , c] = await chain(u, 3, "parent");
    expect((await post(u, { source_idea_id: c, target_idea_id: a, relation_type: "blocks" })).status).toBe(201);
  });

  test("the walk follows edge direction: a → b plus a → c does not refuse c → b", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b, c] = [await seedIdea(t, u), await seedIdea(t, u), await seedIdea(t, u)];
    await seedRelation(t, u, { source: a, target: b, type: "blocks" });
    await seedRelation(t, u, { source: a, target: c, type: "blocks" });
    expect((await post(u, { source_idea_id: c, target_idea_id: b, relation_type: "blocks" })).status).toBe(201);
  });

  test("archived ideas break a chain (the walk only visits unarchived ideas)", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b, c] = await chain(u, 3, "blocks");
    await archiveIdea(t, b);
    expect((await post(u, { source_idea_id: c, target_idea_id: a, relation_type: "blocks" })).status).toBe(201);
  });
});

describe("supersedes", () => {
  test("refused without force, with the hint at the end", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = await chain(u, 2, "supersedes");
    for (const q of ["", "?force=false", "?force=1"]) {
      const r = await post(u, { source_idea_id: b, target_idea_id: a, relation_type: "supersedes" }, q);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: `${chainText([b, a, b])}. Use ?force=true to create it anyway.` });
    }
  });

  test("created with force=true", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = await chain(u, 2, "supersedes");
    const r = await post(u, { source_idea_id: b, target_idea_id: a, relation_type: "supersedes" }, "?force=true");
    expect(r.status).toBe(201);
  });
});

describe("unchecked types", () => {
  for (const type of ["related", "inspires"]) {
    test(`${type} may close a cycle`, async () => {
      const u = await makeUser(t, { plan: "pro" });
      const [a, , c] = await chain(u, 3, type);
      expect((await post(u, { source_idea_id: c, target_idea_id: a, relation_type: type })).status).toBe(201);
    });
  }
});

describe("the 50-hop horizon", () => {
  test("a path of exactly 50 existing edges back to the source is found", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const ids = await chain(u, 51, "blocks"); // 50 edges: ids[0] → … → ids[50]
    const r = await post(u, { source_idea_id: ids[50], target_idea_id: ids[0], relation_type: "blocks" });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(chainText([ids[50], ...ids]));
  });

  test("a path of 51 edges is beyond the walk and the relation is created", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const ids = await chain(u, 52, "blocks"); // 51 edges
    const r = await post(u, { source_idea_id: ids[51], target_idea_id: ids[0], relation_type: "blocks" });
    expect(r.status).toBe(201);
  });
});

describe("PATCH re-runs the rule when the type changes", () => {
  test("retyping into a closing blocks edge is refused; force lets supersedes through", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = await chain(u, 2, "blocks"); // a → b blocks
    await seedRelation(t, u, { source: b, target: a, type: "supersedes" });
    const backRel = (await t.deps.store.query("SELECT id FROM relations WHERE source_idea_id = ? AND target_idea_id = ?").get(b, a)) as { id: number };
    const r = await call(t, "PATCH", `/map/relations/${backRel.id}`, { key: u.key, body: { relation_type: "blocks" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: chainText([b, a, b]) });
    // Keeping the same type checks nothing (the state already exists).
    const same = await call(t, "PATCH", `/map/relations/${backRel.id}`, { key: u.key, body: { relation_type: "supersedes", note: "x" } });
    expect(same.status).toBe(200);
    const fwd = (await t.deps.store.query("SELECT id FROM relations WHERE source_idea_id = ? AND target_idea_id = ?").get(a, b)) as { id: number };
    const refused = await call(t, "PATCH", `/map/relations/${fwd.id}`, { key: u.key, body: { relation_type: "supersedes" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(`${chainText([a, b, a])}. Use ?force=true to create it anyway.`);
    const forced = await call(t, "PATCH", `/map/relations/${fwd.id}?force=true`, { key: u.key, body: { relation_type: "supersedes" } });
    expect(forced.status).toBe(200);
    expect(forced.body.relation.relation_type).toBe("supersedes");
  });
});
