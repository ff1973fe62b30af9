// SQL of account deletion: what the foreign keys do not cascade (jobs, vectors), then the account row itself.
import type { Store } from "../../db/store";
import { deleteAccountJobs } from "../../jobs/queue";

// Vector tables are made per embedding generation (src/vectors/tables.ts): found by name, whatever generations exist.
const IDEA_VECTORS = /^vec_ideas_g\d+$/;
const SHARED_VECTORS = /^vec_shared_g\d+$/;
const TAG_VECTORS = /^vec_tags_g\d+$/;

export function createDeletionRepo(store: Store) {
  // The vector tables are sqlite-vec's, so they exist on the SQLite store only (read on its handle).
  const db = store.sqlite;
  const tables = db?.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'vec\\_%' ESCAPE '\\'") ?? null;
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
    deleteVectors(userId: string): void {
      if (!db || !tables) return;
      for (const { name } of tables.all()) {
        if (IDEA_VECTORS.test(name) || SHARED_VECTORS.test(name)) db.query(`DELETE FROM ${name} WHERE user_id = ?`).run(userId);
        // vec0 is partitioned by account; its rowid is the tag's id.
        else if (TAG_VECTORS.test(name)) db.query(`DELETE FROM ${name} WHERE rowid IN (SELECT id FROM tags WHERE user_id = ?)`).run(userId);
      }
    },
    /**
     * Runs `remove` in one IMMEDIATE transaction with SQLite's secure_delete on: the cells and pages it frees are
     * zeroed rather than left as free space holding the account's rows. Not FTS5's own secure-delete: it removes
     * each word of each idea from the index's segments one by one (22.7 s instead of 0.66 s for an account of 5,000
     * ideas, scripts/bench/account-deletion.ts: a write lock the server's captures would time out behind), so the
     * keyword indexes keep the words beside tombstones until their segments merge (docs/auth.md). The pragma is
     * SQLite's; on PostgreSQL the rows are deleted alike and the freed space is the server's to reclaim (VACUUM).
     */
    async scrubbing<T>(remove: () => Promise<T>): Promise<T> {
      db?.exec("PRAGMA secure_delete = ON");
      try {
        return await store.tx(remove, { immediate: true });
      } finally {
        db?.exec("PRAGMA secure_delete = OFF");
      }
    },
    /** The account row: every table that names it (ideas and all they own, keys, sessions …) cascades from here. */
    deleteUser: async (userId: string) => (await user.run(userId)).changes > 0,
  };
}
