// GET /ideas/:id/relations: both directions, flattened other side, ordering, the archive rule, ownership.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, STAMP_RE } from "../helpers";
import { archiveIdea, seedIdea, seedIdeas, seedRelation } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

describe("GET /ideas/:id/relations", () => {
  test("splits outgoing and incoming and flattens the other idea", async () => {
    const u = await makeUser(t);
    const a = await seedIdea(t, u, { title: "Alpha" });
    const b = await seedIdea(t, u, { title: "Beta", status: "building" });
    const c = await seedIdea(t, u, { title: "Gamma" });
    const out = await seedRelation(t, u, { source: a, target: b, type: "blocks", note: "first" });
    const inc = await seedRelation(t, u, { source: c, target: a, type: "related", score: 0.8, by: "system" });
    const r = await call(t, "GET", `/ideas/${a}/relations`, { key: u.key });
    expect(r.status).toBe(200);
    const numbers = new Map<number, number>();
    for (const id of [b, c]) numbers.set(id, ((await t.deps.store.query("SELECT number FROM ideas WHERE id = ?").get(id)) as { number: number }).number);
    const numberOf = (id: number) => numbers.get(id);
    expect(r.body.outgoing).toEqual([
      {
        id: out, relation_type: "blocks", score: null, note: "first", created_by: "user", created_at: expect.stringMatching(STAMP_RE),
        idea_id: b, idea_number: numberOf(b), idea_title: "Beta", idea_status: "building",
      },
    ]);
    expect(r.body.incoming).toEqual([
      {
        id: inc, relation_type: "related", score: 0.8, note: null, created_by: "system", created_at: expect.stringMatching(STAMP_RE),
        idea_id: c, idea_number: numberOf(c), idea_title: "Gamma", idea_status: "captured",
      },
    ]);
  });

  test("orders by relation_type, then score descending with nulls last, then creation", async () => {
    const u = await makeUser(t);
    const hub = await seedIdea(t, u);
    const others = await seedIdeas(t, u, 6);
    const ids = [
      await seedRelation(t, u, { source: hub, target: others[0], type: "related", score: 0.6, by: "system" }),
      await seedRelation(t, u, { source: hub, target: others[1], type: "blocks" }),
      await seedRelation(t, u, { source: hub, target: others[2], type: "related", score: 0.9, by: "system" }),
      await seedRelation(t, u, { source: hub, target: others[3], type: "related" }),
      await seedRelation(t, u, { source: hub, target: others[4], type: "inspires" }),
      await seedRelation(t, u, { source: hub, target: others[5], type: "related", score: 0.9, by: "system" }),
    ];
    const r = await call(t, "GET", `/ideas/${hub}/relations`, { key: u.key });
    expect(r.body.outgoing.map((x: any) => x.id)).toEqual([ids[1], ids[4], ids[2], ids[5], ids[0], ids[3]]);
    expect(r.body.incoming).toEqual([]);
  });

  test("relations to or from archived ideas are omitted", async () => {
    const u = await makeUser(t);
    const a = await seedIdea(t, u);
    const live = await seedIdea(t, u);
    const gone = await seedIdea(t, u);
    const kept = await seedRelation(t, u, { source: a, target: live });
    await seedRelation(t, u, { source: a, target: gone });
    await seedRelation(t, u, { source: gone, target: a, type: "blocks" });
    await archiveIdea(t, gone);
    const r = await call(t, "GET", `/ideas/${a}/relations`, { key: u.key });
    expect(r.body.outgoing.map((x: any) => x.id)).toEqual([kept]);
    expect(r.body.incoming).toEqual([]);
  });

  test("an archived idea is still found but shows no relations", async () => {
    const u = await makeUser(t);
    const a = await seedIdea(t, u);
    const b = await seedIdea(t, u);
    await seedRelation(t, u, { source: a, target: b });
    await seedRelation(t, u, { source: b, target: a, type: "inspires" });
    await archiveIdea(t, a);
    const r = await call(t, "GET", `/ideas/${a}/relations`, { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ outgoing: [], incoming: [] });
  });

  test("404 for an absent idea and for another account's idea (indistinguishable)", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    const foreign = await seedIdea(t, other);
    await seedRelation(t, other, { source: foreign, target: await seedIdea(t, other) });
    const absent = await call(t, "GET", "/ideas/999999/relations", { key: u.key });
    const theirs = await call(t, "GET", `/ideas/${foreign}/relations`, { key: u.key });
    expect(absent.status).toBe(404);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(absent.body);
    expect(absent.body).toEqual({ error: "Idea not found" });
  });

  test("a display number is not an id", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    for (let i = 0; i < 3; i++) await seedIdea(t, other); // push the global ids past u's numbers
    const id = await seedIdea(t, u);
    const number = ((await t.deps.store.query("SELECT number FROM ideas WHERE id = ?").get(id)) as { number: number }).number;
    expect(number).not.toBe(id);
    expect((await call(t, "GET", `/ideas/${number}/relations`, { key: u.key })).status).toBe(404);
  });

  test("400 Invalid idea ID for non-numeric ids", async () => {
    const u = await makeUser(t);
    for (const bad of ["abc", "1.5", "1e3", "%20", "0x5", "9223372036854775808"]) {
      const r = await call(t, "GET", `/ideas/${bad}/relations`, { key: u.key });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "Invalid idea ID" });
    }
  });

  test("numeric ids that cannot exist (0, -3) are 404, as on every idea route", async () => {
    const u = await makeUser(t);
    for (const id of ["0", "-3"]) expect((await call(t, "GET", `/ideas/${id}/relations`, { key: u.key })).status).toBe(404);
  });

  test("works on the Free plan and needs credentials", async () => {
    const u = await makeUser(t, { plan: "free" });
    const a = await seedIdea(t, u);
    expect((await call(t, "GET", `/ideas/${a}/relations`, { key: u.key })).status).toBe(200);
    expect((await call(t, "GET", `/ideas/${a}/relations`)).status).toBe(401);
  });
});
