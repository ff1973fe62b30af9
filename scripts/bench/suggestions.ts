// Suggestions on a real vault: duplicate detections, automatic relations and STS-B paraphrase precision, through the
// product, each figure beside today's rule (raw cosine, fixed thresholds) on the same stored vectors in the same run.
//
//   bun scripts/bench/suggestions.ts [--copies-every 5] [--data DIR] [--no-sts] [--no-vault]
//
// Corpus: Git's manual (man-corpus.ts: one note per page, none a duplicate of another; the pages' own references are
// the authors' links), written as a Markdown folder and imported through the import service, left to the background
// pass (drained). Then near-copies of every Nth note (trimmed, reordered, retitled in turn) are captured through
// POST /ideas. STS-B (--data DIR or IDEAREPO_STSB_DIR): the test split's sentences are captured into a second account;
// pairs scored ≥ 4.6 count as duplicates, ≤ 3.5 as not.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startModels } from "../../src/ml/client";
import { directoryInput } from "../../src/modules/import/inputs";
import { createImportService } from "../../src/modules/import/service";
import { specificity, wordCosine, wordCounts } from "../../src/pipeline/text-overlap";
import { readState } from "../../src/vectors/generations";
import { vectorStore } from "../../src/vectors/store";
import { loadGitManual, nearCopy, rng, type CopyKind } from "./man-corpus";
import { benchApp, benchUser, flag, request } from "./search-lib";
import { parseSts } from "./stsb";
import { accountMeanDuplicates, accountMeanRelations, measureVault, todayRules, vaultFigures, type VaultFigures } from "./suggestions-lib";
import { requireStsbDir } from "./stsb-data";

const ROOT = resolve(import.meta.dir, "../..");
const copiesEvery = Number(flag("--copies-every", "5"));
const dataDir = requireStsbDir();
const withSts = !process.argv.includes("--no-sts") && existsSync(join(dataDir, "sts-test.csv"));
const withVault = !process.argv.includes("--no-vault");

const notes = loadGitManual();
if (notes.length < 50) throw new Error(`only ${notes.length} Git manual pages found (install git-man or set IDEAREPO_GIT_MAN_DIR)`);
const model = await startModels({ modelsDir: resolve(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
const app = await benchApp(":memory:", model);
const runner = app.pipeline!.runner()!;
const user = await benchUser(app.deps, "pro");

if (withVault) {
  // The vault: one Markdown file per page, imported as a person would (CLI and route share this service).
  const dir = mkdtempSync(join(tmpdir(), "idearepo-vault-"));
  for (const n of notes) writeFileSync(join(dir, `${n.name}.md`), `---\ntitle: ${n.name}\n---\n${n.body}\n`);
  const t0 = performance.now();
  await createImportService(app.deps).importInput(user.id, "pro", directoryInput(dir), { from: "markdown" });
  rmSync(dir, { recursive: true, force: true });
  await runner.drain();
  const importSeconds = (performance.now() - t0) / 1000;

  // Near-copies captured afterwards.
  const random = rng(25);
  const kinds: CopyKind[] = ["trimmed", "reordered", "retitled"];
  const copies: { id: number; of: string; kind: CopyKind }[] = [];
  for (const [i, n] of notes.filter((_, i) => i % copiesEvery === 0).entries()) {
    const kind = kinds[i % kinds.length];
    const r = await request(app, user.key, "POST", "/ideas", nearCopy(n, kind, random));
    if (r.status !== 201) throw new Error(`capture failed: ${r.status}`);
    copies.push({ id: r.body.id, of: n.name, kind });
  }
  await runner.drain();

  const vault: VaultFigures = await measureVault(app.deps.store, user.id, notes, copies);
  const baseline = await todayRules(app.deps.store, (await readState(app.deps.store)).active!, user.id, notes, copies);

  console.log(`Git manual: ${notes.length} notes, ${vault.authorLinks} author links between them, ${copies.length} near-copies; model ${model.embedModelId}`);
  console.log(`import + background pass: ${importSeconds.toFixed(1)} s\n`);
  console.log("| figure | product | today (raw cosine, same vectors) | target |");
  console.log("|---|---:|---:|---:|");
  row("false duplicate detections among the notes", String(vault.falseDuplicates), String(baseline.falseDuplicates), "");
  row("… per 20 notes", (vault.falseDuplicates / notes.length * 20).toFixed(2), (baseline.falseDuplicates / notes.length * 20).toFixed(2), "≤ 1");
  row("false detections of a near-copy with another note", String(vault.copyFalse), String(baseline.copyFalse), "");
  row("near-copies detected (recall)", `${vault.copiesFound}/${copies.length} (${pct(vault.copiesFound / copies.length)})`, `${baseline.copiesFound}/${copies.length} (${pct(baseline.copiesFound / copies.length)})`, "≥ 90%");
  for (const k of kinds) row(`… ${k}`, `${vault.copiesFoundBy[k] ?? 0}/${copies.filter((c) => c.kind === k).length}`, `${baseline.copiesFoundBy[k] ?? 0}/${copies.filter((c) => c.kind === k).length}`, "");
  row("automatic relations between notes", String(vault.related), String(baseline.related), "");
  row("… per note: median / max", `${vault.relatedMedian} / ${vault.relatedMax}`, `${baseline.relatedMedian} / ${baseline.relatedMax}`, "median ≤ 3");
  row("… agreeing with an author's link", pct(vault.agreeing / Math.max(1, vault.related)), pct(baseline.agreeing / Math.max(1, baseline.related)), "≥ 40%");
  row("… author links found", pct(vault.agreeing / vault.authorLinks), pct(baseline.agreeing / vault.authorLinks), "");

  // The previous product's relations on the same vectors: candidates ranked by the account's calibration, not by
  // the duplicate score's subjects.
  const db = app.deps.db;
  const store = vectorStore(app.deps.store, (await readState(app.deps.store)).active!);
  const ids = new Set(db.query<{ id: number }, [string]>("SELECT id FROM ideas WHERE user_id = ? AND is_archived = 0").all(user.id).map((r) => r.id));
  const prev = await vaultFigures(app.deps.store, user.id, notes, copies, await accountMeanDuplicates(app.deps.store, store, user.id, ids), await accountMeanRelations(store, user.id, ids));
  console.log("\n| figure | product | previous product (duplicates by the account's calibration only, relations ranked by it), same vectors |");
  console.log("|---|---:|---:|");
  row("false duplicate detections per 20 notes", `${(vault.falseDuplicates / notes.length * 20).toFixed(2)} (${vault.falseDuplicates})`, `${(prev.falseDuplicates / notes.length * 20).toFixed(2)} (${prev.falseDuplicates})`, "");
  row("near-copies detected", `${vault.copiesFound}/${copies.length}`, `${prev.copiesFound}/${copies.length}`, "");
  row("relations between notes", String(vault.related), String(prev.related), "");
  row("… per note: median / max", `${vault.relatedMedian} / ${vault.relatedMax}`, `${prev.relatedMedian} / ${prev.relatedMax}`, "");
  row("… agreeing with an author's link", `${pct(vault.agreeing / Math.max(1, vault.related))} (${vault.agreeing})`, `${pct(prev.agreeing / Math.max(1, prev.related))} (${prev.agreeing})`, "");
  console.log(`load average (1 min): ${loadavg()[0].toFixed(1)}`);
}

if (withSts) {
  const gen = (await readState(app.deps.store)).active!;
  const pairs = parseSts(readFileSync(join(dataDir, "sts-test.csv"), "utf8"));
  const sts = await benchUser(app.deps, "pro");
  const idOf = new Map<string, number>();
  for (const s of new Set(pairs.flatMap((p) => [p.a, p.b]))) {
    const r = await request(app, sts.key, "POST", "/ideas", { title: s.slice(0, 200), body: s.length > 200 ? s : undefined });
    idOf.set(s, r.body.id);
  }
  await runner.drain();
  const store = vectorStore(app.deps.store, gen);
  const scored: { dup: boolean; product: number; subjects: number; before: number; calibrated: number; raw: number }[] = [];
  for (const p of pairs.filter((p) => p.score >= 4.6 || p.score <= 3.5)) {
      const a = idOf.get(p.a)!;
      const b = idOf.get(p.b)!;
      const [va, vb] = [(await store.ideaVector(a))!, (await store.ideaVector(b))!];
      const calibrated = (await store.pairScore(sts.id, a, b)) ?? 0;
      // The duplicate score as steps.ts computes it: the larger of the local embedding cosine (the account's and the
      // pair's subjects' shared parts removed; subjects.ts) and the word-count cosine. "before": the account's only.
      // Since specificity, each subject is removed in proportion to its text's specificity (text-overlap.ts);
      // "subjects" is the rule before it (every subject removed whole).
      const wa = wordCounts(p.a.slice(0, 200), p.a.length > 200 ? p.a : "");
      const wb = wordCounts(p.b.slice(0, 200), p.b.length > 200 ? p.b : "");
      const local = (await store.localScores(sts.id, va, [b], { mine: specificity(wa), of: new Map([[b, specificity(wb)]]) })).get(b) ?? 0;
      const whole = (await store.localScores(sts.id, va, [b])).get(b) ?? 0;
      const words = wordCosine(wa, wb);
      scored.push({ dup: p.score >= 4.6, product: Math.max(local, words), subjects: Math.max(whole, words), before: Math.max(calibrated, words), calibrated, raw: rawCosine(va, vb) });
  }
  const positives = scored.filter((s) => s.dup).length;
  type Key = "product" | "subjects" | "before" | "calibrated" | "raw";
  const at = (key: Key, th: number) => {
    const tp = scored.filter((s) => s.dup && s[key] > th).length;
    const fp = scored.filter((s) => !s.dup && s[key] > th).length;
    return { p: tp / Math.max(1, tp + fp), r: tp / positives };
  };
  /** Precision at the threshold where `key` reaches recall `r` (the r-quantile of the duplicates' scores). */
  const atRecall = (key: Key, r: number) => {
    const ps = scored.filter((s) => s.dup).map((s) => s[key]).sort((a, b) => b - a);
    return at(key, ps[Math.ceil(r * ps.length) - 1] - 1e-9);
  };
  console.log(`\nSTS-B test: ${scored.filter((s) => s.dup).length} pairs ≥ 4.6 (duplicates), ${scored.filter((s) => !s.dup).length} pairs ≤ 3.5 (not), captured into one account`);
  console.log(`load average (1 min): ${loadavg()[0].toFixed(1)}`);
  console.log("| figure | product: duplicate score (subjects × specificity) | subjects removed whole (before) | account's calibration only | calibrated cosine alone | today (raw cosine) |");
  console.log("|---|---:|---:|---:|---:|---:|");
  const pr = (x: { p: number; r: number }) => `${x.p.toFixed(2)} / ${x.r.toFixed(2)}`;
  for (const th of [0.75, 0.85]) console.log(`| precision / recall above ${th} | ${pr(at("product", th))} | ${pr(at("subjects", th))} | ${pr(at("before", th))} | ${pr(at("calibrated", th))} | ${pr(at("raw", th))} |`);
  for (const r of [0.95, 0.9, 0.72]) {
    console.log(`| precision at recall ${r} | ${[atRecall("product", r), atRecall("subjects", r), atRecall("before", r), atRecall("calibrated", r), atRecall("raw", r)].map((x) => x.p.toFixed(3)).join(" | ")} |`);
  }
}

await app.close();
await model.close();

function row(label: string, a: string, b: string, c: string): void {
  console.log(`| ${label} | ${a} | ${b} | ${c} |`);
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

function rawCosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
