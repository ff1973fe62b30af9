// SQL for GET /health: one real read that fails when the database cannot answer.
import type { Store } from "../../db/store";

export function createHealthRepo(store: Store) {
  const probe = store.query("SELECT 1 AS ok FROM users LIMIT 1");
  return {
    /** Reads one row; rejects with whatever the store throws when the database cannot answer. */
    probe: async () => void (await probe.get()),
  };
}
