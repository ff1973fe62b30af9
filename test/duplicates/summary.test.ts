// GET /ideas/duplicates/summary?idea_ids=…: per given idea, its pending detections counted and the closest one.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { seedDetection as addDetection, newIdeas } from "../fixtures/seed";

const t = makeApp({ now: "2026-02-01T00:00:00Z" });
afterAll(() => t.close());

const summary = (u: TestUser, query: string) => call(t, "GET", `/ideas/duplicates/summary${query}`, { key: u.key });
const summaries = async (u: TestUser, ids: number[]) => {
  const r = await summary(u, `?idea_ids=${ids.join(",")}`);
  expect(r.status, r.text).toBe(200);
  return r.body.summaries as Array<{ idea_id: number; pending: number; closest: Record<string, unknown> }>;
};
const counts = async (u: TestUser, ids: number[]) => Object.fromEntries((await summaries(u, ids)).map((s) => [s.idea_id, s.pending]));

/** Six ideas a..f; detections b→a (0.9), d→c (0.8), e→a (0.7), f→e (0.95, then dismissed). */
async function account(plan: "pro" | "free" = "pro") {
  const u = await makeUser(t, { plan });
  const [a, b, c, d, e, f] = await newIdeas(t, u, 6);
  const ba = await addDetection(t, u, b.id, a.id, 0.9);
  t.clock.advance(1000);
  const dc = await addDetection(t, u, d.id, c.id, 0.8);
  const ea = await addDetection(t, u, e.id, a.id, 0.7);
  const fe = await addDetection(t, u, f.id, e.id, 0.95);
  expect((await call(t, "POST", `/ideas/duplicates/${fe}/dismiss`, { key: u.key })).status).toBe(200);
  return { u, ideas: { a, b, c, d, e, f }, det: { ba, dc, ea, fe } };
}

describe("GET /ideas/duplicates/summary", () => {
  test("per given idea with pending detections: the count and the closest, by idea id; dismissed pairs not counted", async () => {
    const { u, ideas: { a, b, c, d, e, f }, det } = await account();
    const all = [a, b, c, d, e, f].map((i) => i.id);
    expect(await summaries(u, all)).toEqual([
      { idea_id: a.id, pending: 2, closest: { duplicate_id: det.ba, idea_id: b.id, number: b.number, title: b.title, similarity_score: 0.9, created_at: "2026-02-01 00:00:06" } },
      { idea_id: b.id, pending: 1, closest: { duplicate_id: det.ba, idea_id: a.id, number: a.number, title: a.title, similarity_score: 0.9, created_at: "2026-02-01 00:00:06" } },
      { idea_id: c.id, pending: 1, closest: { duplicate_id: det.dc, idea_id: d.id, number: d.number, title: d.title, similarity_score: 0.8, created_at: "2026-02-01 00:00:07" } },
      { idea_id: d.id, pending: 1, closest: { duplicate_id: det.dc, idea_id: c.id, number: c.number, title: c.title, similarity_score: 0.8, created_at: "2026-02-01 00:00:07" } },
      // e's closer pair (f, 0.95) was dismissed: its closest pending one is a.
      { idea_id: e.id, pending: 1, closest: { duplicate_id: det.ea, idea_id: a.id, number: a.number, title: a.title, similarity_score: 0.7, created_at: "2026-02-01 00:00:07" } },
    ]);
    // Only the ideas asked about; repeats count once.
    expect((await summaries(u, [e.id, a.id, e.id])).map((s) => [s.idea_id, s.pending])).toEqual([[a.id, 2], [e.id, 1]]);
    expect(await summaries(u, [f.id])).toEqual([]);
  });

  test("agrees with the listing of the same ideas: its count of rows and its first row", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const ideas = await newIdeas(t, u, 8);
    // Every pair among eight ideas, scores spread with ties, a few dismissed.
    let n = 0;
    for (let i = 1; i < ideas.length; i++) {
      for (let j = 0; j < i; j++) {
        const id = await addDetection(t, u, ideas[i].id, ideas[j].id, [0.81, 0.93, 0.77, 0.93, 0.88][n++ % 5]);
        if (n % 7 === 0) expect((await call(t, "POST", `/ideas/duplicates/${id}/dismiss`, { key: u.key })).status).toBe(200);
        t.clock.advance(1000);
      }
    }
    const got = await summaries(u, ideas.map((i) => i.id));
    expect(got.length).toBe(8);
    for (const s of got) {
      const rows = (await call(t, "GET", `/ideas/duplicates?idea_ids=${s.idea_id}`, { key: u.key })).body.duplicates as any[];
      expect(s.pending, `idea ${s.idea_id}`).toBe(rows.length);
      expect(s.closest.duplicate_id, `idea ${s.idea_id}`).toBe(rows[0].id);
      expect(s.closest.idea_id).toBe(rows[0].idea_id === s.idea_id ? rows[0].duplicate_of_id : rows[0].idea_id);
    }
  });

  test("counts go down after a dismiss and after a merge", async () => {
    const { u, ideas: { a, b, c, e }, det } = await account();
    expect(await counts(u, [a.id, b.id, e.id])).toEqual({ [a.id]: 2, [b.id]: 1, [e.id]: 1 });
    expect((await call(t, "POST", `/ideas/duplicates/${det.ba}/dismiss`, { key: u.key })).status).toBe(200);
    const [left] = await summaries(u, [a.id, b.id]);
    expect(left).toMatchObject({ idea_id: a.id, pending: 1, closest: { duplicate_id: det.ea, idea_id: e.id } });
    // e survives the merge; a is archived, so neither has a pending pair left.
    expect((await call(t, "POST", `/ideas/duplicates/${det.ea}/merge`, { key: u.key })).status).toBe(200);
    expect(await summaries(u, [a.id, b.id, e.id])).toEqual([]);
    expect(await counts(u, [c.id])).toEqual({ [c.id]: 1 });
  });

  test("an archived idea leaves its pairs out of the other idea's count", async () => {
    const { u, ideas: { a, b } } = await account();
    expect((await call(t, "DELETE", `/ideas/${b.id}`, { key: u.key })).status).toBe(200);
    expect(await counts(u, [a.id, b.id])).toEqual({ [a.id]: 1 });
  });

  test("another account's ideas, absent ids and an empty list give nothing", async () => {
    const { u, ideas } = await account();
    const other = await account();
    expect(await summaries(other.u, [ideas.a.id, ideas.b.id])).toEqual([]);
    expect(await summaries(u, [other.ideas.a.id, 999999])).toEqual([]);
    expect((await summary(u, "?idea_ids=")).body).toEqual({ summaries: [] });
  });

  test("Free accounts get an empty list, as from the listing", async () => {
    const { u, ideas } = await account("free");
    expect(await summary(u, `?idea_ids=${ideas.a.id}`)).toMatchObject({ status: 200, body: { summaries: [] } });
  });

  test("400 naming the parameter when it is missing, holds a non-id or more than 100 ids", async () => {
    const { u } = await account();
    const error = { error: { idea_ids: ["comma-separated idea ids, at most 100"] } };
    for (const bad of ["", "?idea_ids=abc", "?idea_ids=1,,2", "?idea_ids=1.5", "?idea_ids=-", "?idea_ids=9007199254740993",
      `?idea_ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`]) {
      const r = await summary(u, bad);
      expect(r.status, bad).toBe(400);
      expect(r.body, bad).toEqual(error);
    }
    expect((await summary(u, `?idea_ids=${Array.from({ length: 100 }, (_, i) => i + 1).join(",")}`)).status).toBe(200);
  });

  test("needs a credential", async () => {
    const r = await call(t, "GET", "/ideas/duplicates/summary?idea_ids=1");
    expect(r).toMatchObject({ status: 401, body: { error: "Unauthorized" } });
  });
});

test("the OpenAPI document lists the route with its idea_ids parameter and answer", async () => {
  const r = await call(t, "GET", "/openapi.json");
  expect(r.status).toBe(200);
  const op = r.body.paths["/api/v1/ideas/duplicates/summary"]?.get;
  expect(op, "GET /ideas/duplicates/summary missing from the document").toBeDefined();
  expect(op.parameters.find((x: { name: string }) => x.name === "idea_ids")).toMatchObject({ in: "query" });
  const schema = JSON.stringify(op.responses["200"]);
  for (const field of ["summaries", "pending", "closest", "duplicate_id", "similarity_score"]) expect(schema).toContain(field);
});
