// Calibrated suggestions in a large account: quality and cost at 2,000, 5,000 and 10,000 ideas, each beside the
// raw-cosine rule on the same stored vectors in the same run.
//
//   bun scripts/bench/suggestions-scale.ts [--sizes 2000,5000,10000] [--captures 20] [--knn-queries 200] [--rescore-baseline] [--cached-only]
//     [--fit-samples 5000,10000] [--fit-rounds 2]
//
// The account: Git's manual (man-corpus.ts, the measured notes: no duplicates among them, the authors' links) and
// near-copies of every 5th note, filled up with the other manual pages installed (every section, one note per page)
// and then STS-B sentences (--data DIR or IDEAREPO_STSB_DIR) as one-line ideas. It grows by imports (as a person bringing notes
// would), each left to the background pass; at each size:
// - quality on the Git notes, as scripts/bench/suggestions.ts (false detections among them, near-copies found,
//   relations and their agreement with the authors' links) and false detections touching a sample of the filler,
//   beside today's rule (raw cosine, 20 neighbours, > 0.75, the 5 best > 0.5) judged from the same ideas' side;
// - cost: a capture's POST + its full pass (held-out pages captured one by one), a re-scoring pass over the whole
//   account, and the neighbour query alone, calibrated (nearestCalibrated) against raw (nearestIdeas), alternating.
// --fit-samples: the subjects fit's bound (SUBJECT_SAMPLE, the first is the product's) compared through the product:
// the fit alone in its worker, timed with the process's peak RSS (the worker is a thread of it), bounds alternating
// --fit-rounds times; then, per bound, the re-scoring pass and the product's figures it leaves.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startModels } from "../../src/ml/client";
import { directoryInput } from "../../src/modules/import/inputs";
import { createImportService } from "../../src/modules/import/service";
import { queueRescores } from "../../src/pipeline/rescore";
import { toStamp } from "../../src/lib/time";
import { readState } from "../../src/vectors/generations";
import { vectorStore } from "../../src/vectors/store";
import { SUBJECT_SAMPLE } from "../../src/vectors/subjects";
import { memStatus, resetPeak } from "./peak-memory";
import { loadGitManual, loadOtherManPages, nearCopy, rng, type CopyKind } from "./man-corpus";
import { benchApp, benchUser, flag, percentile, request } from "./search-lib";
import { parseSts } from "./stsb";
import { cachedEmbeddings, readVectorCache } from "./vector-cache";
import { ideaText } from "../../src/pipeline/embed";
import { accountMeanDuplicates, accountMeanRelations, measureVault, todayPairs, vaultFigures } from "./suggestions-lib";
import { requireStsbDir } from "./stsb-data";

const ROOT = resolve(import.meta.dir, "../..");
const sizes = flag("--sizes", "2000,5000,10000").split(",").map(Number);
const captures = Number(flag("--captures", "20"));
const knnQueries = Number(flag("--knn-queries", "200"));
const rescoreBaseline = process.argv.includes("--rescore-baseline");
const dataDir = requireStsbDir();
const max = Math.max(...sizes);
const fitSamples = flag("--fit-samples", String(SUBJECT_SAMPLE)).split(",").map(Number);
const fitRounds = Number(flag("--fit-rounds", "2"));

const notes = loadGitManual();
if (notes.length < 50) throw new Error(`only ${notes.length} Git manual pages found (install git-man or set IDEAREPO_GIT_MAN_DIR)`);
// --cached-only: only the manual pages whose vectors an earlier run cached (embedding thousands of pages takes the
// model about an hour on a loaded machine), then STS-B sentences (short: quick to embed) as before.
const cachedOnly = process.argv.includes("--cached-only");
const vectorFile = (id: string) => join(tmpdir(), `idearepo-bench-vectors-${id.replace(/[^\w.-]/g, "_")}.bin`);
let filler: { name: string; body: string }[] = loadOtherManPages(max + captures * sizes.length);
if (cachedOnly) {
  const cache = readVectorCache(vectorFile("use-lite@0.2.0"), 512);
  filler = filler.filter((f) => cache.has(ideaText(f.name, f.body)));
}
if (existsSync(join(dataDir, "sts-test.csv"))) {
  const names = new Set(filler.map((f) => f.name));
  for (const split of ["test", "dev"]) {
    for (const p of parseSts(readFileSync(join(dataDir, `sts-${split}.csv`), "utf8"))) {
      for (const s of [p.a, p.b]) {
        const title = s.slice(0, 150).replace(/[:#]/g, " ").trim();
        if (title && !names.has(title)) (names.add(title), filler.push({ name: title, body: s.length > 150 ? s : "" }));
      }
    }
  }
}
const manPages = filler.length;
const held = filler.splice(filler.length - captures * sizes.length); // captured one by one, timed
console.log(`corpus: ${notes.length} Git notes, ${filler.length} filler ideas available (${manPages} man pages + STS-B sentences)`);

const real = await startModels({ modelsDir: resolve(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
const model = cachedEmbeddings(real, join(tmpdir(), `idearepo-bench-vectors-${real.embedModelId.replace(/[^\w.-]/g, "_")}.bin`));
const app = await benchApp(":memory:", model);
const runner = app.pipeline!.runner()!;
const user = await benchUser(app.deps, "pro");
const db = app.deps.db;
const liveCount = () => db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM ideas WHERE user_id = ? AND is_archived = 0").get(user.id)!.n;

let fileNo = 0;
async function importNotes(items: { name: string; body: string }[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "idearepo-scale-"));
  // Unique file names over the run: an import skips a path it imported before.
  // No newline after the body: the idea's text is then ideaText(name, body), as the vector cache holds it (--cached-only).
  items.forEach((n) => writeFileSync(join(dir, `n${fileNo++}.md`), `---\ntitle: ${n.name}\n---\n${n.body}`));
  await createImportService(app.deps).importInput(user.id, "pro", directoryInput(dir), { from: "markdown" });
  rmSync(dir, { recursive: true, force: true });
}

const copies: { id: number; of: string; kind: CopyKind }[] = [];
let used = 0;
const results: string[] = [];
for (const size of sizes) {
  const first = copies.length === 0;
  const copyCount = notes.filter((_, i) => i % 5 === 0).length;
  const batch = filler.slice(used, used + Math.max(0, size - liveCount() - (first ? notes.length + copyCount : 0)));
  used += batch.length;
  const t0 = performance.now();
  await importNotes(first ? [...notes, ...batch] : batch);
  await runner.drain();
  const importS = (performance.now() - t0) / 1000;
  model.save();
  if (first) {
    const random = rng(25);
    const kinds: CopyKind[] = ["trimmed", "reordered", "retitled"];
    for (const [i, n] of notes.filter((_, i) => i % 5 === 0).entries()) {
      const kind = kinds[i % kinds.length];
      const r = await request(app, user.key, "POST", "/ideas", nearCopy(n, kind, random));
      if (r.status !== 201) throw new Error(`capture failed: ${r.status}`);
      copies.push({ id: r.body.id, of: n.name, kind });
    }
    await runner.drain();
  }

  // A capture's cost: POST /ideas, then its full pass (embedding, neighbours, relations, detections).
  const post: number[] = [];
  const pass: number[] = [];
  for (const h of held.splice(0, captures)) {
    const t1 = performance.now();
    const r = await request(app, user.key, "POST", "/ideas", { title: h.name, body: h.body || undefined });
    if (r.status !== 201) throw new Error(`capture failed: ${r.status}`);
    const t2 = performance.now();
    await runner.drain();
    post.push(t2 - t1);
    pass.push(performance.now() - t2);
  }

  // A re-scoring pass over the whole account (what an import or a 25% growth queues).
  const gen = (await readState(app.deps.store)).active!;
  const store = vectorStore(app.deps.store, gen);
  const n = liveCount();
  const waiting = db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs").get()!.n;
  if (waiting > 0) throw new Error(`${waiting} jobs left after the drain (failed and delayed?)`);
  /** One re-scoring pass as a re-score after growth runs it: the subjects fitted anew (in their worker), then every idea's steps. */
  const rescore = async (memo: boolean) => {
    store.memoizeNeighbours(memo);
    store.forgetSubjects(user.id);
    await store.markDirty(user.id);
    const t = performance.now();
    const queued = await queueRescores(app.deps.store, store, [user.id], toStamp(new Date()));
    await runner.drain();
    return { queued, s: (performance.now() - t) / 1000, load: loadavg()[0] };
  };
  // The bounds that differ at this size, and what the bound of 5,000 took before the sample was exact (every
  // ceil(n / 5,000)-th idea: 3,335 of 10,005), which an exact bound of that count reproduces.
  const stepped = Math.ceil(n / Math.ceil(n / 5_000));
  const bounds = [...new Set([...fitSamples.map((b) => Math.min(b, n)), stepped])];
  // The fit alone, each bound in turn (--fit-rounds times): seconds in the worker and the process's peak RSS.
  const fits = new Map<number, { s: number[]; rss: number; peak: number[]; load: number[] }>(bounds.map((b) => [b, { s: [], rss: 0, peak: [], load: [] }]));
  for (let r = 0; r < fitRounds; r++) {
    for (const bound of bounds) {
      store.boundSubjectSample(bound);
      store.forgetSubjects(user.id);
      resetPeak();
      const f = fits.get(bound)!;
      f.rss = memStatus().rssMb;
      const t = performance.now();
      await store.subjectsReady(user.id);
      f.s.push((performance.now() - t) / 1000);
      f.peak.push(memStatus().hwmMb);
      f.load.push(loadavg()[0]);
    }
  }
  // Per bound: a re-scoring pass over the account with its fit, and the product's figures it leaves (the first bound last, so the rows below the table are the product's).
  const perBound: string[] = [];
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  let pass0 = { queued: 0, s: 0, load: 0 };
  for (const bound of [...bounds.slice(1), bounds[0]]) {
    store.boundSubjectSample(bound);
    const p = (pass0 = await rescore(true));
    const v = await measureVault(app.deps.store, user.id, notes, copies);
    const f = fits.get(bound)!;
    perBound.push(
      `| fit on ${bound} ideas${bound === stepped && bound < Math.min(5_000, n) ? " (the bound of 5,000 before: one idea in " + Math.ceil(n / 5_000) + ")" : ""} | ${f.s.map((x) => x.toFixed(1)).join(" / ")} s (load ${f.load.map((x) => x.toFixed(1)).join(" / ")}) | ${f.rss.toFixed(0)} → ${f.peak.map((x) => x.toFixed(0)).join(" / ")} MB | ${p.s.toFixed(1)} s (${(p.s * 1000 / Math.max(1, p.queued)).toFixed(1)} ms an idea; load ${p.load.toFixed(1)}) | ${v.falseDuplicates} (${(v.falseDuplicates / notes.length * 20).toFixed(2)}) | ${v.copiesFound}/${copies.length} | ${v.related}; ${v.relatedMedian} / ${v.relatedMax}; ${pct(v.agreeing / Math.max(1, v.related))} |`,
    );
  }
  // --rescore-baseline: the same pass again without the neighbour memo (how the pass ran before it), after the product's.
  const baseline = rescoreBaseline ? await rescore(false) : null;
  store.memoizeNeighbours(true);
  const { queued, s: rescoreS } = pass0;

  // The neighbour query alone, calibrated vs raw, alternating, over stored vectors of the account.
  const ids = db.query<{ id: number }, [string]>("SELECT id FROM ideas WHERE user_id = ? AND is_archived = 0 ORDER BY id").all(user.id).map((r) => r.id);
  const step = Math.max(1, Math.floor(ids.length / knnQueries));
  const qs: Float32Array[] = [];
  for (const id of ids.filter((_, i) => i % step === 0).slice(0, knnQueries)) {
    const v = await store.ideaVector(id);
    if (v) qs.push(v);
  }
  // Each query timed afresh: the store keeps answers while the account is unchanged (neighbour-memo.ts).
  store.memoizeNeighbours(false);
  const tCal: number[] = [];
  const tRaw: number[] = [];
  const tLocal: number[] = [];
  for (const v of qs) {
    let t = performance.now();
    const near = await store.nearestCalibrated(user.id, v, 21);
    tCal.push(performance.now() - t);
    t = performance.now();
    await store.localScores(user.id, v, near.slice(1).map((x) => x.id));
    tLocal.push(performance.now() - t);
    t = performance.now();
    await store.nearestIdeas(user.id, v, 21);
    tRaw.push(performance.now() - t);
  }

  // Recall of the coarse pass (binary codes) against exact scoring of every vector, top 20.
  const recall = async (f: (v: Float32Array, mode: "exact" | "quantized") => Promise<{ id: number }[]>) => {
    let hit = 0;
    for (const v of qs) {
      const exact = new Set((await f(v, "exact")).slice(0, 20).map((x) => x.id));
      hit += (await f(v, "quantized")).slice(0, 20).filter((x) => exact.has(x.id)).length;
    }
    return hit / (20 * qs.length);
  };
  const recallCal = await recall((v, m) => store.nearestCalibrated(user.id, v, 20, m));
  const recallRaw = await recall((v, m) => store.nearestIdeas(user.id, v, 20, m));

  // Quality: the product's rows, and today's rule judged from the side of the Git notes, the copies and a sample.
  const product = await measureVault(app.deps.store, user.id, notes, copies);
  const noteIds = db.query<{ id: number; title: string }, [string]>("SELECT id, title FROM ideas WHERE user_id = ? AND is_archived = 0").all(user.id);
  const names = new Set(notes.map((x) => x.name));
  const copyIds = new Set(copies.map((c) => c.id));
  const measured = new Set(noteIds.filter((r) => names.has(r.title) || copyIds.has(r.id)).map((r) => r.id));
  const sample = new Set(noteIds.filter((r) => !measured.has(r.id)).map((r) => r.id).filter((_, i) => i % 10 === 0));
  const raw = await todayPairs(app.deps.store, gen, user.id, new Set([...measured, ...sample]));
  const today = await vaultFigures(app.deps.store, user.id, notes, copies, raw.dups, raw.rels);
  const meanDups = await accountMeanDuplicates(app.deps.store, store, user.id, new Set([...measured, ...sample]));
  const before = await vaultFigures(app.deps.store, user.id, notes, copies, meanDups, await accountMeanRelations(store, user.id, measured));
  const pendingPairs = db.query<{ a: number; b: number }, [string]>(
    "SELECT idea_id AS a, duplicate_of_id AS b FROM duplicate_detections WHERE user_id = ? AND status = 'pending'",
  ).all(user.id).map((r) => [r.a, r.b] as [number, number]);
  const touching = (pairs: [number, number][]) => pairs.filter(([a, b]) => (sample.has(a) && !measured.has(b)) || (sample.has(b) && !measured.has(a))).length;
  const relCount = db.query<{ n: number }, [string]>(
    "SELECT count(*) AS n FROM relations WHERE user_id = ? AND created_by = 'system' AND relation_type = 'related'",
  ).get(user.id)!.n;

  const p50 = (xs: number[]) => percentile(xs, 50).toFixed(1);
  const out = [
    `\n### ${n} ideas (${used} filler), model ${model.embedModelId}`,
    `import of ${batch.length + (first ? notes.length : 0)} + background pass (with its re-scoring): ${importS.toFixed(1)} s`,
    "| figure | product (calibrated; subjects for duplicates and for ranking relations) | before (account mean only, same vectors) | today (raw cosine, same vectors) |",
    "|---|---:|---:|---:|",
    `| false duplicate detections among the ${notes.length} Git notes (per 20 notes) | ${product.falseDuplicates} (${(product.falseDuplicates / notes.length * 20).toFixed(2)}) | ${before.falseDuplicates} (${(before.falseDuplicates / notes.length * 20).toFixed(2)}) | ${today.falseDuplicates} (${(today.falseDuplicates / notes.length * 20).toFixed(2)}) |`,
    `| false detections touching ${sample.size} sampled filler ideas, per 20 of them | ${(touching(pendingPairs) / sample.size * 20).toFixed(2)} | ${(touching(meanDups) / sample.size * 20).toFixed(2)} | ${(touching(raw.dups) / sample.size * 20).toFixed(2)} |`,
    `| near-copies found | ${product.copiesFound}/${copies.length} (${pct(product.copiesFound / copies.length)}) | ${before.copiesFound}/${copies.length} | ${today.copiesFound}/${copies.length} |`,
    `| relations between Git notes | ${product.related} | ${before.related} | ${today.related} |`,
    `| … per note, median / max | ${product.relatedMedian} / ${product.relatedMax} | ${before.relatedMedian} / ${before.relatedMax} | ${today.relatedMedian} / ${today.relatedMax} |`,
    `| … agreeing with an author's link | ${pct(product.agreeing / Math.max(1, product.related))} (${product.agreeing}) | ${pct(before.agreeing / Math.max(1, before.related))} (${before.agreeing}) | ${pct(today.agreeing / Math.max(1, today.related))} (${today.agreeing}) |`,
    `| automatic relations in the account, per idea | ${(2 * relCount / n).toFixed(2)} | | |`,
    `| neighbour query (21), p50 / p95 ms, ${qs.length} queries alternating | ${p50(tCal)} / ${percentile(tCal, 95).toFixed(1)} | | raw ${p50(tRaw)} / ${percentile(tRaw, 95).toFixed(1)} |`,
    `| duplicate scores of 20 neighbours (localScores), p50 ms, ${qs.length} queries | ${p50(tLocal)} | | |`,
    `| recall@20 of the coarse pass against exact scoring, ${qs.length} queries | ${recallCal.toFixed(3)} | | raw ${recallRaw.toFixed(3)} |`,
    `| a capture: POST /ideas p50, then its full pass p50 (ms, ${post.length} captures) | ${p50(post)}, ${p50(pass)} | | |`,
    `| re-scoring pass over ${queued} ideas, with its subjects fit (load at its end) | ${rescoreS.toFixed(1)} s (${(rescoreS * 1000 / Math.max(1, queued)).toFixed(1)} ms an idea; load ${pass0.load.toFixed(1)}) | ${baseline ? `without the neighbour memo, run after: ${baseline.s.toFixed(1)} s (${(baseline.s * 1000 / Math.max(1, baseline.queued)).toFixed(1)} ms an idea; load ${baseline.load.toFixed(1)})` : ""} | |`,
    `| load average (1 min) at the end of this size | ${loadavg()[0].toFixed(1)} | | |`,
    "",
    `The subjects fit's bound at ${n} ideas (fits alone alternating, ${fitRounds} rounds; then per bound a re-scoring pass and the product's figures):`,
    "| bound | fit alone, in the worker | RSS before → peak during the fit | re-scoring pass with its fit | false detections among the Git notes (per 20) | near-copies | relations between Git notes; median / max; agreeing |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...perBound,
  ];
  console.log(out.join("\n"));
  results.push(...out);
}

console.log("\n\n# summary\n" + results.join("\n"));
await app.close();
model.save();
await model.close();
