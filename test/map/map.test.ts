// GET /map: nodes, edges, ordering, connection counts, since/until as string comparisons, the archive rule, isolation.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { archiveIdea, seedIdea, seedIdeas, seedRelation } from "../fixtures/seed";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

describe("GET /map", () => {
  test("nodes newest first with tags and connectionCount; edges with every field", async () => {
    const u = await makeUser(t);
    const a = await seedIdea(t, u, { title: "A", created_at: "2026-01-01 10:00:00", tags: ["zeta", "alpha"] });
    const b = await seedIdea(t, u, { title: "B", created_at: "2026-01-02 10:00:00", status: "exploring" });
    const c = await seedIdea(t, u, { title: "C", created_at: "2026-01-03 10:00:00" });
    const lonely = await seedIdea(t, u, { title: "Lonely", created_at: "2025-12-31 23:59:59" });
    const e1 = await seedRelation(t, u, { source: a, target: b, type: "blocks", note: "n", created_at: "2026-01-05 00:00:00" });
    const e2 = await seedRelation(t, u, { source: c, target: a, type: "related", score: 0.9, by: "system", created_at: "2026-01-04 00:00:00" });
    const r = await call(t, "GET", "/map", { key: u.key });
    expect(r.status).toBe(200);
    const numbers = new Map<number, number>();
    for (const id of [a, b, c, lonely]) numbers.set(id, ((await t.deps.store.query("SELECT number FROM ideas WHERE id = ?").get(id)) as any).number);
    const num = (id: number) => numbers.get(id);
    expect(r.body.nodes).toEqual([
      { id: c, number: num(c), title: "C", status: "captured", tags: [], connectionCount: 1, created_at: "2026-01-03 10:00:00" },
      { id: b, number: num(b), title: "B", status: "exploring", tags: [], connectionCount: 1, created_at: "2026-01-02 10:00:00" },
      { id: a, number: num(a), title: "A", status: "captured", tags: ["alpha", "zeta"], connectionCount: 2, created_at: "2026-01-01 10:00:00" },
      { id: lonely, number: num(lonely), title: "Lonely", status: "captured", tags: [], connectionCount: 0, created_at: "2025-12-31 23:59:59" },
    ]);
    expect(r.body.edges).toEqual([
      { id: e2, source: c, target: a, type: "related", score: 0.9, note: null, created_by: "system", created_at: "2026-01-04 00:00:00" },
      { id: e1, source: a, target: b, type: "blocks", score: null, note: "n", created_by: "user", created_at: "2026-01-05 00:00:00" },
    ]);
  });

  test("edges by descending score, unscored last, ties newest first", async () => {
    const u = await makeUser(t);
    const ids = await seedIdeas(t, u, 6);
    const low = await seedRelation(t, u, { source: ids[0], target: ids[1], score: 0.55, by: "system", created_at: "2026-01-01 00:00:00" });
    const none1 = await seedRelation(t, u, { source: ids[1], target: ids[2], created_at: "2026-01-01 00:00:00" });
    const high = await seedRelation(t, u, { source: ids[2], target: ids[3], score: 0.95, by: "system", created_at: "2026-01-01 00:00:00" });
    const none2 = await seedRelation(t, u, { source: ids[3], target: ids[4], created_at: "2026-01-02 00:00:00" });
    const midOld = await seedRelation(t, u, { source: ids[4], target: ids[5], score: 0.7, by: "system", created_at: "2026-01-01 00:00:00" });
    const midNew = await seedRelation(t, u, { source: ids[5], target: ids[0], score: 0.7, by: "system", created_at: "2026-01-03 00:00:00" });
    const r = await call(t, "GET", "/map", { key: u.key });
    expect(r.body.edges.map((e: any) => e.id)).toEqual([high, midNew, midOld, low, none2, none1]);
  });

  test("archived ideas and every edge touching them are dropped, and do not count as connections", async () => {
    const u = await makeUser(t);
    const a = await seedIdea(t, u);
    const b = await seedIdea(t, u);
    const gone = await seedIdea(t, u);
    const kept = await seedRelation(t, u, { source: a, target: b });
    await seedRelation(t, u, { source: a, target: gone });
    await seedRelation(t, u, { source: gone, target: b, type: "inspires" });
    await archiveIdea(t, gone);
    const r = await call(t, "GET", "/map", { key: u.key });
    expect(r.body.nodes.map((n: any) => n.id).sort()).toEqual([a, b].sort());
    expect(r.body.edges.map((e: any) => e.id)).toEqual([kept]);
    expect(r.body.nodes.every((n: any) => n.connectionCount === 1)).toBe(true);
  });

  test("an empty account gets empty arrays", async () => {
    const u = await makeUser(t);
    expect((await call(t, "GET", "/map", { key: u.key })).body).toEqual({ nodes: [], edges: [] });
  });

  test("only the caller's ideas and relations appear", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    const mine = await seedIdea(t, u);
    const [x, y] = [await seedIdea(t, other), await seedIdea(t, other)];
    await seedRelation(t, other, { source: x, target: y });
    const r = await call(t, "GET", "/map", { key: u.key });
    expect(r.body.nodes.map((n: any) => n.id)).toEqual([mine]);
    expect(r.body.edges).toEqual([]);
  });

  test("every plan may read it; credentials are required", async () => {
    const free = await makeUser(t, { plan: "free" });
    const pro = await makeUser(t, { plan: "pro" });
    expect((await call(t, "GET", "/map", { key: free.key })).status).toBe(200);
    expect((await call(t, "GET", "/map", { key: pro.key })).status).toBe(200);
    expect((await call(t, "GET", "/map")).status).toBe(401);
  });

  test("no pagination: hundreds of ideas come back at once", async () => {
    const u = await makeUser(t);
    for (let i = 0; i < 250; i++) await seedIdea(t, u);
    expect((await call(t, "GET", "/map?limit=10&offset=5", { key: u.key })).body.nodes.length).toBe(250);
  });
});

describe("since / until", () => {
  async function fixture() {
    const u = await makeUser(t);
    const dec = await seedIdea(t, u, { title: "dec", created_at: "2025-12-31 23:59:59" });
    const jan1 = await seedIdea(t, u, { title: "jan1", created_at: "2026-01-01 00:00:00" });
    const jan1late = await seedIdea(t, u, { title: "jan1late", created_at: "2026-01-01 18:30:00" });
    const feb = await seedIdea(t, u, { title: "feb", created_at: "2026-02-10 08:00:00" });
    const e1 = await seedRelation(t, u, { source: dec, target: jan1 });
    const e2 = await seedRelation(t, u, { source: jan1late, target: feb });
    return { u, dec, jan1, jan1late, feb, e1, e2 };
  }
  const titles = (r: any) => r.body.nodes.map((n: any) => n.title);

  test("a YYYY-MM-DD since includes that whole day onwards", async () => {
    const f = await fixture();
    const r = await call(t, "GET", "/map?since=2026-01-01", { key: f.u.key });
    expect(titles(r)).toEqual(["feb", "jan1late", "jan1"]);
    // The edge from December lost an end, so it is dropped; jan1 keeps a count of 0.
    expect(r.body.edges.map((e: any) => e.id)).toEqual([f.e2]);
    expect(r.body.nodes.find((n: any) => n.title === "jan1").connectionCount).toBe(0);
  });

  test("until compares as a string too: a bare date stops before that day's times", async () => {
    const f = await fixture();
    expect(titles(await call(t, "GET", "/map?until=2026-01-01", { key: f.u.key }))).toEqual(["dec"]);
    expect(titles(await call(t, "GET", "/map?until=2026-01-01 23:59:59", { key: f.u.key }))).toEqual(["jan1late", "jan1", "dec"]);
    expect(titles(await call(t, "GET", "/map?since=2026-01-01&until=2026-01-02", { key: f.u.key }))).toEqual(["jan1late", "jan1"]);
  });

  test("full stamps are inclusive bounds", async () => {
    const f = await fixture();
    const r = await call(t, "GET", "/map?since=2026-01-01%2000:00:00&until=2026-01-01%2018:30:00", { key: f.u.key });
    expect(titles(r)).toEqual(["jan1late", "jan1"]);
  });

  test("an ISO string with T and Z is compared as a string, so same-day ideas fall outside since", async () => {
    const f = await fixture();
    // ' ' sorts before 'T', so '2026-01-01 18:30:00' < '2026-01-01T00:00:00Z' although it is later in time.
    expect(titles(await call(t, "GET", "/map?since=2026-01-01T00:00:00Z", { key: f.u.key }))).toEqual(["feb"]);
    // ...and as an upper bound it lets the whole day through.
    expect(titles(await call(t, "GET", "/map?until=2026-01-01T00:00:00Z", { key: f.u.key }))).toEqual(["jan1late", "jan1", "dec"]);
  });

  test("any string is accepted; a non-date simply compares", async () => {
    const f = await fixture();
    const r = await call(t, "GET", "/map?since=zzz", { key: f.u.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ nodes: [], edges: [] });
  });
});
