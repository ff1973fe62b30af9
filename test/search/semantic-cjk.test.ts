// GET /ideas/search (semantic) on Chinese notes with the real, English-only USE-lite model: the keyword index's best
// matches join the vector neighbours as candidates, so a note whose own first sentence is the query is found.
import { beforeAll, describe, expect, test } from "bun:test";
import { cosine } from "../../src/ml/client";
import { makeUser, type TestUser } from "../helpers";
import { capture, search, usePipelineApp } from "../pipeline-helpers";

const { t, model } = usePipelineApp();
let me: TestUser;
let wanted: number;

// More distractors than the second stage's candidates (candidateCount: at least 50), all in the same script: the
// model reads none of them, so its neighbours of the query are close to random among them.
const PLACES = ["图书馆", "公园", "学校", "医院", "超市", "车站", "工厂", "农场", "博物馆", "体育馆", "餐厅", "银行"];
const DEEDS = ["周末打扫卫生", "组织志愿者活动", "安装新的照明设备", "举办儿童画展", "改善停车管理", "开设夜间课程"];
// Its second sentence holds English words, the only ones the model reads: its vector moves away from the query's
// (pure Chinese, like every distractor), so the vector neighbours alone would leave it out.
const TARGET = { title: "雨水收集计划", body: "在屋顶安装水箱收集雨水用来浇灌花园。夏天可以节省3成自来水。" };
const QUERY = "在屋顶安装水箱收集雨水用来浇灌花园。";

const DISTRACTORS = PLACES.flatMap((p) => DEEDS.map((d) => ({ title: `${p}${d}`, body: `我们打算在${p}${d}，欢迎大家参加。` })));

beforeAll(async () => {
  me = await makeUser(t, { plan: "pro" });
  for (const d of DISTRACTORS) await capture(t, me, d);
  wanted = await capture(t, me, TARGET);
  await t.drain();
});

describe("semantic search: keyword candidates for scripts the model does not read", () => {
  test("a Chinese note whose own first sentence is the query is found first; its score is its cosine", async () => {
    // The premise: more than the candidates' 50 distractors are closer to the query than its own note, by cosine.
    const [qv, nv, ...dv] = await model.embed([QUERY, `${TARGET.title}\n${TARGET.body}`, ...DISTRACTORS.map((d) => `${d.title}\n${d.body}`)]);
    expect(dv.filter((v) => cosine(qv, v) > cosine(qv, nv)).length).toBeGreaterThan(50);
    const r = await search(t, me, { q: QUERY, limit: 5 });
    expect(r.status).toBe(200);
    expect(r.body.search_type).toBe("semantic");
    expect(r.body.results[0].id).toBe(wanted);
    expect(r.body.results[0].score).toBeCloseTo(cosine(qv, nv), 3);
  });

  test("a keyword candidate still obeys the floor by its cosine", async () => {
    const [qv, nv] = await model.embed([QUERY, `${TARGET.title}\n${TARGET.body}`]);
    const own = cosine(qv, nv);
    const above = await search(t, me, { q: QUERY, limit: 5, min_score: (own - 0.01).toFixed(3) });
    expect(above.body.results.map((x: { id: number }) => x.id)).toContain(wanted);
    const below = await search(t, me, { q: QUERY, limit: 5, min_score: (own + 0.01).toFixed(3) });
    expect(below.body.results.map((x: { id: number }) => x.id)).not.toContain(wanted);
  });
});
