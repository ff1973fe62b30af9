// Cost of the bigram keyword index (migration 0008) for CJK text: capture rate with and without it (alternating runs),
// the deferred bigram writes, disk per idea beside the main FTS5 index, and CJK keyword query latency beside bare FTS5.
//
//   bun scripts/bench/cjk-index.ts [--ideas 3000] [--rounds 3]
//
// Text: Chinese and Japanese sentences assembled from common words with a fixed seed (the index's cost depends on
// the characters, not on what they mean); English ideas are STS-B sentences, as the other benchmarks use.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSearchService } from "../../src/modules/search/service";
import { segmentPhrase } from "../../src/modules/search/segment";
import { ideaTexts } from "./lib";
import { benchApp, benchUser, flag, ms, percentile, request } from "./search-lib";

const N = Number(flag("--ideas", "3000"));
const ROUNDS = Number(flag("--rounds", "3"));

const ZH = "自行车 太阳能 灯光 城市 咖啡馆 计划 晚上 明亮 充电 学校 音乐 旅行 预算 花园 厨房 森林 市场 手机 窗户 睡眠 跑步 相机 面包 代码 海洋 星球 书店 机器人 画画 河流 云朵 税务 象棋 信件 早餐 电池 屋顶 雨水 邻居 图书馆".split(" ");
const JA = "自転車 ライト 日本語 アイデア 太陽光 夜 明るい 充電 学校 音楽 旅行 予算 庭 台所 森 市場 電話 窓 睡眠 ランニング カメラ パン コード 海 惑星 本屋 ロボット 絵 川 雲 税金 将棋 手紙 朝ごはん 電池 屋根 雨水 近所 図書館".split(" ");
const JA_PARTICLES = ["の", "を", "に", "で", "と", "は"];

function cjkTexts(n: number): Array<{ title: string; body: string }> {
  let seed = 7;
  const rand = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
  const sentence = (words: number) => {
    const ja = rand(2) === 0;
    const pool = ja ? JA : ZH;
    const parts = Array.from({ length: words }, () => pool[rand(pool.length)] + (ja ? JA_PARTICLES[rand(6)] : rand(3) === 0 ? "的" : ""));
    return parts.join("") + (ja ? "。" : "。");
  };
  return Array.from({ length: n }, () => ({ title: sentence(3 + rand(3)), body: `${sentence(6 + rand(6))}${sentence(6 + rand(6))}` }));
}

/** Migration 0008's objects removed: the database as it would be without the bigram index. */
const WITHOUT_INDEX = `
  DROP TRIGGER ideas_fts_cjk_insert; DROP TRIGGER ideas_fts_cjk_update; DROP TRIGGER ideas_fts_cjk_delete;
  DROP TABLE ideas_fts_cjk; DROP TABLE ideas_fts_cjk_pending;`;

async function run(texts: Array<{ title: string; body: string }>, withIndex: boolean, measureMore: boolean) {
  const dir = mkdtempSync(join(tmpdir(), "idearepo-bench-cjk-"));
  const app = await benchApp(join(dir, "idearepo.db"), null);
  try {
    if (!withIndex) app.deps.db.exec(WITHOUT_INDEX);
    const user = await benchUser(app.deps, "pro");
    const t0 = performance.now();
    for (const t of texts) {
      const r = await request(app, user.key, "POST", "/ideas", t);
      if (r.status !== 201) throw new Error(`capture failed: ${r.status}`);
    }
    const rate = texts.length / ((performance.now() - t0) / 1000);
    if (!withIndex || !measureMore) return { rate };
    // The first CJK search writes every queued idea's bigram view.
    const service = createSearchService(app.deps);
    const auth = { user: app.deps.db.query("SELECT * FROM users WHERE id = ?").get(user.id) as never, plan: "pro" as const };
    const t1 = performance.now();
    await service.search(auth, { q: "自転車", mode: "keyword" });
    const drainMs = performance.now() - t1;
    const size = (pattern: string) =>
      (app.deps.db.query("SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name GLOB ?").get(pattern) as { b: number }).b;
    const disk = { cjk: size("ideas_fts_cjk*"), main: size("ideas_fts_[cdi][oad]*") , ideas: size("ideas") };
    // Query latency: two- and three-character words from the vocabulary, product service call vs bare FTS5.
    const words = [...ZH, ...JA].filter((w) => [...w].length >= 2);
    const bare = app.deps.db.query("SELECT rowid FROM ideas_fts_cjk WHERE ideas_fts_cjk MATCH ? ORDER BY bm25(ideas_fts_cjk, 2.0, 1.0) LIMIT 40");
    const product: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < 400; i++) {
      const w = words[i % words.length];
      const s = performance.now();
      if (i % 2 === 0) await service.search(auth, { q: w, mode: "keyword" });
      else bare.all(segmentPhrase(w)!);
      (i % 2 === 0 ? product : raw).push(performance.now() - s);
    }
    return { rate, drainMs, disk, product: percentile(product, 50), raw: percentile(raw, 50) };
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const cjk = cjkTexts(N);
const en = ideaTexts(N);
const rates: Record<string, number[]> = { "cjk with": [], "cjk without": [], "en with": [], "en without": [] };
let more: Awaited<ReturnType<typeof run>> | null = null;
// Warm-up (JIT, page cache), not recorded.
await run(cjk.slice(0, 300), true, true);
await run(en.slice(0, 300), false, false);
for (let r = 0; r < ROUNDS; r++) {
  // Alternate with and without (the machine is shared and noisy).
  for (const [name, texts, withIndex] of [["cjk with", cjk, true], ["cjk without", cjk, false], ["en without", en, false], ["en with", en, true]] as const) {
    const out = await run(texts, withIndex, name === "cjk with" && r === ROUNDS - 1);
    rates[name].push(out.rate);
    if ("drainMs" in out) more = out;
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const chars = cjk.reduce((s, t) => s + [...t.title].length + [...t.body].length, 0) / N;
console.log(`\n${N} ideas per run, ${ROUNDS} alternating rounds, sequential POST /ideas in process (pipeline off); CJK ideas ~${chars.toFixed(0)} characters`);
console.log("| | with bigram index | without (raw baseline: 0008's objects dropped) | ratio |");
console.log("|---|---|---|---|");
for (const kind of ["cjk", "en"]) {
  const w = med(rates[`${kind} with`]);
  const wo = med(rates[`${kind} without`]);
  console.log(`| capture, ${kind === "cjk" ? "Chinese/Japanese" : "English"} ideas (median ideas/s) | ${w.toFixed(0)} | ${wo.toFixed(0)} | ${(w / wo).toFixed(2)} |`);
}
if (more && "drainMs" in more && more.disk) {
  const m = more;
  console.log(`| bigram views written by the first CJK search | ${m.drainMs!.toFixed(0)} ms for ${N} ideas (${((m.drainMs! * 1000) / N).toFixed(0)} µs/idea) | | |`);
  console.log(`| disk: bigram index / main FTS5 index / ideas table, per CJK idea | ${(m.disk.cjk / N).toFixed(0)} B | ${(m.disk.main / N).toFixed(0)} B | ideas ${(m.disk.ideas / N).toFixed(0)} B |`);
  console.log(`| CJK keyword search p50 (service call, up to 40 rows) vs bare FTS5 MATCH on the bigram index | ${ms(m.product!)} | ${ms(m.raw!)} | ${(m.product! / m.raw!).toFixed(2)} |`);
}
