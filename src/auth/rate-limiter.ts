// Per-user daily request quota in usage_counters: on SQLite counted in memory and flushed in batches (one process owns
// the file), on PostgreSQL counted in the database by each request (any number of nodes share one count).
import type { Store } from "../db/store";
import { utcDay } from "../lib/time";
import type { Counting } from "./credential-repo";
import { DAILY_REQUEST_LIMIT } from "./plans";

interface Entry { day: string; count: number; flushed: number }

export interface RateLimiter {
  /**
   * Counts the request and says whether it is within the limit (a refused request is not counted). `counted`: the
   * count the credential's statement already took for this request (AuthContext.counted), decided on without a count
   * of its own, and given back when the limit refuses it.
   */
  hit(userId: string, limit: number, now: Date, counted?: number | null): Promise<boolean>;
  /** What a credential's statement may count with (credential-repo.ts), or null where counts are not in the store. */
  counting(now: Date): Counting | null;
  /** Gives back one count a credential's statement took for a request that is refused or not this account's. */
  refund(userId: string, now: Date): Promise<void>;
  flush(): Promise<void>;
  /** Stops the timer and writes what is left; the caller awaits it before closing the store. */
  close(): Promise<void>;
}

export function createRateLimiter(store: Store, opts: { flushMs?: number } = {}): RateLimiter {
  return store.dialect === "postgres" ? sharedRateLimiter(store) : memoryRateLimiter(store, opts);
}

/** The highest daily quota of any plan: where a count taken before the plan is known stops. */
const CAP = Math.max(...Object.values(DAILY_REQUEST_LIMIT));

/**
 * Nodes on one PostgreSQL database count each request there, in one statement: the upsert takes the counter row's
 * lock, so two nodes' requests are counted one after the other and the limit is exact (the 101st request of a Free
 * day is refused whichever node it reaches). A memory count per node would let each node grant the whole quota.
 * The cost is one row write per counted request (docs/scaling.md); an API request's count rides in its credential's
 * statement (credential-repo.ts), taken up to CAP before the plan is known: a count the plan refuses is given back,
 * so the stored count is the requests granted, and a request is granted only when its own count is within its limit.
 *
 * Not waiting for the WAL's flush (set_config(…, true) in the statement, for its own transaction only): a count is
 * worth less than an fsync on every API request (measured ~10 ms of a request's p50 with it, docs/scaling.md), and a
 * crash forgets at most the last moment's counts, as SQLite's flush interval does. Never inside a transaction.
 */
function sharedRateLimiter(store: Store): RateLimiter {
  // A count of an account removed meanwhile is not written (no row comes back: refused, as its credential now is).
  const take = store.query<{ count: number }, [string, string, number]>(
    `INSERT INTO usage_counters (user_id, kind, period, count)
     SELECT ?1, 'requests', ?2, 1 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1) AND set_config('synchronous_commit', 'off', true) = 'off'
     ON CONFLICT (user_id, kind, period) DO UPDATE SET count = count + 1 WHERE count < ?3
     RETURNING count`,
  );
  const giveBack = store.query<unknown, [string, string]>(
    `UPDATE usage_counters SET count = count - 1
     WHERE user_id = ?1 AND kind = 'requests' AND period = ?2 AND count > 0 AND set_config('synchronous_commit', 'off', true) = 'off'`,
  );
  const refund = async (userId: string, now: Date) => void (await giveBack.run(userId, utcDay(now)));
  return {
    async hit(userId, limit, now, counted) {
      if (counted === undefined) return limit > 0 && (await take.get(userId, utcDay(now), limit)) !== null;
      if (counted !== null && counted <= limit) return true;
      if (counted !== null) await refund(userId, now);
      return false;
    },
    counting: (now) => ({ day: utcDay(now), cap: CAP }),
    refund,
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
    counting: () => null,
    refund: async () => {},
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
