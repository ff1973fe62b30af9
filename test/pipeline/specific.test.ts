// How specific a text is decides how much of its subject the duplicate score removes (issue 25): a short generic
// sentence is mostly its subject, and removing the subject's mean whole lowered real paraphrases ("A boy is playing a
// keyboard." / "A little kid plays on a keyboard.") below non-paraphrases of a long text's subject. The score now removes
// each idea's subject in proportion to t / (t + 5), t its words (src/pipeline/text-overlap.ts). Through the import, the
// background pass and GET /ideas/duplicates, beside the rule before (every subject removed whole) on the same stored
// vectors; and an upgraded database has every embedded idea's pairs judged again (migration 0019).
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/db/migrations";
import { directoryInput } from "../../src/modules/import/inputs";
import { createImportService } from "../../src/modules/import/service";
import { wordCosine, wordCounts } from "../../src/pipeline/text-overlap";
import { readState } from "../../src/vectors/generations";
import { vectorStore } from "../../src/vectors/store";
import { call, makeApp, makeUser } from "../helpers";
import { settle, usePipelineApp } from "../pipeline-helpers";
import { testStore } from "../support/postgres";

// Many short captions of one scene, as STS-B's image captions are: a coherent subject of short generic sentences.
const WHO = ["A man", "A woman", "A boy", "A girl", "A child", "An old man", "A young woman", "A chef"];
const WHAT = [
  "slicing a cucumber", "chopping a carrot", "cutting a pepper", "peeling an apple", "dicing a zucchini", "grating a lemon",
  "mashing a banana", "stirring a pot of soup", "whisking cream", "rolling out dough", "seasoning a steak", "rinsing lettuce",
  "draining noodles", "toasting a bagel", "buttering toast", "squeezing an orange", "cracking a walnut", "shelling peas",
];
const CAPTIONS = WHAT.flatMap((what, i) => WHO.filter((_, j) => (i * 3 + j) % 2 === 0).map((who) => `${who} is ${what}.`));
// Paraphrases of captions of the same kind, in other words (the word side alone finds none).
const PARAPHRASES: [string, string][] = [
  ["A boy is playing a keyboard.", "A little kid plays on a keyboard."],
  ["A man is riding a bicycle.", "A guy rides his bike."],
  ["A girl is riding a horse.", "A young woman rides a horse."],
  ["A boy is kicking a soccer ball.", "A kid kicks a football."],
  ["A woman is slicing an onion.", "A lady cuts up an onion."],
  ["A man is playing the guitar.", "Someone strums a guitar."],
];

describe("the duplicate score and how specific a text is", () => {
  const { t } = usePipelineApp();

  test("short paraphrases keep more of their cosine than with their subject removed whole; detections stay cosines above the threshold", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const dir = mkdtempSync(join(tmpdir(), "idearepo-specific-"));
    // One import, so every pair is judged over the account's final calibration and subjects: the scores listed are
    // the ones the stored vectors give now, and the rule before can be computed beside them.
    [...CAPTIONS, ...PARAPHRASES.flat()].forEach((s, i) => writeFileSync(join(dir, `n${i}.md`), `---\ntitle: ${s}\n---\n`));
    await createImportService(t.deps).importInput(u.id, "pro", directoryInput(dir), { from: "markdown" });
    rmSync(dir, { recursive: true, force: true });
    await settle(t);

    const titleOf = new Map<number, string>();
    for (const r of await t.deps.store.query<{ id: number; title: string }, [string]>("SELECT id, title FROM ideas WHERE user_id = ?").all(u.id)) titleOf.set(r.id, r.title);
    const idOf = new Map([...titleOf].map(([id, title]) => [title, id]));
    const dups = (await call(t, "GET", "/ideas/duplicates", { key: u.key })).body.duplicates as { idea_id: number; duplicate_of_id: number; similarity_score: number }[];
    // The rule before, on the same stored vectors: each subject removed whole (no specificity), or the word cosine.
    const store = vectorStore(t.deps.store, (await readState(t.deps.store)).active!);
    const beforeOf = new Map<string, number>();
    for (const d of dups) {
      for (const [a, b] of [[d.idea_id, d.duplicate_of_id], [d.duplicate_of_id, d.idea_id]]) {
        const local = (await store.localScores(u.id, (await store.ideaVector(a))!, [b])).get(b)!;
        beforeOf.set(`${a}-${b}`, Math.max(local, wordCosine(wordCounts(titleOf.get(a)!, ""), wordCounts(titleOf.get(b)!, ""))));
      }
    }
    const before = (a: number, b: number) => beforeOf.get(`${a}-${b}`) ?? NaN;
    const rows = dups.map((d) => `${titleOf.get(d.idea_id)} ~ ${titleOf.get(d.duplicate_of_id)}: ${d.similarity_score.toFixed(3)} (before ${before(d.idea_id, d.duplicate_of_id).toFixed(3)})`);
    const why = `detections: ${rows.join("; ")}`;

    const pairs = new Map(PARAPHRASES.map(([original, paraphrase]) => [idOf.get(paraphrase)!, original]));
    const found = [...pairs].map(([id, original]) => ({ id, of: idOf.get(original)!, d: dups.find((d) => [d.idea_id, d.duplicate_of_id].sort().join() === [id, idOf.get(original)!].sort().join()) }));
    const detected = found.filter((f) => f.d);
    expect(detected.length, why).toBeGreaterThanOrEqual(2);
    for (const f of detected) {
      // The embedding side decides these pairs (the words share at most one word in three) and keeps more than before.
      expect(wordCosine(wordCounts(titleOf.get(f.id)!, ""), wordCounts(titleOf.get(f.of)!, "")), why).toBeLessThan(0.5);
      expect(f.d!.similarity_score, why).toBeGreaterThan(before(f.id, f.of) + 1e-4);
    }
    // Every detection is still above the person's threshold, and scores stay cosines in 0–1.
    for (const d of dups) expect(d.similarity_score, why).toBeGreaterThan(0.75), expect(d.similarity_score).toBeLessThanOrEqual(1);
  }, 120_000);
});

// SQLite's upgrade path (a file of schema 18 migrated forward); PostgreSQL's schema began after it.
describe.skipIf(testStore() === "postgres")("migration 0019", () => {
  test("an upgraded database queues the full pass for every embedded live idea, once, so its pairs are judged again", () => {
    const dir = mkdtempSync(join(tmpdir(), "idearepo-rescore-specific-"));
    try {
      const file = join(dir, "idearepo.db");
      const old = new Database(file, { create: true, strict: true });
      for (const m of MIGRATIONS.filter((x) => x.version <= 18)) old.exec(m.sql);
      old.exec("PRAGMA user_version = 18");
      const now = "2026-01-01 00:00:00";
      old.query("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES ('u-one', 'one@example.com', 'one', ?1, ?1)").run(now);
      const add = old.query("INSERT INTO ideas (user_id, number, title, body, created_at, updated_at, vectorize_id, is_archived) VALUES ('u-one', ?1, ?2, '', ?3, ?3, ?4, ?5)");
      add.run(1, "embedded", now, "g1:1", 0);
      add.run(2, "embedded, its pass already waiting", now, "g1:2", 0);
      add.run(3, "archived", now, "g1:3", 1);
      add.run(4, "not embedded yet", now, null, 0);
      const waiting = old.query<{ id: number }, [string]>("SELECT id FROM ideas WHERE title = ?").get("embedded, its pass already waiting")!.id;
      old.query("INSERT INTO jobs (kind, idea_id, payload, run_after, created_at) VALUES ('full', ?1, NULL, ?2, ?2)").run(waiting, now);
      old.close();

      const app = makeApp({ dbFile: file });
      const jobs = app.deps.db
        .query<{ title: string; n: number }, []>("SELECT i.title, count(*) AS n FROM jobs j JOIN ideas i ON i.id = j.idea_id WHERE j.kind = 'full' GROUP BY i.id ORDER BY i.number")
        .all();
      expect(jobs).toEqual([{ title: "embedded", n: 1 }, { title: "embedded, its pass already waiting", n: 1 }]);
      app.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
