// A small subject inside a larger account (issue 25): Git pages that look alike (git-fetch-pack / git-upload-pack,
// git-mktag / git-tag, …) among other manual pages. The account's mean is "manual pages", not "Git", so the
// account-calibrated cosine alone flags many pairs of different Git pages; the duplicate score also removes what
// the pair's subject shares (src/vectors/subjects.ts) and must flag far fewer, while near-copies are still found.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { directoryInput } from "../../src/modules/import/inputs";
import { createImportService } from "../../src/modules/import/service";
import { readState } from "../../src/vectors/generations";
import { vectorStore } from "../../src/vectors/store";
import { loadGitManual, loadOtherManPages, nearCopy, rng, type CopyKind } from "../../scripts/bench/man-corpus";
import { accountMeanDuplicates } from "../../scripts/bench/suggestions-lib";
import { call, makeUser } from "../helpers";
import { capture, settle, usePipelineApp } from "../pipeline-helpers";

// The Git pages whose pairs the account's mean alone flagged in a 2,000-idea account (scripts/bench/local-centre.ts).
const NAMES = [
  "git-add", "git-update-index", "git-apply", "git-rm", "git-diff-files", "git-status", "git-fetch-pack", "git-upload-pack",
  "git-init", "git-send-pack", "git-mktag", "git-tag", "git-prune-packed", "git-repack", "git-read-tree", "git-write-tree",
  "git-receive-pack", "git-symbolic-ref", "git-update-ref", "gittutorial", "gittutorial-2",
];
const notes = loadGitManual().filter((n) => NAMES.includes(n.name));
// Other pages as one-line notes (each page's summary line: cheap to embed, and a subject's notes stand out among them).
const filler = loadOtherManPages(125).map((p) => ({ name: p.name, body: p.body.split("\n")[0] }));
const missing = notes.length < NAMES.length - 2 || filler.length < 100;
if (missing && process.env.CI) throw new Error("Git's manual (git-man) or other manual pages are missing: .ci/run installs them");
if (missing) console.warn("skipping test/pipeline/subjects.test.ts: Git's manual or other manual pages are not installed");

describe.skipIf(missing)("a small subject inside a larger account", () => {
  const { t } = usePipelineApp();

  test("look-alike pages of the subject are rarely flagged; near-copies of them still are", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const dir = mkdtempSync(join(tmpdir(), "idearepo-subject-"));
    [...notes, ...filler].forEach((n, i) => writeFileSync(join(dir, `n${i}.md`), `---\ntitle: ${n.name}\n---\n${n.body}\n`));
    await createImportService(t.deps).importInput(u.id, "pro", directoryInput(dir), { from: "markdown" });
    rmSync(dir, { recursive: true, force: true });
    await t.drain();
    const random = rng(25);
    const kinds: CopyKind[] = ["trimmed", "reordered", "retitled"];
    const copies = new Map<number, string>();
    for (const [i, n] of notes.filter((_, i) => i % 4 === 0).entries()) copies.set(await capture(t, u, nearCopy(n, kinds[i % 3], random)), n.name);
    // Until nothing is queued or re-scoring (a capture may tip the account into a re-scoring pass of its own).
    await settle(t);

    const titleOf = new Map<number, string>();
    for (const r of await t.deps.store.query<{ id: number; title: string }, [string]>("SELECT id, title FROM ideas WHERE user_id = ?").all(u.id)) titleOf.set(r.id, r.title);
    const noteIds = new Set([...titleOf].filter(([id, title]) => NAMES.includes(title) && !copies.has(id)).map(([id]) => id));
    const dups = (await call(t, "GET", "/ideas/duplicates", { key: u.key })).body.duplicates as { idea_id: number; duplicate_of_id: number; similarity_score: number }[];
    const between = dups.filter((d) => noteIds.has(d.idea_id) && noteIds.has(d.duplicate_of_id));
    // A copy's pair, whichever side is the newer (an import keeps its notes' own dates).
    const pairOf = (copy: number, of: string) => (d: { idea_id: number; duplicate_of_id: number }) =>
      (d.idea_id === copy && titleOf.get(d.duplicate_of_id) === of && !copies.has(d.duplicate_of_id)) ||
      (d.duplicate_of_id === copy && titleOf.get(d.idea_id) === of && !copies.has(d.idea_id));
    const found = [...copies].filter(([copy, of]) => dups.some(pairOf(copy, of)));
    const copyRows = JSON.stringify(dups.filter((d) => copies.has(d.idea_id) || copies.has(d.duplicate_of_id)).map((d) => [d.idea_id, d.duplicate_of_id, d.similarity_score]));

    // The same ideas judged by the account's mean alone (the rule before subjects), on the same stored vectors.
    const store = vectorStore(t.deps.store, (await readState(t.deps.store)).active!);
    const before = (await accountMeanDuplicates(t.deps.store, store, u.id, noteIds)).filter(([a, b]) => noteIds.has(a) && noteIds.has(b));
    const names = (pairs: [number, number][]) => pairs.map(([a, b]) => `${titleOf.get(a)}~${titleOf.get(b)}`).join(", ");
    const why = `flagged now: ${names(between.map((d) => [d.idea_id, d.duplicate_of_id]))}; by the account's mean alone: ${names(before)}`;

    expect(found.length, `near-copies found ${found.length}/${copies.size} (copies ${JSON.stringify([...copies])}; their detections ${copyRows}); ${why}`).toBe(copies.size);
    expect(before.length, why).toBeGreaterThanOrEqual(6); // the case is real: the account's mean alone flags many
    expect(between.length, why).toBeLessThanOrEqual(Math.floor(before.length / 2));
    // Every detection is still above the person's threshold, and scores stay cosines in 0–1.
    for (const d of dups) expect(d.similarity_score).toBeGreaterThan(0.75), expect(d.similarity_score).toBeLessThanOrEqual(1);
  }, 240_000); // 20–60 s in CI, most of it embedding; the bound is for a slower machine
});
