// GET /ideas/duplicates?idea_ids=…: the pending detections that pair any of the given ideas, nothing else, same rows.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestUser } from "../helpers";
import { seedDetection as addDetection, newIdeas } from "../fixtures/seed";

const t = makeApp({ now: "2026-02-01T00:00:00Z" });
afterAll(() => t.close());

const list = (u: TestUser, query = "") => call(t, "GET", `/ideas/duplicates${query}`, { key: u.key });

/** Six ideas a..f; detections b→a (0.9), d→c (0.8), e→a (0.7), f→e (0.95, then dismissed). */
async function account(plan: "pro" | "free" = "pro") {
  const u = await makeUser(t, { plan });
  const [a, b, c, d, e, f] = await newIdeas(t, u, 6);
  const ba = await addDetection(t, u, b.id, a.id, 0.9);
  const dc = await addDetection(t, u, d.id, c.id, 0.8);
  const ea = await addDetection(t, u, e.id, a.id, 0.7);
  const fe = await addDetection(t, u, f.id, e.id, 0.95);
  expect((await call(t, "POST", `/ideas/duplicates/${fe}/dismiss`, { key: u.key })).status).toBe(200);
  return { u, ideas: { a, b, c, d, e, f }, det: { ba, dc, ea, fe } };
}

describe("GET /ideas/duplicates?idea_ids", () => {
  test("returns the detections with either idea among the ids, in the listing's order and shape", async () => {
    const { u, ideas, det } = await account();
    const all = (await list(u)).body.duplicates as Array<{ id: number }>;
    expect(all.map((d) => d.id)).toEqual([det.ba, det.dc, det.ea]);
    // a is the older idea of two detections; c the older of one, d its newer side.
    const r = await list(u, `?idea_ids=${ideas.a.id}`);
    expect(r.status).toBe(200);
    expect(r.body.duplicates).toEqual(all.filter((d) => d.id === det.ba || d.id === det.ea));
    expect((await list(u, `?idea_ids=${ideas.d.id},${ideas.b.id}`)).body.duplicates.map((d: any) => d.id)).toEqual([det.ba, det.dc]);
    // Both sides given, a repeat: each detection once.
    expect((await list(u, `?idea_ids=${ideas.c.id},${ideas.d.id},${ideas.c.id}`)).body.duplicates.map((d: any) => d.id)).toEqual([det.dc]);
    // f's only detection is dismissed: nothing.
    expect((await list(u, `?idea_ids=${ideas.f.id}`)).body).toEqual({ duplicates: [] });
  });

  test("an empty list asks for nothing; ids of other accounts or absent ideas match nothing", async () => {
    const { u, ideas } = await account();
    const other = await account();
    expect((await list(u, "?idea_ids=")).body).toEqual({ duplicates: [] });
    expect((await list(u, `?idea_ids=${other.ideas.a.id},999999`)).body).toEqual({ duplicates: [] });
    expect((await list(other.u, `?idea_ids=${ideas.a.id}`)).body).toEqual({ duplicates: [] });
  });

  test("archived ideas leave the answer as they leave the full listing", async () => {
    const { u, ideas, det } = await account();
    expect((await call(t, "DELETE", `/ideas/${ideas.b.id}`, { key: u.key })).status).toBe(200);
    expect((await list(u, `?idea_ids=${ideas.a.id}`)).body.duplicates.map((d: any) => d.id)).toEqual([det.ea]);
  });

  test("Free accounts get an empty list, as without the parameter", async () => {
    const { u, ideas } = await account("free");
    expect(await list(u, `?idea_ids=${ideas.a.id}`)).toMatchObject({ status: 200, body: { duplicates: [] } });
  });

  test("400 naming the parameter for a non-id entry or more than 100 ids", async () => {
    const { u } = await account();
    const error = { error: { idea_ids: ["comma-separated idea ids, at most 100"] } };
    for (const bad of ["abc", "1,,2", "1.5", "1,x", "9007199254740993", Array.from({ length: 101 }, (_, i) => i + 1).join(",")]) {
      const r = await list(u, `?idea_ids=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body, bad).toEqual(error);
    }
    // Exactly 100 is fine.
    expect((await list(u, `?idea_ids=${Array.from({ length: 100 }, (_, i) => i + 1).join(",")}`)).status).toBe(200);
  });
});

test("the OpenAPI document describes idea_ids on GET /ideas/duplicates", async () => {
  const r = await call(t, "GET", "/openapi.json");
  expect(r.status).toBe(200);
  const params = r.body.paths["/api/v1/ideas/duplicates"].get.parameters as Array<{ name: string; in: string; required: boolean; description?: string }>;
  const p = params.find((x) => x.name === "idea_ids");
  expect(p).toMatchObject({ in: "query", required: false });
  expect(p?.description).toContain("at most 100");
});
