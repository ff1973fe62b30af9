// The durable job queue in SQLite: enqueue inside the caller's transaction, claim in batches, complete or retry.
import type { Db } from "../db/open";

export type JobKind = "full" | "light" | "tag-embed" | string;

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

/**
 * Queues work for an idea. Call it inside the same transaction as the idea change so the two commit together.
 * A second pending job of the same kind for the same idea is a no-op: the pending one will see the latest row.
 */
export function enqueueJob(db: Db, kind: JobKind, ideaId: number | null, now: string, payload: unknown = null): void {
  db.query(
    `INSERT INTO jobs (kind, idea_id, payload, run_after, created_at) VALUES (?1, ?2, ?3, ?4, ?4)
     ON CONFLICT (kind, idea_id) WHERE locked_at IS NULL DO NOTHING`,
  ).run(kind, ideaId, payload === null ? null : JSON.stringify(payload), now);
}

export function createQueue(db: Db) {
  const claimable = db.query<JobRow, [string, number]>(
    "SELECT * FROM jobs WHERE locked_at IS NULL AND run_after <= ? ORDER BY id LIMIT ?",
  );
  const lock = db.query("UPDATE jobs SET locked_at = ?, attempts = attempts + 1 WHERE id = ? AND locked_at IS NULL");
  return {
    /** Claims up to `limit` ready jobs; locked rows are invisible to other claimers until completed or released. */
    claim(limit: number, now: string): JobRow[] {
      return db.transaction(() => {
        const rows = claimable.all(now, limit);
        for (const r of rows) lock.run(now, r.id);
        return rows.map((r) => ({ ...r, locked_at: now, attempts: r.attempts + 1 }));
      })();
    },
    complete(id: number): void {
      db.query("DELETE FROM jobs WHERE id = ?").run(id);
    },
    /** Puts a job back for a later attempt (a pending twin, if one appeared meanwhile, makes this one redundant). */
    retry(id: number, runAfter: string, error: string): void {
      db.transaction(() => {
        const job = db.query<JobRow, [number]>("SELECT * FROM jobs WHERE id = ?").get(id);
        if (!job) return;
        const twin = db.query("SELECT 1 FROM jobs WHERE kind = ? AND idea_id IS ? AND locked_at IS NULL").get(job.kind, job.idea_id);
        if (twin) db.query("DELETE FROM jobs WHERE id = ?").run(id);
        else db.query("UPDATE jobs SET locked_at = NULL, run_after = ?, last_error = ? WHERE id = ?").run(runAfter, error.slice(0, 500), id);
      })();
    },
    /** After a crash, jobs locked by the dead process are released so nothing is lost (at-least-once). */
    releaseStale(before: string): number {
      const stale = db.query<JobRow, [string]>("SELECT * FROM jobs WHERE locked_at IS NOT NULL AND locked_at < ?").all(before);
      for (const j of stale) this.retry(j.id, j.run_after, j.last_error ?? "released after restart");
      return stale.length;
    },
    pendingCount: () => db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs").get()!.n,
  };
}
export type Queue = ReturnType<typeof createQueue>;
