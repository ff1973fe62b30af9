// The durable job queue and the only SQL over `jobs`: enqueue inside the caller's transaction; a consumer claims its
// own kinds in batches, then completes, retries or releases them. Kinds are bound parameters, never SQL text.
import type { Db } from "../db/open";
import type { Store } from "../db/store";
import { fromStamp, toStamp } from "../lib/time";
import { isGoneFromThisHost, NODE_ID } from "../lib/node-id";

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
  /** The node holding the claim (src/lib/node-id.ts) and until when, unless it renews it. */
  locked_by: string | null;
  lease_until: string | null;
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
 * Only the write path (`modules/filing/jobs.ts`) calls this, like enqueueJob.
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

export interface QueueOptions {
  /** Who claims: this process's node id by default (src/lib/node-id.ts); tests name two nodes in one process. */
  owner?: string;
  /** How long a claim lasts without renewal (config.lease_seconds). */
  leaseSeconds?: number;
}

const DEFAULT_LEASE_SECONDS = 30;

/**
 * The queue as one consumer sees it: only the `kinds` it owns are claimed, released or waited for. A claim carries its
 * owner and a lease (locked_by, lease_until): the owner renews it while it works (renew()), and a claim whose lease ran
 * out (its node died or hung) is handed back by the next claim of any node, keeping its turn (at-least-once).
 */
export function createQueue(store: Store, kinds: readonly JobKind[], opts: QueueOptions = {}) {
  const owner = opts.owner ?? NODE_ID;
  const leaseMs = (opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
  const leaseFrom = (now: string) => toStamp(new Date(fromStamp(now).getTime() + leaseMs));
  // One placeholder per kind, numbered from `first`: the values are bound, and the plan is that of a literal list
  // (a json_each list adds a subquery and a bloom filter to every claim).
  const ownKinds = (first: number) => kinds.map((_, i) => `?${first + i}`).join(", ");
  const ready = (columns: string) => `SELECT ${columns} FROM jobs WHERE locked_at IS NULL AND run_after <= ?1 AND kind IN (${ownKinds(5)}) ORDER BY id LIMIT ?2`;
  // The queue's claim is one of the places the stores differ. SQLite: read, then lock, in one IMMEDIATE transaction
  // (one writer at a time anyway). PostgreSQL: one statement that locks the ready rows it picks and passes over rows
  // another claimer holds (SKIP LOCKED), so workers and nodes claim side by side, never the same job, and a claim does
  // not wait behind the advisory lock of immediate transactions (captures).
  const claimable = store.dialect === "postgres" ? null : store.query<JobRow, Array<string | number>>(ready("*"));
  const lock = store.dialect === "postgres" ? null : store.query("UPDATE jobs SET locked_at = ?, locked_by = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ? AND locked_at IS NULL");
  const claimSkipping = store.dialect !== "postgres" ? null : store.query<JobRow, Array<string | number>>(
    `WITH picked AS (${ready("id")} FOR UPDATE SKIP LOCKED)
     UPDATE jobs SET locked_at = ?1, locked_by = ?3, lease_until = ?4, attempts = attempts + 1 FROM picked WHERE jobs.id = picked.id AND jobs.locked_at IS NULL
     RETURNING jobs.*`,
  );
  // The earliest moment something may need doing: a waiting job comes due, or a claim's lease runs out.
  const nextRunAfter = store.query<{ at: string | null }, string[]>(
    `SELECT min(at) AS at FROM (
       SELECT min(run_after) AS at FROM jobs WHERE locked_at IS NULL AND kind IN (${ownKinds(1)})
       UNION ALL SELECT min(lease_until) AS at FROM jobs WHERE lease_until IS NOT NULL AND kind IN (${ownKinds(1)})) due`,
  );
  const mine = store.query<{ id: number; run_after: string }, string[]>(
    `SELECT id, run_after FROM jobs WHERE locked_at IS NOT NULL AND locked_by = ?1 AND kind IN (${ownKinds(2)})`,
  );
  const everyClaim = store.query<{ id: number; run_after: string }, string[]>(
    `SELECT id, run_after FROM jobs WHERE locked_at IS NOT NULL AND kind IN (${ownKinds(1)})`,
  );
  const anyExpired = store.query<{ x: number }, string[]>(
    `SELECT 1 AS x FROM jobs WHERE lease_until < ?1 AND kind IN (${ownKinds(2)}) LIMIT 1`,
  );
  const expired = store.query<{ id: number; run_after: string; locked_by: string | null }, string[]>(
    `SELECT id, run_after, locked_by FROM jobs WHERE lease_until < ?1 AND kind IN (${ownKinds(2)})`,
  );
  const holders = store.query<{ holder: string }, string[]>(
    `SELECT DISTINCT locked_by AS holder FROM jobs WHERE locked_at IS NOT NULL AND locked_by IS NOT NULL AND locked_by <> ?1 AND kind IN (${ownKinds(2)})`,
  );
  const renew = store.query("UPDATE jobs SET lease_until = ?1 WHERE locked_by = ?2 AND locked_at IS NOT NULL");
  const byId = store.query<Pick<JobRow, "kind" | "idea_id"> & { locked_by: string | null; lease_until: string | null }, [number]>(
    "SELECT kind, idea_id, locked_by, lease_until FROM jobs WHERE id = ?",
  );
  const pendingTwin = store.query<{ x: number }, [string, number | null]>(
    "SELECT 1 AS x FROM jobs WHERE kind = ? AND idea_id IS ? AND locked_at IS NULL",
  );
  const remove = store.query("DELETE FROM jobs WHERE id = ?");
  const removeMine = store.query("DELETE FROM jobs WHERE id = ? AND locked_by = ?");
  const putBack = store.query("UPDATE jobs SET locked_at = NULL, locked_by = NULL, lease_until = NULL, run_after = ?, last_error = ? WHERE id = ?");
  const unqueued = store.query<{ id: number }, [string, string]>(
    `SELECT value AS id FROM json_each(?2) WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ?1 AND idea_id = value)`,
  );
  /** Claims this consumer holds now (claimed, not yet completed or handed back): what renew() keeps alive. */
  const held = new Set<number>();

  /**
   * Hands a claimed job back for a later attempt (a pending twin, if one appeared meanwhile, makes this one
   * redundant). `may` says whether the claim is still ours to hand back: its owner's, or one whose lease ran out.
   */
  function handBack(id: number, runAfter: string, error: string, may: (job: { locked_by: string | null; lease_until: string | null }) => boolean): Promise<void> {
    held.delete(id);
    return store.tx(async () => {
      const job = await byId.get(id);
      if (!job || !may(job)) return;
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
  const ours = (job: { locked_by: string | null }) => job.locked_by === owner;

  /** Claims whose lease ran out before `now` go back to the queue, keeping their turn; returns how many. */
  async function reapExpired(now: string): Promise<number> {
    if (!(await anyExpired.get(now, ...kinds))) return 0;
    const rows = await expired.all(now, ...kinds);
    for (const j of rows) {
      await handBack(j.id, j.run_after, `lease of ${j.locked_by ?? "a node"} ran out`, (job) => job.lease_until !== null && job.lease_until < now);
    }
    return rows.length;
  }

  /**
   * Claims held by a process of this host that is gone (the node this one replaces after a kill -9 or a crash, or a
   * neighbour on the same host) go back to the queue at once, keeping their turn: nobody will renew them, and waiting
   * out their lease would only leave those ideas unprocessed that long. Other hosts' claims wait for their lease.
   */
  async function reapGone(): Promise<number> {
    let n = 0;
    for (const { holder } of await holders.all(owner, ...kinds)) {
      if (!isGoneFromThisHost(holder)) continue;
      for (const j of await mine.all(holder, ...kinds)) {
        await handBack(j.id, j.run_after, `${holder} is gone from this host`, (job) => job.locked_by === holder);
        n++;
      }
    }
    return n;
  }
  /** When claim() last looked for gone holders (a statement, so not on every claim: every third of a lease). */
  let goneCheckedAt = -Infinity;

  return {
    /** This consumer's name in locked_by. */
    owner,
    /**
     * Claims up to `limit` ready jobs, oldest first; locked rows are invisible to other claimers until completed or
     * released, so no two claims (workers, processes, nodes) ever hold the same job while its lease lasts. Claims
     * whose lease ran out, and (every third of a lease) those of a process of this host that is gone, are handed back
     * first and so claimed again here.
     */
    async claim(now: string, limit: number): Promise<JobRow[]> {
      await reapExpired(now);
      if (performance.now() - goneCheckedAt >= leaseMs / 3) {
        goneCheckedAt = performance.now();
        await reapGone();
      }
      const until = leaseFrom(now);
      let rows: JobRow[];
      if (claimSkipping) rows = (await claimSkipping.all(now, limit, owner, until, ...kinds)).sort((a, b) => a.id - b.id);
      else {
        rows = await store.tx(
          async () => {
            const ready = await claimable!.all(now, limit, owner, until, ...kinds);
            for (const r of ready) await lock!.run(now, owner, until, r.id);
            return ready.map((r) => ({ ...r, locked_at: now, locked_by: owner, lease_until: until, attempts: r.attempts + 1 }));
          },
          { immediate: true },
        );
      }
      for (const r of rows) held.add(r.id);
      return rows;
    },
    /** When the earliest waiting job comes due or a claim's lease runs out (null: neither). */
    nextRunAfter: async () => (await nextRunAfter.get(...kinds))?.at ?? null,
    /** Done: the job goes, unless its lease ran out and it was handed back meanwhile (then it runs again). */
    async complete(id: number): Promise<void> {
      held.delete(id);
      await removeMine.run(id, owner);
    },
    /** Puts one of our claims back for a later attempt; a claim that is no longer ours is left to its new owner. */
    retry: (id: number, runAfter: string, error: string) => handBack(id, runAfter, error, ours),
    /** Extends the lease of every claim this consumer holds (the runner calls it every third of the lease). */
    async renew(now: string): Promise<number> {
      if (held.size === 0) return 0;
      return (await renew.run(leaseFrom(now), owner)).changes;
    },
    /** How many claims this consumer holds. */
    holding: () => held.size,
    reapExpired,
    reapGone,
    /**
     * Hands this consumer's claims back, keeping their turn (at-least-once): between rounds after one failed. Other
     * nodes' claims are theirs; a dead node's come back when their lease runs out.
     */
    async releaseClaimed(reason: string): Promise<number> {
      const rows = await mine.all(owner, ...kinds);
      for (const j of rows) await handBack(j.id, j.run_after, reason, ours);
      held.clear();
      return rows.length;
    },
    /**
     * Hands back every claim, whoever made it. Only where one process owns the store (SQLite: the data directory's pid
     * file keeps a second server out), at start, for the claims of the process that ran before.
     */
    async releaseEveryClaim(reason: string): Promise<number> {
      const rows = await everyClaim.all(...kinds);
      for (const j of rows) await handBack(j.id, j.run_after, reason, () => true);
      held.clear();
      return rows.length;
    },
    /** Those of `ideaIds` with no job of `kind`, waiting or claimed. */
    withoutJob: async (kind: JobKind, ideaIds: number[]) =>
      ideaIds.length === 0 ? [] : (await unqueued.all(kind, JSON.stringify(ideaIds))).map((r) => r.id),
  };
}
export type Queue = ReturnType<typeof createQueue>;
