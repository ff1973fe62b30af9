// SQL of account deletion: what the foreign keys do not cascade (jobs, vectors), then the account row itself.
import { accountLock, type Store } from "../../db/store";
import { lockAccount } from "../../jobs/account-lock";
import { deleteAccountJobs } from "../../jobs/queue";
import { tagIdColumn, vectorTables } from "../../vectors/layout";

export function createDeletionRepo(store: Store) {
  const db = store.sqlite;
  const ideaIds = store.query<{ id: number }, [string]>("SELECT id FROM ideas WHERE user_id = ?");
  const counts = store.query<{ ideas: number; tags: number }, [string]>(
    "SELECT (SELECT count(*) FROM ideas WHERE user_id = ?1) AS ideas, (SELECT count(*) FROM tags WHERE user_id = ?1) AS tags",
  );
  const user = store.query("DELETE FROM users WHERE id = ?");
  return {
    counts: async (userId: string) => (await counts.get(userId))!,
    ideaIds: async (userId: string) => (await ideaIds.all(userId)).map((r) => r.id),
    /** Jobs name an idea (full, light) or a tag in their payload (tag-embed); neither is a foreign key. */
    deleteJobs: (userId: string) => deleteAccountJobs(store, userId),
    /**
     * Every vector row of the account in every generation's tables (live, building or left over). Run inside
     * `scrubbing`'s transaction, on the same connection, so they go with the account or not at all.
     */
    async deleteVectors(userId: string): Promise<void> {
      const tables = await vectorTables(store);
      // The stamps go too: a process holding the account's vectors finds its stamp gone and lets them go (account-vectors.ts).
      for (const name of [...tables.ideas, ...tables.shared, ...tables.stamps]) await store.query(`DELETE FROM ${name} WHERE user_id = ?`).run(userId);
      // A tag vector's id is the tag's (vec0's rowid on SQLite).
      const id = tagIdColumn(store);
      for (const name of tables.tags) await store.query(`DELETE FROM ${name} WHERE ${id} IN (SELECT id FROM tags WHERE user_id = ?)`).run(userId);
    },
    /**
     * Runs `remove` in one IMMEDIATE transaction with SQLite's secure_delete on: the cells and pages it frees are
     * zeroed rather than left as free space holding the account's rows. Not FTS5's own secure-delete: it removes
     * each word of each idea from the index's segments one by one (22.7 s instead of 0.66 s for an account of 5,000
     * ideas, scripts/bench/account-deletion.ts: a write lock the server's captures would time out behind), so the
     * keyword indexes keep the words beside tombstones until their segments merge (docs/auth.md). The pragma is
     * SQLite's; on PostgreSQL the rows are deleted alike and the freed space is the server's to reclaim (VACUUM).
     * Under the account's lock: its captures wait and find it gone; other accounts' run beside it. A new generation's
     * tables (the instance's lock) are not made while it runs, so it deletes from every one there is. And under the
     * pipeline's lock of the account (jobs/account-lock.ts): a pass over one of its ideas writes the idea, then its
     * vectors and the account's sums, where the deletion goes the other way (vectors, then the cascade over the
     * ideas), so on PostgreSQL the two would deadlock rather than take turns.
     */
    async scrubbing<T>(userId: string, remove: () => Promise<T>): Promise<T> {
      db?.exec("PRAGMA secure_delete = ON");
      try {
        return await store.tx(async () => {
          await lockAccount(store, userId);
          return remove();
        }, { immediate: true, lock: accountLock(userId) });
      } finally {
        db?.exec("PRAGMA secure_delete = OFF");
      }
    },
    /** The account row: every table that names it (ideas and all they own, keys, sessions …) cascades from here. */
    deleteUser: async (userId: string) => (await user.run(userId)).changes > 0,
  };
}
