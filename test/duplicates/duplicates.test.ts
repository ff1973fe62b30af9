// GET /ideas/duplicates, POST /ideas/duplicates/:id/dismiss and /merge: plan rule, shape, resolution, ownership.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { seedDetection, seedRelation, clearJobs, jobsFor, newIdea, relationRows } from "../fixtures/seed";

const t = makeApp({ now: "2026-02-01T00:00:00Z" });
afterAll(() => t.close());

const listDups = async (u: TestUser) => {
  const r = await call(t, "GET", "/ideas/duplicates", { key: u.key });
  expect(r.status).toBe(200);
  return r.body.duplicates as any[];
};
const dismiss = (u: TestUser, id: number | string) => call(t, "POST", `/ideas/duplicates/${id}/dismiss`, { key: u.key });
const mergeDup = (u: TestUser, id: number | string) => call(t, "POST", `/ideas/duplicates/${id}/merge`, { key: u.key });
const get = async (u: TestUser, id: number) => (await call(t, "GET", `/ideas/${id}`, { key: u.key })).body;
const detectionStatus = async (id: number) =>
  ((await t.deps.store.query("SELECT status FROM duplicate_detections WHERE id = ?").get(id)) as { status: string }).status;
const RESOLVED = { error: "Duplicate not found or already resolved" };

/** A Pro user with an older idea and a newer one detected as its duplicate. */
async function pair(opts: { plan?: "free" | "pro"; score?: number } = {}) {
  const u = await makeUser(t, { plan: opts.plan ?? "pro" });
  const older = await newIdea(t, u, { title: "Older", body: "older body", tags: ["o", "both"], source: "web" });
  t.clock.advance(60_000);
  const newer = await newIdea(t, u, { title: "Newer", body: "newer body", tags: ["both", "n"], status: "exploring" });
  const id = await seedDetection(t, u, newer.id, older.id, opts.score ?? 0.88);
  return { u, older, newer, id };
}

describe("GET /ideas/duplicates", () => {
  test("is its own route, not /ideas/:id", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await call(t, "GET", "/ideas/duplicates", { key: u.key });
    expect(r).toMatchObject({ status: 200, body: { duplicates: [] } });
  });

  test("Pro: pending detections with both ideas' display fields", async () => {
    const { u, older, newer, id } = await pair();
    expect(await listDups(u)).toEqual([
      {
        id,
        user_id: u.id,
        idea_id: newer.id,
        idea_number: newer.number,
        idea_title: "Newer",
        idea_body: "newer body",
        idea_status: "exploring",
        idea_source: "api",
        idea_created_at: newer.created_at,
        duplicate_of_id: older.id,
        duplicate_number: older.number,
        duplicate_title: "Older",
        duplicate_body: "older body",
        duplicate_status: "captured",
        duplicate_source: "web",
        duplicate_created_at: older.created_at,
        similarity_score: 0.88,
        status: "pending",
        created_at: "2026-02-01 00:01:00",
      },
    ]);
  });

  test("bodies are cut to their first 280 characters (characters, not bytes or UTF-16 units)", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const longBody = "é😀".repeat(200);
    const a = await newIdea(t, u, { body: "x".repeat(281) });
    const b = await newIdea(t, u, { body: longBody });
    await seedDetection(t, u, b.id, a.id);
    const [d] = await listDups(u);
    expect(d.duplicate_body).toBe("x".repeat(280));
    expect(Array.from(d.idea_body as string)).toHaveLength(280);
    expect(d.idea_body).toBe("é😀".repeat(140));
  });

  test("highest similarity first", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const ideas = [];
    for (let i = 0; i < 4; i++) ideas.push(await newIdea(t, u, { title: `i${i}` }));
    await seedDetection(t, u, ideas[1].id, ideas[0].id, 0.8);
    await seedDetection(t, u, ideas[2].id, ideas[0].id, 0.95);
    await seedDetection(t, u, ideas[3].id, ideas[2].id, 0.77);
    expect((await listDups(u)).map((d) => d.similarity_score)).toEqual([0.95, 0.8, 0.77]);
  });

  test("detections touching an archived idea, and resolved ones, are not listed", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const [a, b, c, d] = [await newIdea(t, u), await newIdea(t, u), await newIdea(t, u), await newIdea(t, u)];
    await seedDetection(t, u, b.id, a.id);
    const cd = await seedDetection(t, u, d.id, c.id);
    await call(t, "DELETE", `/ideas/${a.id}`, { key: u.key });
    expect((await listDups(u)).map((x) => x.id)).toEqual([cd]);
    await dismiss(u, cd);
    expect(await listDups(u)).toEqual([]);
  });

  test("Free accounts always get an empty list, without an error", async () => {
    const { u } = await pair({ plan: "free" });
    expect(await listDups(u)).toEqual([]);
  });

  test("only the caller's detections", async () => {
    await pair();
    const stranger = await makeUser(t, { plan: "pro" });
    expect(await listDups(stranger)).toEqual([]);
  });
});

describe("POST /ideas/duplicates/:id/dismiss", () => {
  test("200 {success:true}; the detection becomes dismissed; the ideas are untouched", async () => {
    const { u, older, newer, id } = await pair();
    const before = [await get(u, older.id), await get(u, newer.id)];
    expect(await dismiss(u, id)).toMatchObject({ status: 200, body: { success: true } });
    expect(await detectionStatus(id)).toBe("dismissed");
    expect([await get(u, older.id), await get(u, newer.id)]).toEqual(before);
    expect(await listDups(u)).toEqual([]);
  });

  test("a dismissed pair cannot be detected again, in either direction", async () => {
    const { u, older, newer, id } = await pair();
    await dismiss(u, id);
    await expect(seedDetection(t, u, older.id, newer.id)).rejects.toThrow("pair already detected");
  });

  test("already dismissed or merged, absent, another account's, or touching an archived idea: 404", async () => {
    const { u, id } = await pair();
    await dismiss(u, id);
    expect(await dismiss(u, id)).toMatchObject({ status: 404, body: RESOLVED });
    const merged = await pair();
    await mergeDup(merged.u, merged.id);
    expect(await dismiss(merged.u, merged.id)).toMatchObject({ status: 404, body: RESOLVED });
    expect(await dismiss(u, 747_474)).toMatchObject({ status: 404, body: RESOLVED });
    const foreign = await pair();
    expect(await dismiss(u, foreign.id)).toMatchObject({ status: 404, body: RESOLVED });
    expect(await detectionStatus(foreign.id)).toBe("pending");
    const archived = await pair();
    await call(t, "DELETE", `/ideas/${archived.older.id}`, { key: archived.u.key });
    expect(await dismiss(archived.u, archived.id)).toMatchObject({ status: 404, body: RESOLVED });
  });

  test("400 for a non-numeric id", async () => {
    const u = await makeUser(t, { plan: "pro" });
    expect(await dismiss(u, "abc")).toMatchObject({ status: 400, body: { error: "Invalid duplicate ID" } });
  });
});

describe("POST /ideas/duplicates/:id/merge", () => {
  test("the detected (newer) idea survives: bodies joined, tags united, the earlier created_at", async () => {
    const { u, older, newer, id } = await pair();
    expect(await mergeDup(u, id)).toMatchObject({ status: 200, body: { success: true } });
    expect(await get(u, newer.id)).toMatchObject({
      body: "newer body\n\n---\n\nolder body",
      tags: ["both", "n", "o"],
      created_at: older.created_at,
      status: "exploring",
      is_archived: 0,
    });
  });

  test("the loser keeps its status and is archived; the detection is marked merged", async () => {
    const { u, older, id } = await pair();
    await call(t, "PATCH", `/ideas/${older.id}`, { key: u.key, body: { status: "building" } });
    await mergeDup(u, id);
    expect(await get(u, older.id)).toMatchObject({ status: "building", is_archived: 1 });
    expect(await detectionStatus(id)).toBe("merged");
  });

  test("relations are not transferred to the survivor", async () => {
    const { u, older, newer, id } = await pair();
    const third = await newIdea(t, u);
    const rel = await seedRelation(t, u, { source: older.id, target: third.id, type: "blocks" });
    await mergeDup(u, id);
    expect((await relationRows(t)).find((r) => r.id === rel)).toMatchObject({ source_idea_id: older.id, target_idea_id: third.id });
    expect((await get(u, newer.id)).relations).toEqual([]);
  });

  test("queues the full job for the survivor", async () => {
    const { u, newer, id } = await pair();
    await clearJobs(t);
    await mergeDup(u, id);
    expect(await jobsFor(t, newer.id)).toEqual(["full"]);
  });

  test("already merged or dismissed, absent or another account's: 404 and nothing changes", async () => {
    const { u, id } = await pair();
    await mergeDup(u, id);
    expect(await mergeDup(u, id)).toMatchObject({ status: 404, body: RESOLVED });
    const dismissed = await pair();
    await dismiss(dismissed.u, dismissed.id);
    expect(await mergeDup(dismissed.u, dismissed.id)).toMatchObject({ status: 404, body: RESOLVED });
    expect((await get(dismissed.u, dismissed.older.id)).is_archived).toBe(0);
    const foreign = await pair();
    expect(await mergeDup(u, foreign.id)).toMatchObject({ status: 404, body: RESOLVED });
    expect((await get(foreign.u, foreign.older.id)).is_archived).toBe(0);
    expect((await get(foreign.u, foreign.newer.id)).body).toBe("newer body");
    expect(await mergeDup(u, 636_363)).toMatchObject({ status: 404, body: RESOLVED });
    expect(await mergeDup(u, "x")).toMatchObject({ status: 400, body: { error: "Invalid duplicate ID" } });
  });
});
