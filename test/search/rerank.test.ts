// With a cross-encoder configured, semantic results follow its order (the generated tiny cross-encoder: random
// weights, so its order differs from the cosine order), while `score` stays the cosine similarity.
import { describe, expect, test } from "bun:test";
import { cosine, startModels } from "../../src/ml/client";
import { makeTestModels } from "../fixtures/ml/make-minilm";
import { makeUser } from "../helpers";
import { capture, search, usePipelineApp } from "../pipeline-helpers";

const fixtures = makeTestModels();
const { t, model } = usePipelineApp({
  model: () => startModels({ modelsDir: fixtures.modelsDir, embedModel: "use-lite", rerankModel: fixtures.reranker }),
});

describe("semantic search with a cross-encoder", () => {
  test("orders candidates by the cross-encoder's score and keeps the cosine as score", async () => {
    expect(model.hasReranker).toBe(true);
    const u = await makeUser(t, { plan: "pro" });
    const titles = [
      "Automobile repair shop for vintage motorcars",
      "Weekend course on restoring classic cars",
      "App that reminds you of car maintenance",
      "Marketplace for used car parts",
      "Podcast about the history of motor racing",
      "Rooftop vegetable garden with automatic irrigation",
    ];
    const ids = [];
    for (const title of titles) ids.push(await capture(t, u, { title }));
    await t.drain();
    const q = "fixing old cars";
    const r = await search(t, u, { q, min_score: 0 });
    expect(r.body.search_type).toBe("semantic");
    const got = r.body.results as Array<{ id: number; title: string; score: number }>;
    expect(got).toHaveLength(titles.length);

    const crossScores = await model.rerank(q, got.map((x) => x.title));
    const expected = got.map((x, i) => ({ id: x.id, s: crossScores[i] })).sort((a, b) => b.s - a.s).map((x) => x.id);
    expect(got.map((x) => x.id)).toEqual(expected);

    const [qv, ...vs] = await model.embed([q, ...got.map((x) => x.title)]);
    got.forEach((x, i) => expect(x.score).toBeCloseTo(cosine(qv, vs[i]), 4));
    // The point of the test: the cross-encoder's order is not simply the cosine order.
    const byCosine = [...got].sort((a, b) => b.score - a.score).map((x) => x.id);
    expect(got.map((x) => x.id)).not.toEqual(byCosine);
  });
});
