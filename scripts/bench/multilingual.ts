// Search by meaning and duplicate detections on real help pages in English, Chinese and Japanese in one account
// (issue 38): Debian's `manpages`, `manpages-zh` (zh_CN) and `manpages-ja`, N pages per language (title the page
// name, body its one-line summary and Description), captured through POST /ideas into one Pro account and left to
// the pipeline (the built-in USE-lite). Each note's first sentence is its query.
//
//   bun scripts/bench/multilingual.ts [--per 40]
//
// Prints, per language and in the same run: hit@1 / hit@5 of GET /ideas/search (the product) and of semanticSearch
// under each rule for queries the model cannot read (off = before issue 38, join, keywords-first), alternating per
// query; false duplicate detections per 20 notes among each language's notes (the product's, read through GET
// /ideas/duplicates, beside the rule before on the same stored vectors); and near-copies of every 5th note found.
// Vectors of batches are cached in /tmp (vector-cache.ts), so a rerun embeds only the queries.
import { existsSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { startModels } from "../../src/ml/client";
import { createSearchRepo } from "../../src/modules/search/repo";
import { semanticSearch, type UnreadRule } from "../../src/modules/search/semantic";
import { readState } from "../../src/vectors/generations";
import { vectorStore } from "../../src/vectors/store";
import { servingGeneration } from "../../src/pipeline/models";
import { NEIGHBOURS } from "../../src/pipeline/steps";
import { gramCounts, specificity, wordCosine, wordCounts } from "../../src/pipeline/text-overlap";
import { modelScripts, unreadShare } from "../../src/ml/languages";
import { nearCopy, rng, roffToText } from "./man-corpus";
import { cachedEmbeddings } from "./vector-cache";
import { benchApp, benchUser, flag, request } from "./search-lib";

const ROOT = resolve(import.meta.dir, "../..");
type Lang = "en" | "zh" | "ja";
const LANGS: Lang[] = ["en", "zh", "ja"];
/** The package's file list, and the folder prefix its pages live under. */
const SOURCES: Record<Lang, { list: string; under: RegExp }> = {
  en: { list: "/var/lib/dpkg/info/manpages.list", under: /^\/usr\/share\/man\/man\d\/.+\.gz$/ },
  zh: { list: "/var/lib/dpkg/info/manpages-zh.list", under: /^\/usr\/share\/man\/zh_CN\/man\d\/.+\.gz$/ },
  ja: { list: "/var/lib/dpkg/info/manpages-ja.list", under: /^\/usr\/share\/man\/ja\/man\d\/.+\.gz$/ },
};
// The translations name their sections in their own language; roffToText knows NAME and Description by English names.
const NAME_HEADS = /^\.SH\s+"?(名称|名前|名字|NAME)"?\s*$/gm;
const DESC_HEADS = /^\.SH\s+"?(描述|说明|說明|説明|解説|DESCRIPTION)"?\s*$/gm;

interface Note { lang: Lang; name: string; body: string; query: string }

/** The note's first sentence: up to the first full stop (Latin or CJK), else its first line. */
function firstSentence(body: string): string {
  const line = body.split("\n")[0];
  const m = /^(.+?[。．！？]|.+?[.!?](?=\s|$))/u.exec(line);
  return (m ? m[1] : line).trim();
}

let skipped = 0;
function loadPages(lang: Lang, per: number): Note[] {
  skipped = 0;
  const { list, under } = SOURCES[lang];
  if (!existsSync(list)) throw new Error(`${list} missing: apt-get install ${list.split("/").pop()!.replace(".list", "")}`);
  const files = readFileSync(list, "utf8").split("\n").filter((f) => under.test(f)).sort();
  const random = rng(38);
  for (let i = files.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [files[i], files[j]] = [files[j], files[i]];
  }
  const out: Note[] = [];
  const seen = new Set<string>();
  const taken: Map<string, number>[] = [];
  for (const path of files) {
    if (out.length >= per) break;
    const roff = gunzipSync(readFileSync(path)).toString("utf8").replace(NAME_HEADS, ".SH NAME").replace(DESC_HEADS, ".SH DESCRIPTION");
    if (/^\.so /m.test(roff)) continue;
    const p = roffToText(roff, true);
    const name = p.name.replace(/\s+/g, " ").trim().slice(0, 150);
    if (!name || !p.description || seen.has(name) || seen.has(p.description)) continue;
    const sections = p.text.split(/\n\n(?=## )/);
    const desc = sections.find((s) => s.startsWith("## Description"));
    if (!desc) continue;
    let body = p.description;
    for (const para of desc.replace(/^## Description\n\n/, "").split("\n\n")) {
      if (body.length + para.length + 2 > 1_500 && body.length > p.description.length) break;
      body += `\n\n${para}`;
    }
    body = body.slice(0, 1_500);
    if (body.length < 80) continue;
    // A page whose Description is in English in the Chinese or Japanese package (untranslated) is not a note in it.
    if (lang !== "en" && unreadShare(body, ["Latin"]) < 0.5) continue;
    // Template families (iso_8859-1, -2, … share their Description word for word) are near-copies by their text, which
    // any detector should flag: the vault is meant to hold none, so a page that close to one already taken is skipped.
    const words = gramCounts(name, body);
    if (taken.some((w) => wordCosine(w, words) > 0.9)) {
      skipped++;
      continue;
    }
    taken.push(words);
    seen.add(name);
    seen.add(p.description);
    out.push({ lang, name, body, query: firstSentence(body) });
  }
  if (out.length < per) throw new Error(`only ${out.length} ${lang} pages usable`);
  if (skipped > 0) console.log(`  ${lang}: ${skipped} pages skipped as near-copies by text of a page taken (template families)`);
  return out;
}

const per = Number(flag("--per", "40"));
const modelName = "use-lite";
const modelsDir = join(ROOT, "models");
const notes = LANGS.flatMap((l) => loadPages(l, per));
const real = await startModels({ modelsDir, embedModel: modelName, rerankModel: null });
const model = cachedEmbeddings(real, join(tmpdir(), `idearepo-bench-vectors-multilingual-${real.embedModelId.replace(/[^\w.-]/g, "_")}.bin`));
const app = await benchApp(":memory:", model);
try {
  const user = await benchUser(app.deps, "pro");
  // Interleaved, as a person writing in three languages captures them.
  const order = notes.map((n, i) => ({ n, k: (i % per) * 3 + LANGS.indexOf(n.lang) })).sort((a, b) => a.k - b.k).map((x) => x.n);
  const idOf = new Map<Note, number>();
  for (const n of order) {
    const r = await request(app, user.key, "POST", "/ideas", { title: n.name, body: n.body });
    if (r.status !== 201) throw new Error(`capture failed: ${r.status} ${JSON.stringify(r.body)}`);
    idOf.set(n, r.body.id);
  }
  const t0 = performance.now();
  await app.pipeline!.runner()!.drain();
  model.save();
  const langOf = new Map([...idOf].map(([n, id]) => [id, n.lang]));
  console.log(`\n${notes.length} notes (${per} per language) drained in ${((performance.now() - t0) / 1000).toFixed(1)} s; model ${model.embedModelId}, reads ${JSON.stringify(modelScripts(modelName, modelsDir))}`);
  for (const l of LANGS) {
    const ex = notes.find((n) => n.lang === l)!;
    const queries = notes.filter((n) => n.lang === l);
    const unread = queries.filter((n) => unreadShare(n.query, modelScripts(modelName, modelsDir)) > 0.5).length;
    console.log(`  ${l}: e.g. "${ex.name}" → query "${ex.query}"; ${unread}/${queries.length} queries unread by the model`);
  }

  // Search: the product through HTTP, and each rule on the same stored vectors, alternating per query.
  const repo = createSearchRepo(app.deps.store);
  const rules: UnreadRule[] = ["off", "join", "keywords-first", "keywords-first-max"];
  const labels = ["GET /ideas/search (product)", "GET /ideas/search?mode=keyword", ...rules.map((r) => `semanticSearch, unread rule "${r}"${r === "off" ? " (before)" : ""}`)];
  const hits = labels.map(() => new Map(LANGS.map((l) => [l, { h1: 0, h5: 0 }])));
  const ms = labels.map(() => [] as number[]);
  for (const [qi, n] of notes.entries()) {
    const want = idOf.get(n)!;
    const runs: Array<() => Promise<number[]>> = [
      async () => (await request(app, user.key, "GET", `/ideas/search?q=${encodeURIComponent(n.query.slice(0, 500))}&limit=5`)).body.results.map((x: { id: number }) => x.id),
      async () => (await request(app, user.key, "GET", `/ideas/search?mode=keyword&q=${encodeURIComponent(n.query.slice(0, 500))}&limit=5`)).body.results.map((x: { id: number }) => x.id),
      ...rules.map((rule) => async () => (await semanticSearch(app.deps, repo, user.id, n.query.slice(0, 500), { floor: 0.2, limit: 5, unread: rule }))!.hits.map((h) => h.id)),
    ];
    const idx = runs.map((_, i) => i);
    if (qi % 2 === 1) idx.reverse();
    for (const i of idx) {
      const t1 = performance.now();
      const ids = await runs[i]();
      ms[i].push(performance.now() - t1);
      const c = hits[i].get(n.lang)!;
      if (ids[0] === want) c.h1++;
      if (ids.slice(0, 5).includes(want)) c.h5++;
    }
  }
  const pct = (x: number) => `${Math.round((100 * x) / per)}%`;
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(1);
  console.log(`\n| first sentence → its note (${per} a language, one account) | en hit@1 / @5 | zh hit@1 / @5 | ja hit@1 / @5 | p50 ms |`);
  console.log("|---|---:|---:|---:|---:|");
  for (const [i, label] of labels.entries()) {
    const cells = LANGS.map((l) => `${pct(hits[i].get(l)!.h1)} / ${pct(hits[i].get(l)!.h5)}`);
    console.log(`| ${label} | ${cells.join(" | ")} | ${p50(ms[i])} |`);
  }

  // Duplicates: the product's (GET /ideas/duplicates) and the rule before on the same stored vectors, offline.
  const state = await readState(app.deps.store);
  const gen = servingGeneration(state, app.pipeline!.models()) ?? state.active!;
  const store = vectorStore(app.deps.store, gen);
  const threshold = 0.75;
  const wordsOf = new Map(notes.map((n) => [idOf.get(n)!, wordCounts(n.name, n.body)]));
  const before = async (ids: number[]) => {
    const pairs = new Set<string>();
    for (const a of ids) {
      const v = await store.ideaVector(a);
      if (!v) continue;
      const near = (await store.nearestCalibrated(user.id, v, NEIGHBOURS + 1)).filter((x) => x.id !== a && wordsOf.has(x.id));
      const wa = wordsOf.get(a)!;
      const local = await store.localScores(user.id, v, near.map((x) => x.id), { mine: specificity(wa), of: new Map(near.map((x) => [x.id, specificity(wordsOf.get(x.id)!)])) });
      for (const x of near) {
        const s = Math.max(local.get(x.id) ?? 0, wordCosine(wa, wordsOf.get(x.id)!));
        if (s > threshold) pairs.add([a, x.id].sort((p, q) => p - q).join("-"));
      }
    }
    return pairs;
  };
  const listed = async () => {
    const r = await request(app, user.key, "GET", "/ideas/duplicates");
    return new Set((r.body.duplicates as Array<{ idea_id: number; duplicate_of_id: number }>).map((d) => [d.idea_id, d.duplicate_of_id].sort((p, q) => p - q).join("-")));
  };
  const productPairs = await listed();
  if (process.argv.includes("--show")) {
    const nameOf = new Map([...idOf].map(([n, id]) => [id, `${n.lang}:${n.name}`]));
    const r = await request(app, user.key, "GET", "/ideas/duplicates");
    for (const d of r.body.duplicates) console.log(`  detected ${d.similarity_score.toFixed(3)} ${nameOf.get(d.idea_id)} ~ ${nameOf.get(d.duplicate_of_id)}`);
  }
  const beforePairs = await before([...wordsOf.keys()]);
  const byLang = (pairs: Set<string>) => {
    const out = new Map<string, number>();
    for (const p of pairs) {
      const [a, b] = p.split("-").map(Number);
      const la = langOf.get(a);
      const lb = langOf.get(b);
      if (!la || !lb) continue;
      const k = la === lb ? la : "cross";
      out.set(k, (out.get(k) ?? 0) + 1);
    }
    return out;
  };
  const cell = (m: Map<string, number>, k: string) => `${(((m.get(k) ?? 0) * 20) / per).toFixed(2)} (${m.get(k) ?? 0})`;
  const pb = byLang(beforePairs);
  const pp = byLang(productPairs);
  console.log(`\n| false duplicate detections per 20 notes (pairs) | en | zh | ja | across languages (pairs) |`);
  console.log("|---|---:|---:|---:|---:|");
  console.log(`| before (embedding cosine or words, same vectors, offline) | ${cell(pb, "en")} | ${cell(pb, "zh")} | ${cell(pb, "ja")} | ${pb.get("cross") ?? 0} |`);
  console.log(`| product (GET /ideas/duplicates) | ${cell(pp, "en")} | ${cell(pp, "zh")} | ${cell(pp, "ja")} | ${pp.get("cross") ?? 0} |`);

  // Near-copies of every 5th note of each language, captured afterwards: found by the product, and by the rule before.
  const random = rng(380);
  const kinds = ["trimmed", "reordered", "retitled"] as const;
  const copies: Array<{ lang: Lang; of: number; id: number; kind: string }> = [];
  for (const [i, n] of notes.entries()) {
    if (i % 5 !== 0) continue;
    const kind = kinds[copies.length % 3];
    const c = nearCopy({ name: n.name, body: n.body, links: [] }, kind, random);
    const r = await request(app, user.key, "POST", "/ideas", c);
    copies.push({ lang: n.lang, of: idOf.get(n)!, id: r.body.id, kind });
    wordsOf.set(r.body.id, wordCounts(c.title, c.body));
  }
  await app.pipeline!.runner()!.drain();
  model.save();
  const after = await listed();
  const beforeCopies = await before(copies.map((c) => c.id));
  const key = (c: { of: number; id: number }) => [c.of, c.id].sort((p, q) => p - q).join("-");
  const found = (pairs: Set<string>, l: Lang) => copies.filter((c) => c.lang === l && pairs.has(key(c))).length;
  const total = (l: Lang) => copies.filter((c) => c.lang === l).length;
  console.log(`\n| near-copies found (trimmed / reordered / retitled in turn) | en | zh | ja |`);
  console.log("|---|---:|---:|---:|");
  console.log(`| before (offline, same vectors) | ${LANGS.map((l) => `${found(beforeCopies, l)}/${total(l)}`).join(" | ")} |`);
  console.log(`| product (GET /ideas/duplicates) | ${LANGS.map((l) => `${found(after, l)}/${total(l)}`).join(" | ")} |`);
  for (const c of copies.filter((c) => !after.has(key(c)))) {
    const [a, b] = await Promise.all([c.of, c.id].map(async (id) => (await request(app, user.key, "GET", `/ideas/${id}`)).body));
    console.log(`  missed: ${c.lang} ${c.kind} "${a.title}": gram cosine ${wordCosine(gramCounts(a.title, a.body ?? ""), gramCounts(b.title, b.body ?? "")).toFixed(3)}`);
  }
} finally {
  await app.close();
  await model.close();
}
