// GET /review and POST /review/:ideaId/keep: stale threshold, the 7-day connection window, duplicates, keep.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { seedDetection, seedRelation, clearJobs, jobs, newIdea } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T00:00:00Z" });
afterAll(() => t.close());

const review = async (u: TestUser) => {
  const r = await call(t, "GET", "/review", { key: u.key });
  expect(r.status).toBe(200);
  return r.body;
};
const keep = (u: TestUser, id: number | string) => call(t, "POST", `/review/${id}/keep`, { key: u.key });
const DAY = 86_400_000;

describe("GET /review", () => {
  test("the exact top-level shape, empty for a new account, default threshold 30", async () => {
    const u = await makeUser(t);
    expect(await review(u)).toEqual({
      stale: [],
      connections: [],
      duplicates: [],
      counts: { stale: 0, connections: 0, duplicates: 0, total: 0 },
      stale_threshold_days: 30,
    });
  });

  test("stale: captured ideas not updated for more than the threshold, oldest first, with days_stale", async () => {
    const u = await makeUser(t);
    t.clock.set("2026-01-01T00:00:00Z");
    const oldest = await newIdea(t, u, { title: "oldest", body: "b" });
    t.clock.set("2026-01-20T06:00:00Z");
    const old = await newIdea(t, u, { title: "old" });
    const moved = await newIdea(t, u, { title: "moved on", status: "exploring" });
    const gone = await newIdea(t, u, { title: "archived" });
    t.clock.set("2026-02-15T00:00:00Z");
    await newIdea(t, u, { title: "fresh" });
    await call(t, "DELETE", `/ideas/${gone.id}`, { key: u.key });
    t.clock.set("2026-03-01T00:00:00Z");
    const body = await review(u);
    expect(body.stale).toEqual([
      { id: oldest.id, number: oldest.number, title: "oldest", body: "b", status: "captured", source: "api", updated_at: "2026-01-01 00:00:00", days_stale: 59 },
      { id: old.id, number: old.number, title: "old", body: "", status: "captured", source: "api", updated_at: "2026-01-20 06:00:00", days_stale: 39 },
    ]);
    expect(body.counts.stale).toBe(2);
    expect(body.stale.map((s: any) => s.id)).not.toContain(moved.id);
  });

  test("the boundary: exactly threshold days old is not yet stale; one second more is", async () => {
    const u = await makeUser(t);
    t.clock.set("2026-01-01T00:00:00Z");
    await newIdea(t, u);
    t.clock.set(new Date(Date.parse("2026-01-01T00:00:00Z") + 30 * DAY));
    expect((await review(u)).stale).toEqual([]);
    t.clock.advance(1000);
    expect((await review(u)).stale.map((s: any) => s.days_stale)).toEqual([30]);
  });

  test("an idea that leaves captured never returns to the stale list", async () => {
    const u = await makeUser(t);
    t.clock.set("2025-06-01T00:00:00Z");
    const idea = await newIdea(t, u);
    t.clock.set("2025-06-02T00:00:00Z");
    await call(t, "PATCH", `/ideas/${idea.id}`, { key: u.key, body: { status: "shelved" } });
    t.clock.set("2026-03-01T00:00:00Z");
    expect((await review(u)).stale).toEqual([]);
  });

  test("the stale_threshold_days setting applies (and an out-of-range value falls back to 30)", async () => {
    const u = await makeUser(t);
    t.clock.set("2026-02-20T00:00:00Z");
    await newIdea(t, u);
    t.clock.set("2026-03-01T00:00:00Z");
    expect((await review(u)).stale).toHaveLength(0);
    await call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify({ stale_threshold_days: 7 }) } });
    const body = await review(u);
    expect(body.stale_threshold_days).toBe(7);
    expect(body.stale.map((s: any) => s.days_stale)).toEqual([9]);
    await t.deps.store.query("UPDATE users SET settings_json = ? WHERE id = ?").run(JSON.stringify({ stale_threshold_days: 3 }), u.id);
    expect((await review(u)).stale_threshold_days).toBe(30);
  });

  test("connections: relations created in the last 7 days between live ideas, newest first", async () => {
    const u = await makeUser(t, { plan: "pro" });
    t.clock.set("2026-02-01T00:00:00Z");
    const [a, b, c, d] = [await newIdea(t, u, { title: "a" }), await newIdea(t, u, { title: "b" }), await newIdea(t, u, { title: "c" }), await newIdea(t, u, { title: "d" })];
    t.clock.set("2026-03-01T00:00:00Z");
    await seedRelation(t, u, { source: a.id, target: b.id, created_at: "2026-02-21 23:59:59" }); // just outside the window
    const edge = await seedRelation(t, u, { source: a.id, target: c.id, created_at: "2026-02-22 00:00:00", type: "blocks" });
    const recent = await seedRelation(t, u, { source: c.id, target: b.id, created_at: "2026-02-28 12:00:00", by: "system", score: 0.66 });
    await seedRelation(t, u, { source: d.id, target: a.id, created_at: "2026-02-28 13:00:00" });
    await call(t, "DELETE", `/ideas/${d.id}`, { key: u.key });
    const body = await review(u);
    expect(body.connections.map((x: any) => x.id)).toEqual([recent, edge]);
    expect(body.connections[0]).toEqual({
      id: recent,
      relation_type: "related",
      score: 0.66,
      created_by: "system",
      created_at: "2026-02-28 12:00:00",
      source_idea_id: c.id,
      source_number: c.number,
      source_title: "c",
      target_idea_id: b.id,
      target_number: b.number,
      target_title: "b",
    });
    expect(body.counts.connections).toBe(2);
  });

  test("duplicates: the same rows as GET /ideas/duplicates on Pro; empty on Free; counted in total", async () => {
    const pro = await makeUser(t, { plan: "pro" });
    const free = await makeUser(t);
    for (const u of [pro, free]) {
      const a = await newIdea(t, u);
      const b = await newIdea(t, u);
      await seedDetection(t, u, b.id, a.id, 0.9);
    }
    const listed = (await call(t, "GET", "/ideas/duplicates", { key: pro.key })).body.duplicates;
    const proBody = await review(pro);
    expect(listed).toHaveLength(1);
    expect(proBody.duplicates).toEqual(listed);
    expect(proBody.counts).toEqual({ stale: 0, connections: 0, duplicates: 1, total: 1 });
    expect((await review(free)).duplicates).toEqual([]);
  });

  test("counts.total adds the three groups", async () => {
    const u = await makeUser(t, { plan: "pro" });
    t.clock.set("2025-12-01T00:00:00Z");
    const [a, b] = [await newIdea(t, u), await newIdea(t, u)];
    t.clock.set("2026-03-01T00:00:00Z");
    await seedRelation(t, u, { source: a.id, target: b.id });
    await seedDetection(t, u, b.id, a.id);
    expect((await review(u)).counts).toEqual({ stale: 2, connections: 1, duplicates: 1, total: 4 });
  });

  test("nothing of another account shows up", async () => {
    const a = await makeUser(t, { plan: "pro" });
    const b = await makeUser(t, { plan: "pro" });
    t.clock.set("2025-01-01T00:00:00Z");
    const [x, y] = [await newIdea(t, a), await newIdea(t, a)];
    t.clock.set("2026-03-01T00:00:00Z");
    await seedRelation(t, a, { source: x.id, target: y.id });
    await seedDetection(t, a, y.id, x.id);
    expect((await review(b)).counts.total).toBe(0);
    expect((await review(a)).counts.total).toBe(4);
  });
});

describe("POST /review/:ideaId/keep", () => {
  test("sets updated_at to now and nothing else; the idea leaves the stale group for another threshold period", async () => {
    const u = await makeUser(t);
    t.clock.set("2026-01-01T00:00:00Z");
    const idea = await newIdea(t, u, { title: "Keep me", tags: ["k"] });
    t.clock.set("2026-03-01T00:00:00Z");
    expect((await review(u)).counts.stale).toBe(1);
    await clearJobs(t);
    expect(await keep(u, idea.id)).toMatchObject({ status: 200, body: { success: true } });
    const after = (await call(t, "GET", `/ideas/${idea.id}`, { key: u.key })).body;
    expect(after).toMatchObject({ title: "Keep me", status: "captured", tags: ["k"], created_at: "2026-01-01 00:00:00", updated_at: "2026-03-01 00:00:00" });
    expect(await jobs(t)).toEqual([]);
    expect((await review(u)).stale).toEqual([]);
    t.clock.set(new Date(Date.parse("2026-03-01T00:00:01Z") + 30 * DAY));
    expect((await review(u)).stale.map((s: any) => s.id)).toEqual([idea.id]);
  });

  test("404 Idea not found for another account's idea (left untouched) or an absent one; 400 non-numeric", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    t.clock.set("2026-01-01T00:00:00Z");
    const idea = await newIdea(t, a);
    t.clock.set("2026-03-01T00:00:00Z");
    expect(await keep(b, idea.id)).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    expect((await call(t, "GET", `/ideas/${idea.id}`, { key: a.key })).body.updated_at).toBe("2026-01-01 00:00:00");
    expect(await keep(a, 858_585)).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    expect(await keep(a, "abc")).toMatchObject({ status: 400, body: { error: "Invalid idea ID" } });
  });
});
