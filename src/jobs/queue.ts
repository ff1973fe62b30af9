// The durable job queue and the only SQL over `jobs`: enqueue inside the caller's transaction; a consumer claims its
// own kinds in batches, then completes, retries or releases them. Kinds are bound parameters, never SQL text.
import type { Db } from "../db/open";
import type { Store } from "../db/store";

/** Every kind of queued job; each consumer names the kinds it owns when it creates its queue. */
export const JOB_KINDS = ["full", "light", "tag-embed"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export interface JobRow {
  id: number;
  kind: JobKind;
  idea_id: number | null;
  payload: string | null;
  attempts: number;
  run_after: string;
  locked_at: string | null;
  last_error: string | null;
  created_at: string;
}

/** What a `tag-embed` job carries: the tag to (re-)embed. */
export interface TagEmbedPayload {
  tag_id: number;
}

/** A job as it is queued: a full or light pass names its idea, a tag embedding names its tag in the payload. */
export type QueuedJob =
  | { kind: "full"; ideaId: number }
  | { kind: "light"; ideaId: number }
  | { kind: "tag-embed"; payload: TagEmbedPayload };

/**
 * Queues one job. Call it inside the same transaction as the change so the two commit together. Only the write path
 * (`modules/filing/jobs.ts`) calls this; test/foundation/stores.test.ts keeps it so.
 * A second pending job of the same kind for the same idea is a no-op: the pending one will see the latest row.
 */
export async function enqueueJob(store: Store, job: QueuedJob, now: string): Promise<void> {
  const ideaId = job.kind === "tag-embed" ? null : job.ideaId;
  const payload = job.kind === "tag-embed" ? JSON.stringify(job.payload) : null;
  await store.query(
    `INSERT INTO jobs (kind, idea_id, payload, run_after, created_at) VALUES (?1, ?2, ?3, ?4, ?4)
     ON CONFLICT (kind, idea_id) WHERE locked_at IS NULL DO NOTHING`,
  ).run(job.kind, ideaId, payload, now);
}

/**
 * Queues a job of `kind` for every live idea of an account that has a vector (the re-scoring pass after its
 * calibration moved, pipeline/rescore.ts); ideas with a pending job of that kind keep that one. Returns how many.
 */
export async function enqueueAccountJobs(store: Store, kind: JobKind, userId: string, now: string): Promise<number> {
  const r = await store
    .query(
      `INSERT INTO jobs (kind, idea_id, payload, run_after, created_at)
       SELECT ?1, id, NULL, ?3, ?3 FROM ideas WHERE user_id = ?2 AND is_archived = 0 AND vectorize_id IS NOT NULL ORDER BY id
       ON CONFLICT (kind, idea_id) WHERE locked_at IS NULL DO NOTHING`,
    )
    .run(kind, userId, now);
  return r.changes;
}

/** Whether any job of `kind` is still waiting for one of the account's ideas. */
export async function hasAccountJobs(store: Store, kind: JobKind, userId: string): Promise<boolean> {
  const row = await store
    .query(`SELECT 1 AS x FROM jobs j JOIN ideas i ON i.id = j.idea_id WHERE j.kind = ?1 AND i.user_id = ?2 AND j.locked_at IS NULL LIMIT 1`)
    .get(kind, userId);
  return row !== null;
}

/** Drops every job of an account (its ideas' passes, its tags' embeddings): the account is being deleted. */
export async function deleteAccountJobs(store: Store, userId: string): Promise<void> {
  await store.query("DELETE FROM jobs WHERE idea_id IN (SELECT id FROM ideas WHERE user_id = ?)").run(userId);
  await store.query("DELETE FROM jobs WHERE kind = 'tag-embed' AND json_extract(payload, '$.tag_id') IN (SELECT id FROM tags WHERE user_id = ?)").run(userId);
}

/** Figures read on every GET /health, metrics scrape and operator page: statements made once per store. */
function createQueueFigures(store: Store) {
  const fullPasses = store.query<{ n: number }, [string, string]>(
    `SELECT count(*) AS n FROM jobs j JOIN ideas i ON i.id = j.idea_id
     WHERE j.kind = 'full' AND i.is_archived = 0 AND i.vectorize_id >= ?1 AND i.vectorize_id < ?2`,
  );
  const counts = store.query<{ pending: number; locked: number }, []>(
    "SELECT count(*) FILTER (WHERE locked_at IS NULL) AS pending, count(*) FILTER (WHERE locked_at IS NOT NULL) AS locked FROM jobs",
  );
  const byKind = store.query<{ kind: JobKind; pending: number; oldest: string }, []>(
    "SELECT kind, count(*) AS pending, min(created_at) AS oldest FROM jobs WHERE locked_at IS NULL GROUP BY kind",
  );
  return { fullPasses, counts, byKind };
}
const figures = new WeakMap<Store, ReturnType<typeof createQueueFigures>>();
function figuresOf(store: Store) {
  let f = figures.get(store);
  if (!f) figures.set(store, (f = createQueueFigures(store)));
  return f;
}

/** Full passes (waiting or claimed) of live ideas whose vector id lies in [lo, hi): one generation's re-scoring. */
export async function countFullPassesOfLiveIdeas(store: Store, lo: string, hi: string): Promise<number> {
  return (await figuresOf(store).fullPasses.get(lo, hi))!.n;
}

/** Jobs waiting and jobs claimed, over every kind (the operator's instance figures). */
export async function countJobs(store: Store): Promise<{ pending: number; locked: number }> {
  return (await figuresOf(store).counts.get())!;
}

/** Waiting jobs by kind, and when the oldest of them was queued (the metrics' backlog figures). */
export function pendingJobsByKind(store: Store): Promise<Array<{ kind: JobKind; pending: number; oldest: string }>> {
  return figuresOf(store).byKind.all();
}

/** The queue as one consumer sees it: only the `kinds` it owns are claimed, released or waited for. */
export function createQueue(store: Store, kinds: readonly JobKind[]) {
  // One placeholder per kind, numbered from `first`: the values are bound, and the plan is that of a literal list
  // (a json_each list adds a subquery and a bloom filter to every claim).
  const ownKinds = (first: number) => kinds.map((_, i) => `?${first + i}`).join(", ");
  const ready = (columns: string) => `SELECT ${columns} FROM jobs WHERE locked_at IS NULL AND run_after <= ?1 AND kind IN (${ownKinds(3)}) ORDER BY id LIMIT ?2`;
  // The queue's claim is one of the places the stores differ. SQLite: read, then lock, in one IMMEDIATE transaction
  // (one writer at a time anyway). PostgreSQL: one statement that locks the ready rows it picks and passes over rows
  // another claimer holds (SKIP LOCKED), so workers and nodes claim side by side, never the same job, and a claim does
  // not wait behind the advisory lock of immediate transactions (captures).
  const claimable = store.dialect === "postgres" ? null : store.query<JobRow, Array<string | number>>(ready("*"));
  const lock = store.dialect === "postgres" ? null : store.query("UPDATE jobs SET locked_at = ?, attempts = attempts + 1 WHERE id = ? AND locked_at IS NULL");
  const claimSkipping = store.dialect !== "postgres" ? null : store.query<JobRow, Array<string | number>>(
    `WITH picked AS (${ready("id")} FOR UPDATE SKIP LOCKED)
     UPDATE jobs SET locked_at = ?1, attempts = attempts + 1 FROM picked WHERE jobs.id = picked.id AND jobs.locked_at IS NULL
     RETURNING jobs.*`,
  );
  const nextRunAfter = store.query<{ at: string | null }, string[]>(
    `SELECT min(run_after) AS at FROM jobs WHERE locked_at IS NULL AND kind IN (${ownKinds(1)})`,
  );
  const locked = store.query<{ id: number; run_after: string }, string[]>(
    `SELECT id, run_after FROM jobs WHERE locked_at IS NOT NULL AND kind IN (${ownKinds(1)})`,
  );
  const byId = store.query<Pick<JobRow, "kind" | "idea_id">, [number]>("SELECT kind, idea_id FROM jobs WHERE id = ?");
  const pendingTwin = store.query<{ x: number }, [string, number | null]>(
    "SELECT 1 AS x FROM jobs WHERE kind = ? AND idea_id IS ? AND locked_at IS NULL",
  );
  const remove = store.query("DELETE FROM jobs WHERE id = ?");
  const putBack = store.query("UPDATE jobs SET locked_at = NULL, run_after = ?, last_error = ? WHERE id = ?");
  const unqueued = store.query<{ id: number }, [string, string]>(
    `SELECT value AS id FROM json_each(?2) WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ?1 AND idea_id = value)`,
  );

  /** Puts a job back for a later attempt (a pending twin, if one appeared meanwhile, makes this one redundant). */
  function retry(id: number, runAfter: string, error: string): Promise<void> {
    return store.tx(async () => {
      const job = await byId.get(id);
      if (!job) return;
      if (await pendingTwin.get(job.kind, job.idea_id)) return void (await remove.run(id));
      try {
        // A savepoint: on PostgreSQL a twin can be queued between the read above and this write (SQLite has one
        // writer), and the failed write must not abort the transaction.
        await store.tx(() => putBack.run(runAfter, error.slice(0, 500), id));
      } catch (e) {
        if ((e as { code?: string }).code !== "SQLITE_CONSTRAINT_UNIQUE") throw e;
        await remove.run(id);
      }
    });
  }

  return {
    /**
     * Claims up to `limit` ready jobs, oldest first; locked rows are invisible to other claimers until completed or
     * released, so no two claims (workers, processes, nodes) ever hold the same job.
     */
    async claim(now: string, limit: number): Promise<JobRow[]> {
      if (claimSkipping) return (await claimSkipping.all(now, limit, ...kinds)).sort((a, b) => a.id - b.id);
      return store.tx(
        async () => {
          const rows = await claimable!.all(now, limit, ...kinds);
          for (const r of rows) await lock!.run(now, r.id);
          return rows.map((r) => ({ ...r, locked_at: now, attempts: r.attempts + 1 }));
        },
        { immediate: true },
      );
    },
    /** When the earliest waiting job comes due (null: none waiting). */
    nextRunAfter: async () => (await nextRunAfter.get(...kinds))?.at ?? null,
    complete: async (id: number) => void (await remove.run(id)),
    retry,
    /**
     * Hands every claimed job back, keeping its turn (at-least-once). Only safe when nothing of this consumer runs:
     * at start, for the claims of a process that died, or between rounds after one failed.
     */
    async releaseClaimed(reason: string): Promise<number> {
      const rows = await locked.all(...kinds);
      for (const j of rows) await retry(j.id, j.run_after, reason);
      return rows.length;
    },
    /** Those of `ideaIds` with no job of `kind`, waiting or claimed. */
    withoutJob: async (kind: JobKind, ideaIds: number[]) =>
      ideaIds.length === 0 ? [] : (await unqueued.all(kind, JSON.stringify(ideaIds))).map((r) => r.id),
  };
}
export type Queue = ReturnType<typeof createQueue>;
