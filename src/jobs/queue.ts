// The durable job queue in SQLite and the only SQL over `jobs`: enqueue inside the caller's transaction; a consumer
// claims its own kinds in batches, then completes, retries or releases them. Kinds are bound parameters, never SQL text.
import type { Db } from "../db/open";

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
export function enqueueJob(db: Db, job: QueuedJob, now: string): void {
  const ideaId = job.kind === "tag-embed" ? null : job.ideaId;
  const payload = job.kind === "tag-embed" ? JSON.stringify(job.payload) : null;
  db.query(
    `INSERT INTO jobs (kind, idea_id, payload, run_after, created_at) VALUES (?1, ?2, ?3, ?4, ?4)
     ON CONFLICT (kind, idea_id) WHERE locked_at IS NULL DO NOTHING`,
  ).run(job.kind, ideaId, payload, now);
}

/**
 * Queues a job of `kind` for every live idea of an account that has a vector (the re-scoring pass after its
 * calibration moved, pipeline/rescore.ts); ideas with a pending job of that kind keep that one. Returns how many.
 */
export function enqueueAccountJobs(db: Db, kind: JobKind, userId: string, now: string): number {
  return db.query(
    `INSERT INTO jobs (kind, idea_id, payload, run_after, created_at)
     SELECT ?1, id, NULL, ?3, ?3 FROM ideas WHERE user_id = ?2 AND is_archived = 0 AND vectorize_id IS NOT NULL ORDER BY id
     ON CONFLICT (kind, idea_id) WHERE locked_at IS NULL DO NOTHING`,
  ).run(kind, userId, now).changes;
}

/** Whether any job of `kind` is still waiting for one of the account's ideas. */
export function hasAccountJobs(db: Db, kind: JobKind, userId: string): boolean {
  return !!db.query(
    `SELECT 1 FROM jobs j JOIN ideas i ON i.id = j.idea_id WHERE j.kind = ?1 AND i.user_id = ?2 AND j.locked_at IS NULL LIMIT 1`,
  ).get(kind, userId);
}

/** Full passes (waiting or claimed) of live ideas whose vector id lies in [lo, hi): one generation's re-scoring. */
/** Drops every job of an account (its ideas' passes, its tags' embeddings): the account is being deleted. */
export function deleteAccountJobs(db: Db, userId: string): void {
  db.query("DELETE FROM jobs WHERE idea_id IN (SELECT id FROM ideas WHERE user_id = ?)").run(userId);
  db.query("DELETE FROM jobs WHERE kind = 'tag-embed' AND json_extract(payload, '$.tag_id') IN (SELECT id FROM tags WHERE user_id = ?)").run(userId);
}

export function countFullPassesOfLiveIdeas(db: Db, lo: string, hi: string): number {
  return db
    .query<{ n: number }, [string, string]>(
      `SELECT count(*) AS n FROM jobs j JOIN ideas i ON i.id = j.idea_id
       WHERE j.kind = 'full' AND i.is_archived = 0 AND i.vectorize_id >= ?1 AND i.vectorize_id < ?2`,
    )
    .get(lo, hi)!.n;
}

/** Jobs waiting and jobs claimed, over every kind (the operator's instance figures). */
export function countJobs(db: Db): { pending: number; locked: number } {
  return db
    .query<{ pending: number; locked: number }, []>(
      "SELECT count(*) FILTER (WHERE locked_at IS NULL) AS pending, count(*) FILTER (WHERE locked_at IS NOT NULL) AS locked FROM jobs",
    )
    .get()!;
}

/** Waiting jobs by kind, and when the oldest of them was queued (the metrics' backlog figures). */
export function pendingJobsByKind(db: Db): Array<{ kind: JobKind; pending: number; oldest: string }> {
  return db
    .query<{ kind: JobKind; pending: number; oldest: string }, []>(
      "SELECT kind, count(*) AS pending, min(created_at) AS oldest FROM jobs WHERE locked_at IS NULL GROUP BY kind",
    )
    .all();
}

/** The queue as one consumer sees it: only the `kinds` it owns are claimed, released or waited for. */
export function createQueue(db: Db, kinds: readonly JobKind[]) {
  // One placeholder per kind, numbered from `first`: the values are bound, and the plan is that of a literal list
  // (a json_each list adds a subquery and a bloom filter to every claim).
  const ownKinds = (first: number) => kinds.map((_, i) => `?${first + i}`).join(", ");
  const claimable = db.query<JobRow, Array<string | number>>(
    `SELECT * FROM jobs WHERE locked_at IS NULL AND run_after <= ?1 AND kind IN (${ownKinds(3)}) ORDER BY id LIMIT ?2`,
  );
  const lock = db.query("UPDATE jobs SET locked_at = ?, attempts = attempts + 1 WHERE id = ? AND locked_at IS NULL");
  const nextRunAfter = db.query<{ at: string | null }, string[]>(
    `SELECT min(run_after) AS at FROM jobs WHERE locked_at IS NULL AND kind IN (${ownKinds(1)})`,
  );
  const locked = db.query<{ id: number; run_after: string }, string[]>(
    `SELECT id, run_after FROM jobs WHERE locked_at IS NOT NULL AND kind IN (${ownKinds(1)})`,
  );
  const byId = db.query<Pick<JobRow, "kind" | "idea_id">, [number]>("SELECT kind, idea_id FROM jobs WHERE id = ?");
  const pendingTwin = db.query<{ x: number }, [string, number | null]>(
    "SELECT 1 AS x FROM jobs WHERE kind = ? AND idea_id IS ? AND locked_at IS NULL",
  );
  const remove = db.query("DELETE FROM jobs WHERE id = ?");
  const putBack = db.query("UPDATE jobs SET locked_at = NULL, run_after = ?, last_error = ? WHERE id = ?");
  const unqueued = db.query<{ id: number }, [string, string]>(
    `SELECT value AS id FROM json_each(?2) WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ?1 AND idea_id = value)`,
  );

  /** Puts a job back for a later attempt (a pending twin, if one appeared meanwhile, makes this one redundant). */
  function retry(id: number, runAfter: string, error: string): void {
    db.transaction(() => {
      const job = byId.get(id);
      if (!job) return;
      if (pendingTwin.get(job.kind, job.idea_id)) remove.run(id);
      else putBack.run(runAfter, error.slice(0, 500), id);
    })();
  }

  return {
    /** Claims up to `limit` ready jobs; locked rows are invisible to other claimers until completed or released. */
    claim(now: string, limit: number): JobRow[] {
      return db.transaction(() => {
        const rows = claimable.all(now, limit, ...kinds);
        for (const r of rows) lock.run(now, r.id);
        return rows.map((r) => ({ ...r, locked_at: now, attempts: r.attempts + 1 }));
      })();
    },
    /** When the earliest waiting job comes due (null: none waiting). */
    nextRunAfter: () => nextRunAfter.get(...kinds)?.at ?? null,
    complete: (id: number) => void remove.run(id),
    retry,
    /**
     * Hands every claimed job back, keeping its turn (at-least-once). Only safe when nothing of this consumer runs:
     * at start, for the claims of a process that died, or between rounds after one failed.
     */
    releaseClaimed(reason: string): number {
      const rows = locked.all(...kinds);
      for (const j of rows) retry(j.id, j.run_after, reason);
      return rows.length;
    },
    /** Those of `ideaIds` with no job of `kind`, waiting or claimed. */
    withoutJob: (kind: JobKind, ideaIds: number[]) =>
      ideaIds.length === 0 ? [] : unqueued.all(kind, JSON.stringify(ideaIds)).map((r) => r.id),
  };
}
export type Queue = ReturnType<typeof createQueue>;
