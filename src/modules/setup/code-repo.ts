// Where the one-time setup code and its wrong guesses live: this process's memory on SQLite, app_state on PostgreSQL.
import type { Store } from "../../db/store";
import { toStamp, type Clock } from "../../lib/time";

export interface CodeHolder {
  /** The code, minted when there is none; `renewSpent` (a server starting) also replaces one that took too many wrong guesses. */
  current(renewSpent?: boolean): Promise<string>;
  /** Wrong guesses at the current code so far. */
  failures(): Promise<number>;
  /** Counts one wrong guess. */
  fail(): Promise<void>;
  /** The owner exists: the code is spent. */
  clear(): Promise<void>;
}

/** One process owns a SQLite file: the code lives in memory, and a restart prints a new one. */
export function memoryCodeHolder(mint: () => string): CodeHolder {
  let code: string | null = null;
  let failures = 0;
  return {
    current: async () => (code ??= mint()),
    failures: async () => failures,
    fail: async () => void failures++,
    clear: async () => {
      code = null;
    },
  };
}

interface Stored { code: string; failures: number }
const KEY = "setup_code";

/**
 * Nodes on one PostgreSQL database print and accept one code: the first node to start mints it into app_state and the
 * others read it, so the form may reach any node. Wrong guesses are counted there too, so the limit holds across
 * nodes; once it is reached the next node to start mints a new code (as a restart does on SQLite). Every change is a
 * compare-and-swap on the stored text, so two nodes racing never lose a guess or keep two codes.
 */
export function sharedCodeHolder(store: Store, clock: Clock, mint: () => string, maxFailures: number): CodeHolder {
  const read = store.query<{ value: string }, [string]>("SELECT value FROM app_state WHERE key = ?");
  const insert = store.query("INSERT INTO app_state (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT (key) DO NOTHING");
  const swap = store.query("UPDATE app_state SET value = ?3, updated_at = ?4 WHERE key = ?1 AND value = ?2");
  const remove = store.query("DELETE FROM app_state WHERE key = ?");
  const load = async () => {
    const row = await read.get(KEY);
    return row ? { text: row.value, value: JSON.parse(row.value) as Stored } : null;
  };
  /** Applies `change` to the stored value (null: none yet) until no other node changed it in between. */
  async function update(change: (v: Stored | null) => Stored | null): Promise<Stored | null> {
    for (;;) {
      const now = await load();
      const next = change(now?.value ?? null);
      if (next === null || next === now?.value) return now?.value ?? null;
      const stamp = toStamp(clock());
      const done = now === null
        ? await insert.run(KEY, JSON.stringify(next), stamp)
        : await swap.run(KEY, now.text, JSON.stringify(next), stamp);
      if (done.changes === 1) return next;
    }
  }
  return {
    async current(renewSpent = false) {
      const v = await update((v) => (v === null || (renewSpent && v.failures >= maxFailures) ? { code: mint(), failures: 0 } : v));
      return v!.code;
    },
    failures: async () => (await load())?.value.failures ?? 0,
    fail: async () => void (await update((v) => (v === null ? null : { ...v, failures: v.failures + 1 }))),
    clear: async () => void (await remove.run(KEY)),
  };
}
