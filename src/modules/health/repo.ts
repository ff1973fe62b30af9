// SQL for GET /health: one real read that fails when the database cannot answer.
import type { Db } from "../../db/open";

export function createHealthRepo(db: Db) {
  return {
    /** Reads one row; throws whatever SQLite throws when the database cannot answer (prepared inside the probe too). */
    probe: () => void db.query("SELECT 1 AS ok FROM users LIMIT 1").get(),
  };
}
