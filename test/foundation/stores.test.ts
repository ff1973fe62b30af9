// One store per table, read from the source: every statement over `jobs` is in the queue module and every way of
// queueing one in filing/jobs.ts, every write to `relations` (and `rejected_pairs`) in the relations repo, every write
// to `ideas` in filing/repo.ts (new rows by the one write path: jobs queued, the worker woken, the Free cap checked),
// no feature or pipeline file outside a repo runs SQL and the pipeline writes none, the relation-type vocabulary is
// declared once. A second copy anywhere fails here, naming the file.
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { RELATION_TYPES, USER_RELATION_TYPES } from "../../src/contract";

const SRC = resolve(import.meta.dir, "../../src");
/** Server code: the web app is a client of the API with its own copy of the vocabularies it shows. */
const files = [...new Glob("**/*.ts").scanSync(SRC)]
  .filter((f) => !f.startsWith("web/"))
  .map((f) => ({ path: `src/${f}`, text: readFileSync(join(SRC, f), "utf8") }));

const filesMatching = (re: RegExp) => files.filter((f) => re.test(f.text)).map((f) => f.path).sort();

describe("one store per table", () => {
  test("only src/jobs/queue.ts runs SQL over jobs", () => {
    expect(filesMatching(/\b(FROM|INTO|UPDATE|JOIN)\s+jobs\b/)).toEqual(["src/jobs/queue.ts"]);
  });

  test("only the relations repo writes relations or touches rejected_pairs", () => {
    expect(filesMatching(/\b(INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+relations\b/)).toEqual(["src/modules/relations/repo.ts"]);
    expect(filesMatching(/\b(FROM|INTO|UPDATE|JOIN)\s+rejected_pairs\b/)).toEqual(["src/modules/relations/repo.ts"]);
  });

  test("only the relations repo reads the relations table; everyone else reads live_relations (both ends live)", () => {
    expect(filesMatching(/\b(FROM|JOIN)\s+relations\b/)).toEqual(["src/modules/relations/repo.ts"]);
  });

  test("feature modules and the pipeline run SQL only in repo files", () => {
    const sql = /\b(db|deps\.db|store|deps\.store|store\.sqlite)\.(query|prepare|run|exec)\b/;
    // Import readers open the other app's database file (Memos), not ours.
    const outside = files.filter((f) => /^src\/(modules|pipeline)\//.test(f.path) && !/(^|\/|-)repo\.ts$/.test(f.path))
      .filter((f) => !f.path.startsWith("src/modules/import/sources/"))
      .filter((f) => sql.test(f.text))
      .map((f) => f.path);
    expect(outside).toEqual([]);
  });
});

describe("one relation-type vocabulary", () => {
  test("the types are declared in the contract only; the stored set is the user's plus duplicate", () => {
    expect(RELATION_TYPES).toEqual([...USER_RELATION_TYPES, "duplicate"]);
    expect(filesMatching(/["']inspires["']\s*,\s*["']supersedes["']/)).toEqual(["src/contract/vocabularies.ts"]);
  });
});

/**
 * SQL that writes `table`: an INSERT (any conflict clause), UPDATE or DELETE naming it, in any case (`flags` "i") or
 * in the upper case every statement here is written in (for a pattern of table names, where prose would match).
 */
const writes = (table: string, flags = "i") => new RegExp(`\\b(INSERT\\s+(OR\\s+\\w+\\s+)?INTO|UPDATE|DELETE\\s+FROM)\\s+${table}\\b`, flags);

/**
 * The queue's functions that add rows to `jobs` (read from its source, so a new one is found): each exported function
 * of src/jobs/queue.ts whose body inserts into jobs.
 */
function queueingFunctions(): string[] {
  const queue = files.find((f) => f.path === "src/jobs/queue.ts")!.text;
  return queue.split(/\nexport\s+/).slice(1)
    .filter((chunk) => /\bINSERT\s+INTO\s+jobs\b/.test(chunk))
    .map((chunk) => /^(?:async\s+)?function\s+(\w+)/.exec(chunk)?.[1] ?? `(not a function: ${chunk.slice(0, 40)})`)
    .sort();
}

describe("one write path (src/modules/filing/)", () => {
  test("only filing/repo.ts writes ideas, and only the write path makes new rows", () => {
    // Every INSERT, UPDATE and DELETE over ideas: captures, imports, edits, archives, the review's keep, the pipeline's
    // vector ids. Callers reach them through createIdeaEdits; new rows only through the write path (jobs, cap, numbers).
    expect(filesMatching(writes("ideas"))).toEqual(["src/modules/filing/repo.ts"]);
    expect(filesMatching(/\bINSERT\s+(OR\s+\w+\s+)?INTO\s+ideas\b/)).toEqual(["src/modules/filing/repo.ts"]);
    expect(filesMatching(/\bcreateFilingRepo\b/).filter((p) => !p.startsWith("src/modules/filing/"))).toEqual([]);
  });

  test("every way of queueing a job is a function of filing/jobs.ts (typed, through jobs/queue.ts), which wakes the worker", () => {
    // A second queueing function in the queue is a deliberate change here, and it too may only be called from filing/jobs.ts.
    expect(queueingFunctions()).toEqual(["enqueueAccountJobs", "enqueueJob"]);
    for (const name of queueingFunctions()) {
      expect({ name, callers: filesMatching(new RegExp(`\\b${name}\\s*\\(`)) }).toEqual({ name, callers: ["src/jobs/queue.ts", "src/modules/filing/jobs.ts"] });
    }
    expect(filesMatching(/\bonJobQueued\s*(\?\.)?\(/)).toEqual(["src/modules/filing/jobs.ts"]);
  });

  test("new tags are created by the write path only (a new tag queues its embedding there)", () => {
    expect(filesMatching(/\bINSERT\s+(OR\s+\w+\s+)?INTO\s+tags\b/)).toEqual(["src/modules/tags/repo.ts"]);
    expect(filesMatching(/\brepo\.insert\(\s*userId\s*,\s*name\b/)).toEqual(["src/modules/filing/tags.ts"]);
  });

  test("an idea's title and body are written where their [[wikilinks]] are synced, in the same transaction", () => {
    // The SQL that writes title or body is filing/repo.ts's: the edits' update (whose callers, the ideas service and the
    // merger, sync) and the import's re-run (whose importer makes its own relations); the write path's capture syncs too.
    expect(filesMatching(/\bUPDATE\s+ideas\s+SET\s+(\$\{|[^;`"]*\b(title|body)\s*=)/)).toEqual(["src/modules/filing/repo.ts"]);
    expect(filesMatching(/\brewriteImported\b/)).toEqual(["src/modules/filing/repo.ts", "src/modules/import/notes-import.ts"]);
    expect(filesMatching(/\btextWritten\(/)).toEqual([
      "src/modules/filing/write.ts", "src/modules/ideas/service-merge.ts", "src/modules/ideas/service.ts", "src/modules/wikilinks/sync.ts",
    ]);
  });

  test("the Free idea cap is checked in filing/cap.ts only", () => {
    expect(filesMatching(/\bFREE_IDEA_LIMIT\b/)).toEqual(["src/auth/plans.ts", "src/modules/filing/cap.ts"]);
  });
});

describe("the pipeline writes through the features' repos", () => {
  test("no SQL under src/pipeline/ writes a table", () => {
    const pipeline = files.filter((f) => f.path.startsWith("src/pipeline/"));
    expect(pipeline.filter((f) => writes("\\w+", "").test(f.text)).map((f) => f.path)).toEqual([]);
  });

  test("auto-tags, tag vectors and duplicate detections are written by their features' repos only", () => {
    expect(filesMatching(writes("idea_tags"))).toEqual(["src/modules/tags/repo.ts"]);
    expect(filesMatching(writes("tags"))).toEqual(["src/modules/tags/repo.ts"]);
    expect(filesMatching(writes("duplicate_detections"))).toEqual(["src/modules/duplicates/repo.ts"]);
  });
});
