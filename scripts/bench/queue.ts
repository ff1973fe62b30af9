// The job queue's statements (src/jobs/queue.ts) beside the raw SQL they replaced, in alternating rounds on one file:
// a claim of 256 from a 10,000-job backlog then completing them (kinds bound as a JSON parameter vs pasted into the
// SQL text), and the recovery look-up of never-embedded ideas without a queued full pass (unembedded ids, then
// json_each against jobs vs one NOT EXISTS query), with every idea queued (after an import) and with none queued.
//
//   bun scripts/bench/queue.ts [--jobs 10000] [--rounds 5]
import { rmSync } from "node:fs";
import { join } from "node:path";
import { migrate } from "../../src/db/migrate";
import { openDb, type Db } from "../../src/db/open";
import { sqliteStore } from "../../src/db/sqlite-store";
import { enqueueJob, type JobRow } from "../../src/jobs/queue";
import { pipelineQueue, PIPELINE_JOB_KINDS } from "../../src/pipeline/batch";
import { createPipelineRepo } from "../../src/pipeline/repo";
import { flag, machine, report, row, tempDir, type Row } from "./lib";

const JOBS = flag("jobs", 10_000);
const ROUNDS = flag("rounds", 5);
const CLAIM = 256;
const NOW = "2026-01-01 00:00:00";

const dir = tempDir("idearepo-bench-queue-");
const db = openDb(join(dir, "bench.db"));
migrate(db);
const store = sqliteStore(db);
db.query("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES ('u', 'u@x', 'u', ?1, ?1)").run(NOW);
const insertIdea = db.query("INSERT INTO ideas (user_id, number, title, created_at, updated_at) VALUES ('u', ?1, 'idea', ?2, ?2)");
db.transaction(() => {
  for (let i = 1; i <= JOBS; i++) insertIdea.run(i, NOW);
})();

async function fill(queued: boolean): Promise<void> {
  await store.tx(async () => {
    db.query("DELETE FROM jobs").run();
    if (queued) for (let i = 1; i <= JOBS; i++) await enqueueJob(store, { kind: "full", ideaId: i }, NOW);
  });
}

/** What the pipeline's repo ran before the queue module owned these statements (its code as it was): kinds pasted into the text. */
function rawQueue(d: Db) {
  const kinds = PIPELINE_JOB_KINDS.map((k) => `'${k}'`).join(", ");
  const claimable = d.query<JobRow, [string, number]>(
    `SELECT * FROM jobs WHERE locked_at IS NULL AND run_after <= ?1 AND kind IN (${kinds}) ORDER BY id LIMIT ?2`,
  );
  const lock = d.query("UPDATE jobs SET locked_at = ?, attempts = attempts + 1 WHERE id = ? AND locked_at IS NULL");
  const remove = d.query("DELETE FROM jobs WHERE id = ?");
  const unembedded = d.query<{ id: number }, []>(
    `SELECT i.id FROM ideas i WHERE i.is_archived = 0 AND i.vectorize_id IS NULL
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.idea_id = i.id AND j.kind = 'full')`,
  );
  return {
    claim: (now: string, limit: number) =>
      d.transaction(() => {
        const rows = claimable.all(now, limit);
        for (const r of rows) lock.run(now, r.id);
        return rows.map((r) => ({ ...r, locked_at: now, attempts: r.attempts + 1 }));
      })(),
    complete: (id: number) => void remove.run(id),
    unqueued: () => unembedded.all().map((r) => r.id),
  };
}

const product = pipelineQueue(store);
const repo = createPipelineRepo(store);
const raw = rawQueue(db);

/** Claims and completes the whole backlog in claims of 256; ms per claim+complete round. */
type Awaitable<T> = T | Promise<T>;

async function drain(q: { claim(now: string, limit: number): Awaitable<Array<{ id: number }>>; complete(id: number): Awaitable<void> }): Promise<number> {
  await fill(true);
  let claims = 0;
  const t0 = performance.now();
  for (;;) {
    const rows = await q.claim(NOW, CLAIM);
    if (rows.length === 0) break;
    await store.tx(async () => {
      for (const r of rows) await q.complete(r.id);
    });
    claims++;
  }
  return (performance.now() - t0) / claims;
}

async function lookup(fn: () => Awaitable<number[]>, queued: boolean, expect: number): Promise<number> {
  await fill(queued);
  await fn();
  const t0 = performance.now();
  const reps = 5;
  for (let i = 0; i < reps; i++) if ((await fn()).length !== expect) throw new Error("the two look-ups disagree");
  return (performance.now() - t0) / reps;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = { claimP: [] as number[], claimR: [] as number[], allP: [] as number[], allR: [] as number[], noneP: [] as number[], noneR: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  m.claimR.push(await drain(raw));
  m.claimP.push(await drain(product));
  m.allR.push(await lookup(raw.unqueued, true, 0));
  m.allP.push(await lookup(async () => product.withoutJob("full", await repo.unembeddedIdeaIds()), true, 0));
  m.noneR.push(await lookup(raw.unqueued, false, JOBS));
  m.noneP.push(await lookup(async () => product.withoutJob("full", await repo.unembeddedIdeaIds()), false, JOBS));
}
db.close();
rmSync(dir, { recursive: true, force: true });

const lower = (bench: string, metric: string, p: number[], b: number[], base: string): Row =>
  row(bench, metric, median(p), "ms", { baseline: { name: base, value: median(b) }, ratio: median(b) / median(p) });
console.log(`${machine()}; ${JOBS.toLocaleString("en-US")} jobs/ideas, ${ROUNDS} alternating rounds, medians`);
report([
  lower("queue", `claim ${CLAIM} + complete (backlog of ${JOBS})`, m.claimP, m.claimR, "kinds pasted into SQL"),
  lower("queue", "unembedded ideas without a full job, all queued", m.allP, m.allR, "one NOT EXISTS query"),
  lower("queue", "unembedded ideas without a full job, none queued", m.noneP, m.noneR, "one NOT EXISTS query"),
]);
