// GET /review/counts: the queue's counts without its items, always the numbers GET /review gives, with the ids of the
// connections counted.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { archiveIdea, newIdea, seedDetection, seedIdeas, seedRelation } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T00:00:00Z" });
afterAll(() => t.close());

const get = async (u: TestUser, path: string) => {
  const r = await call(t, "GET", path, { key: u.key });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

/** Two stale ideas, two connections inside the 7-day window and one outside, two pending duplicates. */
async function account(plan: "pro" | "free" = "pro") {
  const u = await makeUser(t, { plan });
  t.clock.set("2026-01-01T00:00:00Z");
  const [a, b] = [await newIdea(t, u, { title: "old a" }), await newIdea(t, u, { title: "old b" })];
  t.clock.set("2026-03-01T00:00:00Z");
  const [c, d, e] = [await newIdea(t, u, { title: "c" }), await newIdea(t, u, { title: "d" }), await newIdea(t, u, { title: "e" })];
  await seedRelation(t, u, { source: a.id, target: b.id, created_at: "2026-02-01 00:00:00" });
  const r1 = await seedRelation(t, u, { source: c.id, target: d.id, created_at: "2026-02-28 00:00:00" });
  const r2 = await seedRelation(t, u, { source: d.id, target: e.id, created_at: "2026-02-28 01:00:00", by: "system", score: 0.7 });
  const d1 = await seedDetection(t, u, d.id, c.id, 0.9);
  await seedDetection(t, u, e.id, c.id, 0.8);
  return { u, ideas: { a, b, c, d, e }, relations: [r1, r2], detections: [d1] };
}

describe("GET /review/counts", () => {
  test("the counts of GET /review, the ids of its connections, and the threshold; no items", async () => {
    const { u, relations } = await account();
    const queue = await get(u, "/review");
    const counts = await get(u, "/review/counts");
    expect(counts).toEqual({ counts: queue.counts, connection_ids: queue.connections.map((c: { id: number }) => c.id), stale_threshold_days: 30 });
    expect(counts.counts).toEqual({ stale: 2, connections: 2, duplicates: 2, total: 6 });
    expect([...counts.connection_ids].sort()).toEqual([...relations].sort());
  });

  test("follows the queue as items are handled", async () => {
    const { u, ideas, detections } = await account();
    expect((await call(t, "POST", `/ideas/duplicates/${detections[0]}/dismiss`, { key: u.key })).status).toBe(200);
    expect((await call(t, "POST", `/review/${ideas.a.id}/keep`, { key: u.key })).status).toBe(200);
    const counts = await get(u, "/review/counts");
    expect(counts.counts).toEqual({ stale: 1, connections: 2, duplicates: 1, total: 4 });
    expect(counts.counts).toEqual((await get(u, "/review")).counts);
  });

  test("Free: duplicates count 0, as the queue lists none", async () => {
    const { u } = await account("free");
    expect((await get(u, "/review/counts")).counts).toEqual({ stale: 2, connections: 2, duplicates: 0, total: 4 });
  });

  test("another account's queue is not counted; a credential is needed", async () => {
    await account();
    const fresh = await makeUser(t, { plan: "pro" });
    expect(await get(fresh, "/review/counts")).toEqual({ counts: { stale: 0, connections: 0, duplicates: 0, total: 0 }, connection_ids: [], stale_threshold_days: 30 });
    expect(await call(t, "GET", "/review/counts")).toMatchObject({ status: 401, body: { error: "Unauthorized" } });
  });
});

describe("GET /review/counts on a large account", () => {
  test("hundreds of connections and detections: the counts are the lengths of GET /review's groups", async () => {
    const u = await makeUser(t, { plan: "pro" });
    // 400 ideas: captured or moved on, updated before or inside the 30-day threshold; every 25th archived afterwards,
    // so connections and detections touching it drop out of both answers.
    const ids = await seedIdeas(t, u, 400, (i) => ({
      status: i % 3 === 0 ? "exploring" : "captured",
      created_at: "2026-01-01 00:00:00",
      updated_at: i % 2 === 0 ? "2026-01-15 00:00:00" : "2026-02-20 00:00:00",
    }));
    for (let i = 0; i + 2 < ids.length; i++) {
      // One pair inside the 7-day window, one before it.
      await seedRelation(t, u, { source: ids[i], target: ids[i + 1], created_at: `2026-02-${String(23 + (i % 6)).padStart(2, "0")} 00:00:00` });
      await seedRelation(t, u, { source: ids[i], target: ids[i + 2], created_at: "2026-02-10 00:00:00" });
    }
    const detections: number[] = [];
    for (let i = 0; i < ids.length - 3; i++) detections.push(await seedDetection(t, u, ids[i + 3], ids[i], 0.5 + (i % 40) / 100));
    for (let i = 0; i < ids.length; i += 25) await archiveIdea(t, ids[i]);
    for (const d of detections.slice(0, 10)) await call(t, "POST", `/ideas/duplicates/${d}/dismiss`, { key: u.key });

    const queue = await get(u, "/review");
    const counts = await get(u, "/review/counts");
    const lengths = { stale: queue.stale.length, connections: queue.connections.length, duplicates: queue.duplicates.length };
    expect(counts.counts).toEqual({ ...lengths, total: lengths.stale + lengths.connections + lengths.duplicates });
    expect(counts.counts).toEqual(queue.counts);
    expect(counts.connection_ids).toEqual(queue.connections.map((c: { id: number }) => c.id));
    // What the account holds, so the equalities above compare hundreds of rows, not empty groups.
    expect(lengths.connections, JSON.stringify(lengths)).toBeGreaterThan(300);
    expect(lengths.duplicates, JSON.stringify(lengths)).toBeGreaterThan(300);
    expect(lengths.stale, JSON.stringify(lengths)).toBeGreaterThan(100);
  });
});

test("the OpenAPI document lists GET /review/counts", async () => {
  const r = await call(t, "GET", "/openapi.json");
  const op = r.body.paths["/api/v1/review/counts"]?.get;
  expect(op, "GET /review/counts missing from the document").toBeDefined();
  expect(JSON.stringify(op.responses["200"])).toContain("connection_ids");
});
