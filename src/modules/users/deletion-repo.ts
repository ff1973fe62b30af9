// SQL of account deletion: what the foreign keys do not cascade (jobs, vectors), then the account row itself.
import type { Db } from "../../db/open";
import { deleteAccountJobs } from "../../jobs/queue";

// Vector tables are made per embedding generation (src/vectors/tables.ts): found by name, whatever generations exist.
const IDEA_VECTORS = /^vec_ideas_g\d+$/;
const SHARED_VECTORS = /^vec_shared_g\d+$/;
const TAG_VECTORS = /^vec_tags_g\d+$/;
const FTS_TABLES = ["ideas_fts", "ideas_fts_cjk"];

export function createDeletionRepo(db: Db) {
  const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'vec\\_%' ESCAPE '\\'");
  const ideaIds = db.query<{ id: number }, [string]>("SELECT id FROM ideas WHERE user_id = ?");
  const counts = db.query<{ ideas: number; tags: number }, [string]>(
    "SELECT (SELECT count(*) FROM ideas WHERE user_id = ?1) AS ideas, (SELECT count(*) FROM tags WHERE user_id = ?1) AS tags",
  );
  const user = db.query("DELETE FROM users WHERE id = ?");
  return {
    counts: (userId: string) => counts.get(userId)!,
    ideaIds: (userId: string) => ideaIds.all(userId).map((r) => r.id),
    /** Jobs name an idea (full, light) or a tag in their payload (tag-embed); neither is a foreign key. */
    deleteJobs: (userId: string) => deleteAccountJobs(db, userId),
    /** Every vector row of the account in every generation's tables (live, building or left over). */
    deleteVectors(userId: string): void {
      for (const { name } of tables.all()) {
        if (IDEA_VECTORS.test(name) || SHARED_VECTORS.test(name)) db.query(`DELETE FROM ${name} WHERE user_id = ?`).run(userId);
        // vec0 is partitioned by account; its rowid is the tag's id.
        else if (TAG_VECTORS.test(name)) db.query(`DELETE FROM ${name} WHERE rowid IN (SELECT id FROM tags WHERE user_id = ?)`).run(userId);
      }
    },
    /**
     * Runs `remove` so that what it deletes is overwritten, not only unlinked: SQLite zeroes freed cells and pages
     * (secure_delete), and both keyword indexes take the ideas' words out of their segments instead of adding
     * tombstones beside them (FTS5 secure-delete, on only for this transaction). Otherwise the words stay in the
     * database file, and in every backup taken later, until the pages are reused or the segments merged.
     */
    scrubbing<T>(remove: () => T): T {
      db.exec("PRAGMA secure_delete = ON");
      try {
        return db.transaction(() => {
          for (const fts of FTS_TABLES) db.exec(`INSERT INTO ${fts}(${fts}, rank) VALUES ('secure-delete', 1)`);
          const out = remove();
          for (const fts of FTS_TABLES) db.exec(`INSERT INTO ${fts}(${fts}, rank) VALUES ('secure-delete', 0)`);
          return out;
        }).immediate();
      } finally {
        db.exec("PRAGMA secure_delete = OFF");
      }
    },
    /** The account row: every table that names it (ideas and all they own, keys, sessions …) cascades from here. */
    deleteUser: (userId: string) => user.run(userId).changes > 0,
  };
}
