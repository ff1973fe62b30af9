// Per-user daily request quota kept in memory and flushed to usage_counters in batches: no disk write per request,
// and the counts survive a restart (at most one flush interval is lost on a hard kill).
import type { Db } from "../db/open";
import { utcDay } from "../lib/time";

interface Entry { day: string; count: number; flushed: number }

export function createRateLimiter(db: Db, opts: { flushMs?: number } = {}) {
  const entries = new Map<string, Entry>();
  const load = db.query<{ count: number }, [string, string]>(
    "SELECT count FROM usage_counters WHERE user_id = ? AND kind = 'requests' AND period = ?",
  );
  // A count of an account removed meanwhile is dropped: one missing user must not fail the batch for everyone.
  const upsert = db.query(
    `INSERT INTO usage_counters (user_id, kind, period, count) SELECT ?1, 'requests', ?2, ?3 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1)
     ON CONFLICT (user_id, kind, period) DO UPDATE SET count = max(count, excluded.count)`,
  );

  function flush(): void {
    const dirty = [...entries].filter(([, e]) => e.count !== e.flushed);
    if (dirty.length === 0) return;
    db.transaction(() => {
      for (const [userId, e] of dirty) {
        upsert.run(userId, e.day, e.count);
        e.flushed = e.count;
      }
    })();
  }

  const timer = setInterval(() => {
    try {
      flush();
    } catch {
      // A busy database is retried on the next tick; counts stay in memory meanwhile.
    }
  }, opts.flushMs ?? 2000);
  timer.unref?.();

  return {
    /** Counts the request and says whether it is within the limit. */
    hit(userId: string, limit: number, now: Date): boolean {
      const day = utcDay(now);
      let e = entries.get(userId);
      if (!e || e.day !== day) {
        const stored = load.get(userId, day)?.count ?? 0;
        e = { day, count: stored, flushed: stored };
        entries.set(userId, e);
      }
      if (e.count >= limit) return false;
      e.count++;
      return true;
    },
    flush,
    close(): void {
      clearInterval(timer);
      flush();
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
