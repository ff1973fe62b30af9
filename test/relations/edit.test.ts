// PATCH and DELETE /map/relations/:id: fields, null note, truncation, 'Nothing to update', ownership, never-404 delete.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { archiveIdea, seedIdea, seedRelation, relationCount } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

describe("PATCH /map/relations/:id", () => {
  test("changes the type and note and answers the full relation", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b] = [await seedIdea(t, u), await seedIdea(t, u)];
    const id = await seedRelation(t, u, { source: a, target: b, type: "related", score: 0.66, by: "system", created_at: "2026-02-02 02:02:02" });
    const r = await call(t, "PATCH", `/map/relations/${id}`, { key: u.key, body: { relation_type: "inspires", note: "because" } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      relation: {
        id, source_idea_id: a, target_idea_id: b, relation_type: "inspires", score: 0.66, note: "because",
        created_by: "system", created_at: "2026-02-02 02:02:02",
      },
    });
  });

  test("only given fields change; null clears the note; long notes are truncated", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await seedRelation(t, u, { source: await seedIdea(t, u), target: await seedIdea(t, u), type: "blocks", note: "keep" });
    const typed = await call(t, "PATCH", `/map/relations/${id}`, { key: u.key, body: { relation_type: "parent" } });
    expect(typed.body.relation).toMatchObject({ relation_type: "parent", note: "keep" });
    const cleared = await call(t, "PATCH", `/map/relations/${id}`, { key: u.key, body: { note: null } });
    expect(cleared.body.relation).toMatchObject({ relation_type: "parent", note: null });
    const long = await call(t, "PATCH", `/map/relations/${id}`, { key: u.key, body: { note: "y".repeat(800) } });
    expect(long.body.relation.note).toBe("y".repeat(500));
  });

  test("a body with neither field is 400 Nothing to update", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await seedRelation(t, u, { source: await seedIdea(t, u), target: await seedIdea(t, u) });
    for (const body of [{}, { other: 1 }]) {
      const r = await call(t, "PATCH", `/map/relations/${id}`, { key: u.key, body });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "Nothing to update" });
    }
  });

  test("400 for an unknown or system-only type", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await seedRelation(t, u, { source: await seedIdea(t, u), target: await seedIdea(t, u) });
    for (const relation_type of ["duplicate", "nope"]) {
      const r = await call(t, "PATCH", `/map/relations/${id}`, { key: u.key, body: { relation_type } });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.error)).toEqual(["relation_type"]);
    }
  });

  test("404 for an absent relation, another account's, or one touching an archived idea", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const other = await makeUser(t, { plan: "pro" });
    const theirs = await seedRelation(t, other, { source: await seedIdea(t, other), target: await seedIdea(t, other), note: "theirs" });
    const gone = await seedIdea(t, u);
    const hidden = await seedRelation(t, u, { source: await seedIdea(t, u), target: gone });
    await archiveIdea(t, gone);
    for (const id of [theirs, 999999, hidden]) {
      const r = await call(t, "PATCH", `/map/relations/${id}`, { key: u.key, body: { note: "mine now" } });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: "Relation not found" });
    }
    expect(((await t.deps.store.query("SELECT note FROM relations WHERE id = ?").get(theirs)) as any).note).toBe("theirs");
  });

  test("400 for a non-numeric id", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await call(t, "PATCH", "/map/relations/abc", { key: u.key, body: { note: "x" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "Invalid relation ID" });
  });

  test("Free accounts get the plan gate", async () => {
    const u = await makeUser(t, { plan: "free" });
    const id = await seedRelation(t, u, { source: await seedIdea(t, u), target: await seedIdea(t, u) });
    const r = await call(t, "PATCH", `/map/relations/${id}`, { key: u.key, body: { note: "x" } });
    expect(r.status).toBe(403);
    expect(r.body.pro_required).toBe(true);
  });
});

describe("DELETE /map/relations/:id", () => {
  test("deletes the caller's relation", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await seedRelation(t, u, { source: await seedIdea(t, u), target: await seedIdea(t, u) });
    const r = await call(t, "DELETE", `/map/relations/${id}`, { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    expect(await relationCount(t, "id = ?", id)).toBe(0);
  });

  test("deletes system-made relations too (rejecting a suggested connection)", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await seedRelation(t, u, { source: await seedIdea(t, u), target: await seedIdea(t, u), by: "system", score: 0.9 });
    expect((await call(t, "DELETE", `/map/relations/${id}`, { key: u.key })).body).toEqual({ success: true });
    expect(await relationCount(t, "id = ?", id)).toBe(0);
  });

  test("200 success for absent ids and repeated deletes, never 404", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await seedRelation(t, u, { source: await seedIdea(t, u), target: await seedIdea(t, u) });
    for (const target of [id, id, 999999]) {
      const r = await call(t, "DELETE", `/map/relations/${target}`, { key: u.key });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ success: true });
    }
  });

  test("never deletes another account's relation, yet answers the same", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const other = await makeUser(t, { plan: "pro" });
    const theirs = await seedRelation(t, other, { source: await seedIdea(t, other), target: await seedIdea(t, other) });
    const r = await call(t, "DELETE", `/map/relations/${theirs}`, { key: u.key });
    expect(r.body).toEqual({ success: true });
    expect(await relationCount(t, "id = ?", theirs)).toBe(1);
  });

  test("Free accounts get the plan gate", async () => {
    const u = await makeUser(t, { plan: "free" });
    const r = await call(t, "DELETE", "/map/relations/1", { key: u.key });
    expect(r.status).toBe(403);
  });
});
