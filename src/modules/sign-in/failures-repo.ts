// The sign-in brake's failed attempts per e-mail: in this process's memory on SQLite, rows on PostgreSQL (every node counts them).
import type { Store } from "../../db/store";

export interface FailureCounts {
  /** Counts an attempt as failed before it is checked; false (nothing counted) when `max` failed within the window already. */
  take(email: string, nowMs: number, windowMs: number, max: number): Promise<boolean>;
  /** The attempt succeeded: its address starts afresh. */
  clear(email: string): Promise<void>;
}

export function memoryFailureCounts(): FailureCounts {
  const failures = new Map<string, number[]>();
  return {
    async take(email, nowMs, windowMs, max) {
      const recent = (failures.get(email) ?? []).filter((t) => nowMs - t < windowMs);
      if (recent.length >= max) return false;
      failures.set(email, [...recent, nowMs]);
      return true;
    },
    clear: async (email) => void failures.delete(email),
  };
}

/**
 * Nodes on one PostgreSQL database: the count and the insert in one immediate transaction under the address's own lock,
 * so guesses spread over nodes are counted once, and guesses at other addresses are counted beside them.
 */
export function sharedFailureCounts(store: Store): FailureCounts {
  const prune = store.query("DELETE FROM sign_in_failures WHERE email = ? AND failed_at <= ?");
  const count = store.query<{ n: number }, [string]>("SELECT count(*) AS n FROM sign_in_failures WHERE email = ?");
  const insert = store.query("INSERT INTO sign_in_failures (email, failed_at) VALUES (?, ?)");
  const clear = store.query("DELETE FROM sign_in_failures WHERE email = ?");
  return {
    take: (email, nowMs, windowMs, max) =>
      store.tx(async () => {
        await prune.run(email, nowMs - windowMs);
        if ((await count.get(email))!.n >= max) return false;
        await insert.run(email, nowMs);
        return true;
      }, { immediate: true, lock: `sign-in:${email}` }),
    clear: async (email) => void (await clear.run(email)),
  };
}
