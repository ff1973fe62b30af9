// GET /tags/similar with real tag embeddings: the answer's shape, limit default 5 and clamp to 20, other accounts unseen.
import { describe, expect, test } from "bun:test";
import { call, makeUser } from "../helpers";
import { usePipelineApp } from "../pipeline-helpers";

const { t } = usePipelineApp();

describe("GET /tags/similar", () => {
  test("default 5, clamped to 20, each {name, idea_count, similarity}; only the caller's tags", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const stranger = await makeUser(t, { plan: "pro" });
    await call(t, "POST", "/tags", { key: stranger.key, body: { name: "gardening-secret" } });
    const names = Array.from({ length: 25 }, (_, i) => `topic-${i}`);
    for (const name of ["gardening", ...names]) expect((await call(t, "POST", "/tags", { key: u.key, body: { name } })).status).toBe(201);
    await call(t, "POST", "/ideas", { key: u.key, body: { title: "Herb boxes", tags: ["topic-3"] } });
    await t.drain();

    const dflt = await call(t, "GET", "/tags/similar?tag=gardening", { key: u.key });
    expect(dflt.status).toBe(200);
    expect(dflt.body.similar).toHaveLength(5);
    for (const s of dflt.body.similar) {
      expect(Object.keys(s).sort()).toEqual(["idea_count", "name", "similarity"]);
      expect(s.name).not.toBe("gardening");
      expect(s.name).not.toBe("gardening-secret");
    }
    const sims = dflt.body.similar.map((s: { similarity: number }) => s.similarity);
    expect(sims).toEqual([...sims].sort((a: number, b: number) => b - a));
    expect((await call(t, "GET", "/tags/similar?tag=gardening&limit=50", { key: u.key })).body.similar).toHaveLength(20);
    expect((await call(t, "GET", "/tags/similar?tag=gardening&limit=2", { key: u.key })).body.similar).toHaveLength(2);
    const all = (await call(t, "GET", "/tags/similar?tag=gardening&limit=20", { key: u.key })).body.similar as Array<{ name: string; idea_count: number }>;
    const t3 = all.find((s) => s.name === "topic-3");
    if (t3) expect(t3.idea_count).toBe(1);
  });
});
