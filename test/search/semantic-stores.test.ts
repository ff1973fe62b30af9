// Semantic search means the same on both stores (issue 34): the same vectors in SQLite and in PostgreSQL give the
// same neighbours (coarse pass and exact pass, raw and calibrated, ideas and tags) and the same top 10 through
// GET /ideas/search, the second stage included.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDb } from "../../src/db/open";
import { pgStore } from "../../src/db/pg/store";
import { sqliteStore } from "../../src/db/sqlite-store";
import type { Store } from "../../src/db/store";
import type { ModelClient } from "../../src/ml/client";
import { createPipelineProcess, type PipelineProcess } from "../../src/pipeline/process";
import { planGenerations, readState } from "../../src/vectors/generations";
import { EXACT_POOL_MIN, vectorStore, type VectorStore } from "../../src/vectors/store";
import { makeRandom } from "../fixtures/random";
import { makeUser, type TestApp, type TestUser } from "../helpers";
import { capture, loadTestModel, search } from "../pipeline-helpers";
import { makePgApp } from "../support/pg-app";
import { migratedDatabase, requirePostgres } from "../support/postgres";
import { makeSqliteApp } from "../support/sqlite-app";

const run = requirePostgres();
const DIM = 64;

/** Unit vectors around a few shared directions, so neighbours are close and the account has something in common. */
function vectors(n: number, seed: number): Float32Array[] {
  const rand = makeRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  const centres = Array.from({ length: 6 }, () => Float32Array.from({ length: DIM }, gauss));
  return Array.from({ length: n }, (_, i) => {
    const c = centres[i % centres.length];
    const v = Float32Array.from({ length: DIM }, (_, d) => 0.2 + c[d] + 0.8 * gauss());
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

const close = (a: { id: number; score: number }[], b: { id: number; score: number }[]) => {
  expect(b.map((x) => x.id)).toEqual(a.map((x) => x.id));
  a.forEach((x, i) => expect(Math.abs(x.score - b[i].score)).toBeLessThan(1e-5));
};

describe.if(run)("the vector index on SQLite and PostgreSQL", () => {
  const stores: Store[] = [];
  const index: VectorStore[] = [];
  // More ideas than EXACT_POOL_MIN, so the coarse pass chooses which candidates are scored exactly.
  const ideas = vectors(EXACT_POOL_MIN + 300, 7);
  const queries = vectors(12, 99);

  beforeAll(async () => {
    stores.push(sqliteStore(openDb(":memory:")), pgStore((await migratedDatabase()).url));
    for (const store of stores) {
      const g = (await planGenerations(store, { model: "test", model_id: "test@1", dim: DIM }, "2030-01-01 00:00:00")).active!;
      const vs = vectorStore(store, g);
      await store.tx(async () => {
        for (const [i, v] of ideas.entries()) await vs.putIdea(i + 1, i % 10 === 0 ? "other" : "me", v, `h${i}`);
        for (const [i, v] of queries.slice(0, 8).entries()) await vs.putTag(i + 1, "me", v, `tag ${i}`);
      });
      index.push(vs);
    }
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  test("the same neighbours, raw and calibrated, by the coarse pass and exactly", async () => {
    const [lite, pg] = index;
    for (const q of queries) {
      for (const mode of ["quantized", "exact"] as const) {
        close(await lite.nearestIdeas("me", q, 20, mode), await pg.nearestIdeas("me", q, 20, mode));
        close(await lite.nearestCalibrated("me", q, 21, mode), await pg.nearestCalibrated("me", q, 21, mode));
      }
      const mine = await pg.nearestIdeas("me", q, 50);
      expect(mine.length).toBe(50);
      expect(mine.every((n) => n.id % 10 !== 1)).toBe(true); // the other account's ideas (i % 10 === 0) never appear
    }
  });

  test("the same tags, the same pair and duplicate scores, the same account sums", async () => {
    const [lite, pg] = index;
    for (const q of queries) {
      close(await lite.nearestTags("me", q, 5), await pg.nearestTags("me", q, 5));
      close(await lite.nearestTagsCalibrated("me", q, 5), await pg.nearestTagsCalibrated("me", q, 5));
      const others = [2, 3, 5, 8, 13, 21, 34, 55];
      const [a, b] = [await lite.localScores("me", q, others), await pg.localScores("me", q, others)];
      expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
      for (const [id, s] of a) expect(Math.abs(s - b.get(id)!)).toBeLessThan(1e-6);
    }
    expect(await pg.pairScore("me", 2, 3)).toBeCloseTo((await lite.pairScore("me", 2, 3))!, 6);
    const [sa, sb] = [await lite.shared("me"), await pg.shared("me")];
    expect(sb.n).toBe(sa.n);
    expect(Array.from(sb.centre!)).toEqual(Array.from(sa.centre!));
    // The stored bytes come back as they went in (a bytea read as a view into a larger buffer must not leak into them).
    expect(Array.from((await pg.ideaVector(5))!)).toEqual(Array.from(ideas[4]));
    expect(Array.from((await pg.tagVector(3))!)).toEqual(Array.from(queries[2]));
  });

  test("deleting and re-putting moves the results alike", async () => {
    const [lite, pg] = index;
    for (const vs of index) {
      await vs.deleteIdea(2);
      await vs.putIdea(3, "me", queries[0], "moved");
      await vs.deleteTag(1);
    }
    close(await lite.nearestCalibrated("me", queries[0], 10), await pg.nearestCalibrated("me", queries[0], 10));
    expect((await pg.nearestIdeas("me", queries[0], 1))[0].id).toBe(3);
    close(await lite.nearestTags("me", queries[0], 3), await pg.nearestTags("me", queries[0], 3));
  });
});

/** Notes with near neighbours of each other, so the second stage has close cosines to reorder. */
const CORPUS = [
  "Automobile repair shop for vintage motorcars", "Restoring classic cars in a small garage", "Electric conversion kits for old cars",
  "A weekly newsletter about indie video games", "Reviews of retro video game consoles", "Podcast about game design",
  "Rooftop vegetable garden with automatic irrigation", "Community garden plots for apartment dwellers", "Indoor herb garden kits",
  "Mobile app for splitting restaurant bills among friends", "Shared expenses tracker for roommates", "Budget planner for students",
  "Teach kids to code with robot building kits", "After-school programming club for children", "Online course on robotics for teens",
  "Subscription box of locally roasted coffee beans", "Coffee brewing workshop for beginners", "Tea tasting evenings",
  "Marketplace for renting camping gear", "Guided hiking trips in the mountains", "Tent and sleeping bag repair service",
  "Podcast interviewing small business founders", "Newsletter for first-time founders", "Mentoring programme for small shop owners",
];
const QUERIES = ["fixing old cars", "children learning programming", "rent tents and sleeping bags", "caffeine delivered monthly",
  "video games", "growing vegetables at home", "split the bill", "advice for founders", "garden", "robots"];

describe.if(run)("GET /ideas/search on SQLite and PostgreSQL", () => {
  let model: ModelClient;
  const apps: { t: TestApp; pipeline: PipelineProcess; user: TestUser }[] = [];

  beforeAll(async () => {
    model = await loadTestModel();
    for (const t of [makeSqliteApp(), await makePgApp()]) {
      const pipeline = createPipelineProcess(t.deps, { models: model, autoStart: false });
      await pipeline.start(t.deps);
      const user = await makeUser(t, { plan: "pro" });
      for (const title of CORPUS) await capture(t, user, { title });
      await pipeline.runner()!.drain();
      apps.push({ t, pipeline, user });
    }
  }, 120_000);
  afterAll(async () => {
    for (const a of apps) (await a.pipeline.stop(), await a.t.close());
    await model?.close();
  });

  test("the stores hold the same vectors, and every query gives the same top 10 with the same scores", async () => {
    const [lite, pg] = apps;
    const gens = await Promise.all(apps.map(async (a) => vectorStore(a.t.deps.store, (await readState(a.t.deps.store)).active!)));
    for (let id = 1; id <= CORPUS.length; id++) {
      expect(Array.from((await gens[1].ideaVector(id))!)).toEqual(Array.from((await gens[0].ideaVector(id))!));
    }
    for (const q of QUERIES) {
      const [a, b] = [await search(lite.t, lite.user, { q, limit: 10, min_score: 0 }), await search(pg.t, pg.user, { q, limit: 10, min_score: 0 })];
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.body.search_type).toBe("semantic");
      const rows = (r: typeof a) => (r.body.results as { id: number; title: string; score: number }[]);
      expect(rows(a)).toHaveLength(10);
      expect(rows(b).map((x) => x.title)).toEqual(rows(a).map((x) => x.title));
      rows(a).forEach((x, i) => expect(rows(b)[i].score).toBeCloseTo(x.score, 5));
    }
  }, 120_000);
});
