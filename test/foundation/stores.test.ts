// One store per table, read from the source: every statement over `jobs` is in the queue module, every write to
// `relations` (and `rejected_pairs`) in the relations repo, no feature or pipeline file outside a repo runs SQL, the
// relation-type vocabulary is declared once, and every idea is filed (inserted, its jobs queued, the worker woken, the
// Free cap checked) by the one write path in src/modules/filing/. A second copy anywhere fails here, naming the file.
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

describe("one write path (src/modules/filing/)", () => {
  test("only filing/repo.ts inserts ideas, and only the write path uses that repo", () => {
    expect(filesMatching(/\bINSERT\s+(OR\s+\w+\s+)?INTO\s+ideas\b/)).toEqual(["src/modules/filing/repo.ts"]);
    expect(filesMatching(/from\s+["'][./]*(modules\/)?filing\/repo["']/).filter((p) => !p.startsWith("src/modules/filing/"))).toEqual([]);
  });

  test("only filing/jobs.ts queues jobs (typed, through jobs/queue.ts) and wakes the worker", () => {
    expect(filesMatching(/\benqueueJob\s*\(/)).toEqual(["src/jobs/queue.ts", "src/modules/filing/jobs.ts"]);
    expect(filesMatching(/\bonJobQueued\s*(\?\.)?\(/)).toEqual(["src/modules/filing/jobs.ts"]);
  });

  test("new tags are created by the write path only (a new tag queues its embedding there)", () => {
    expect(filesMatching(/\bINSERT\s+(OR\s+\w+\s+)?INTO\s+tags\b/)).toEqual(["src/modules/tags/repo.ts"]);
    expect(filesMatching(/\brepo\.insert\(\s*userId\s*,\s*name\b/)).toEqual(["src/modules/filing/tags.ts"]);
  });

  test("an idea's title and body are written where their [[wikilinks]] are synced, in the same transaction", () => {
    // The SQL that writes title or body: the ideas repo's update (its callers below) and the import's re-run (whose
    // importer makes its own relations). The ideas service and the merger, which hand title or body to that update, and
    // the write path's capture are the ones that sync.
    expect(filesMatching(/\bUPDATE\s+ideas\s+SET\s+(\$\{|[^;`"]*\b(title|body)\s*=)/)).toEqual(["src/modules/ideas/repo.ts", "src/modules/import/notes-repo.ts"]);
    expect(filesMatching(/\btextWritten\(/)).toEqual([
      "src/modules/filing/write.ts", "src/modules/ideas/service-merge.ts", "src/modules/ideas/service.ts", "src/modules/wikilinks/sync.ts",
    ]);
  });

  test("the Free idea cap is checked in filing/cap.ts only", () => {
    expect(filesMatching(/\bFREE_IDEA_LIMIT\b/)).toEqual(["src/auth/plans.ts", "src/modules/filing/cap.ts"]);
  });
});
