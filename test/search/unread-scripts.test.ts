// Chinese notes with the built-in English-only model (USE-lite), through the HTTP API: semantic search still finds a
// note by its own first sentence, and notes that only share a script the model cannot read are not duplicates.
import { beforeAll, describe, expect, test } from "bun:test";
import { cosine } from "../../src/ml/client";
import { KEYWORD_WEIGHT } from "../../src/modules/search/semantic";
import { createUsersService } from "../../src/modules/users/service";
import { call, makeUser, type TestUser } from "../helpers";
import { capture, search, settle, usePipelineApp } from "../pipeline-helpers";

const { t, model } = usePipelineApp();
let me: TestUser;
const ids = new Map<string, number>();

// Unrelated notes a person might keep, one subject each.
const ZH = [
  { title: "周末菜园", body: "在阳台种番茄和黄瓜，每天早上浇一次水。需要买一些有机肥料和支架。" },
  { title: "读书计划", body: "今年想读完二十本书，包括历史和科幻小说。每个月写一篇读书笔记。" },
  { title: "自行车通勤", body: "每天骑车上班大约十五公里，可以锻炼身体。下雨天改坐地铁。" },
  { title: "家庭预算", body: "把每月的开支分成房租、饮食、交通和储蓄四类，月底对账。" },
  { title: "学习日语", body: "每天背二十个单词，周末看一集没有字幕的动画片练习听力。" },
  { title: "旧电脑改造", body: "把旧笔记本装上轻量系统，当作家里的媒体服务器使用。" },
  { title: "社区图书角", body: "在楼下大厅放一个书架，邻居可以自由借书和捐书。" },
  { title: "早睡早起", body: "晚上十一点前关掉手机，早上六点半起床跑步。坚持一个月看看效果。" },
  { title: "咖啡笔记", body: "记录不同产地咖啡豆的风味，比较手冲和法压壶的区别。" },
  { title: "露营装备清单", body: "帐篷、睡袋、头灯、炉具和净水器，出发前一天检查电池。" },
  { title: "孩子的科学实验", body: "用醋和小苏打做火山喷发，解释酸碱反应的原理。" },
  { title: "厨房收纳", body: "把调料按使用频率排列，常用的放在灶台旁边的抽屉里。" },
  // Notes quote names and terms in English; the model reads only those, so its vector moves away from Chinese text.
  { title: "雨水收集", body: "在屋顶安装水箱收集雨水用来浇灌花园。Rain barrel with a first flush diverter, about 200 litres." },
  { title: "摄影练习", body: "每周拍一组街头照片，练习构图和自然光的运用。" },
];
const EN = [
  { title: "Garden planning", body: "Plant tomatoes along the south fence and water them every morning." },
  { title: "Reading list", body: "Finish twenty books this year, history and science fiction, with a short note on each." },
  { title: "Bike commute", body: "Ride fifteen kilometres to work each day; take the train when it rains." },
];
// The note searched for by its own first sentence.
const TARGET = "雨水收集";
const idOf = (title: string) => ids.get(title)!;

beforeAll(async () => {
  me = await makeUser(t, { plan: "pro" });
  for (const n of [...ZH, ...EN]) ids.set(n.title, await capture(t, me, n));
  await settle(t);
});

describe("scripts the model does not read", () => {
  test("semantic search finds a Chinese note first by its own first sentence; its score is its cosine", async () => {
    const note = ZH.find((n) => n.title === TARGET)!;
    const query = note.body.split("。")[0] + "。";
    // The premise: by cosine the note is far behind notes the model reads as nothing but unknown characters, beyond
    // what the keyword evidence of the second stage can lift (KEYWORD_WEIGHT): before, it was not in the top 5.
    const [qv, ...vs] = await model.embed([query, ...ZH.map((n) => `${n.title}\n${n.body}`)]);
    const own = cosine(qv, vs[ZH.indexOf(note)]);
    expect(vs.filter((v) => cosine(qv, v) > own + KEYWORD_WEIGHT).length).toBeGreaterThanOrEqual(5);
    const r = await search(t, me, { q: query, limit: 5 });
    expect(r.status).toBe(200);
    expect(r.body.search_type).toBe("semantic");
    expect(r.body.results[0].id).toBe(ids.get(TARGET));
    expect(r.body.results[0].score).toBeCloseTo(own, 3);
  });

  test("the floor still applies to the cosine: min_score just above the note's cosine drops it, just below keeps it", async () => {
    const note = ZH.find((n) => n.title === TARGET)!;
    const query = note.body.split("。")[0] + "。";
    const [qv, nv] = await model.embed([query, `${note.title}\n${note.body}`]);
    const own = cosine(qv, nv);
    const ids = async (min: number) => (await search(t, me, { q: query, limit: 5, min_score: min.toFixed(4) })).body.results.map((x: { id: number }) => x.id);
    expect(await ids(own - 0.001)).toContain(idOf(TARGET));
    expect(await ids(own + 0.001)).not.toContain(idOf(TARGET));
  });

  test("Chinese notes on unrelated subjects are never declared duplicates of each other", async () => {
    const r = await call(t, "GET", "/ideas/duplicates", { key: me.key });
    expect(r.status).toBe(200);
    const zh = new Set(ZH.map((n) => ids.get(n.title)));
    const between = r.body.duplicates.filter((d: { idea_id: number; duplicate_of_id: number }) => zh.has(d.idea_id) || zh.has(d.duplicate_of_id));
    expect(between).toEqual([]);
  });

  test("a Chinese note pasted again with its sentences in another order is still a duplicate", async () => {
    const note = ZH.find((n) => n.title === "早睡早起")!;
    const [a, b, c] = note.body.split("。").filter((s) => s !== "");
    const copy = await capture(t, me, { title: note.title, body: `${c}。${a}。${b}。` });
    await settle(t);
    const r = await call(t, "GET", `/ideas/duplicates?idea_ids=${copy}`, { key: me.key });
    expect(r.body.duplicates.map((d: { idea_id: number; duplicate_of_id: number }) => [d.idea_id, d.duplicate_of_id])).toEqual([[copy, ids.get(note.title)]]);
  });
});

describe("which languages the model reads", () => {
  test("GET /health names the model and the languages and scripts it reads", async () => {
    const r = await call(t, "GET", "/health");
    expect(r.status).toBe(200);
    expect(r.body.embeddings).toMatchObject({ model_name: "use-lite", languages: ["en"], scripts: ["Latin"], search_model_name: "use-lite", search_languages: ["en"] });
    // The fields that were there before are still there, with their meaning.
    expect(r.body.embeddings.model).toBe(model.embedModelId);
    expect(r.body.embeddings.pending).toBe(0);
  });

  test("the operator's instance view lists the account whose ideas are mostly in scripts the model does not read", async () => {
    const op = await createUsersService(t.deps).createUser({ email: `op-${Date.now()}@example.com`, plan: "pro", operator: true });
    const english = await makeUser(t, { plan: "pro" });
    for (const n of EN) await capture(t, english, n);
    const r = await call(t, "GET", "/admin/instance", { key: op.api_key });
    expect(r.status).toBe(200);
    const listed = r.body.unread_accounts.map((a: { email: string }) => a.email);
    expect(listed).toContain(me.email);
    expect(listed).not.toContain(english.email);
    const mine = r.body.unread_accounts.find((a: { email: string }) => a.email === me.email);
    expect(mine.unread).toBeGreaterThan(mine.sampled / 2);
  });
});
