// Per-user daily request quota in usage_counters: on SQLite counted in memory and flushed in batches (one process owns
// the file), on PostgreSQL counted in the database by each request (any number of nodes share one count).
import type { Store } from "../db/store";
import { utcDay } from "../lib/time";

interface Entry { day: string; count: number; flushed: number }

export interface RateLimiter {
  /** Counts the request and says whether it is within the limit (a refused request is not counted). */
  hit(userId: string, limit: number, now: Date): Promise<boolean>;
  flush(): Promise<void>;
  /** Stops the timer and writes what is left; the caller awaits it before closing the store. */
  close(): Promise<void>;
}

export function createRateLimiter(store: Store, opts: { flushMs?: number } = {}): RateLimiter {
  return store.dialect === "postgres" ? sharedRateLimiter(store) : memoryRateLimiter(store, opts);
}

/**
 * Nodes on one PostgreSQL database count each request there, in one statement: the upsert takes the counter row's
 * lock, so two nodes' requests are counted one after the other and the limit is exact (the 101st request of a Free
 * day is refused whichever node it reaches). A memory count per node would let each node grant the whole quota.
 * The cost is one round trip and one row write per counted request (docs/scaling.md).
 */
function sharedRateLimiter(store: Store): RateLimiter {
  // A count of an account removed meanwhile is not written (no row comes back: refused, as its credential now is).
  const take = store.query<{ count: number }, [string, string, number]>(
    `INSERT INTO usage_counters (user_id, kind, period, count) SELECT ?1, 'requests', ?2, 1 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1)
     ON CONFLICT (user_id, kind, period) DO UPDATE SET count = count + 1 WHERE count < ?3
     RETURNING count`,
  );
  // Not waiting for the WAL's flush: a count is worth less than an fsync on every API request (measured ~10 ms of a
  // request's p50 with it, docs/scaling.md), and a crash forgets at most the last moment's counts, as SQLite's flush
  // interval does. Sent with the upsert in one go on the transaction's connection.
  const relaxed = store.query("SET LOCAL synchronous_commit = off");
  return {
    hit: async (userId, limit, now) =>
      limit > 0 &&
      (await store.tx(async () => (await Promise.all([relaxed.run(), take.get(userId, utcDay(now), limit)]))[1])) !== null,
    flush: async () => {},
    close: async () => {},
  };
}

function memoryRateLimiter(store: Store, opts: { flushMs?: number }): RateLimiter {
  const entries = new Map<string, Entry>();
  const load = store.query<{ count: number }, [string, string]>(
    "SELECT count FROM usage_counters WHERE user_id = ? AND kind = 'requests' AND period = ?",
  );
  // A count of an account removed meanwhile is dropped: one missing user must not fail the batch for everyone.
  const upsert = store.query(
    `INSERT INTO usage_counters (user_id, kind, period, count) SELECT ?1, 'requests', ?2, ?3 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1)
     ON CONFLICT (user_id, kind, period) DO UPDATE SET count = max(count, excluded.count)`,
  );

  async function flush(): Promise<void> {
    const dirty = [...entries].filter(([, e]) => e.count !== e.flushed);
    if (dirty.length === 0) return;
    // The counts as they stand now: requests counted while the transaction runs are flushed next time.
    const counts = dirty.map(([userId, e]) => [userId, e, e.count] as const);
    await store.tx(async () => {
      for (const [userId, e, count] of counts) await upsert.run(userId, e.day, count);
    });
    for (const [, e, count] of counts) e.flushed = Math.max(e.flushed, count);
  }

  const timer = setInterval(() => {
    // A busy database is retried on the next tick; counts stay in memory meanwhile.
    flush().catch(() => undefined);
  }, opts.flushMs ?? 2000);
  timer.unref?.();

  return {
    async hit(userId: string, limit: number, now: Date): Promise<boolean> {
      const day = utcDay(now);
      let e = entries.get(userId);
      if (!e || e.day !== day) {
        const stored = (await load.get(userId, day))?.count ?? 0;
        // Another request of the same user may have loaded the day while this one read: keep its entry and count.
        e = entries.get(userId);
        if (!e || e.day !== day) {
          e = { day, count: stored, flushed: stored };
          entries.set(userId, e);
        }
      }
      if (e.count >= limit) return false;
      e.count++;
      return true;
    },
    flush,
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}
