// Fault-suite helpers: read-only looks at a stopped (or running) server's database file, and import documents.
import { Database } from "bun:sqlite";
import { join } from "node:path";

/** Opens the data dir's database read-only for one look; closed afterwards so it never holds a lock. */
export function peekDb<T>(dataDir: string, look: (db: Database) => T): T {
  const db = new Database(join(dataDir, "idearepo.db"), { readonly: true });
  try {
    return look(db);
  } finally {
    db.close();
  }
}

/** `PRAGMA integrity_check` on the file as the last process left it: "ok" or SQLite's list of problems. */
export function integrity(dataDir: string): string {
  return peekDb(dataDir, (db) => db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all().map((r) => r.integrity_check).join("; "));
}

/** Ideas still without a vector, jobs in the table, and jobs claimed (locked) by some process. */
export function backlog(dataDir: string): { unembedded: number; jobs: number; locked: number } {
  return peekDb(dataDir, (db) =>
    db
      .query<{ unembedded: number; jobs: number; locked: number }, []>(
        `SELECT (SELECT count(*) FROM ideas WHERE vectorize_id IS NULL AND is_archived = 0) AS unembedded,
                (SELECT count(*) FROM jobs) AS jobs,
                (SELECT count(*) FROM jobs WHERE locked_at IS NOT NULL) AS locked`,
      )
      .get()!,
  );
}

/** An idearepo JSON export document with `n` ideas titled `<prefix> <i>`, each tagged and with a relation to the next. */
export function importDoc(prefix: string, n: number) {
  const topics = ["bike", "garden", "coffee", "taxes", "chess", "music", "travel", "cooking"];
  return {
    format: "idearepo-export",
    version: 1,
    tags: [{ name: prefix.replace(/\W+/g, "-").toLowerCase(), color: "#336699" }],
    ideas: Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      title: `${prefix} ${i}`,
      body: `Notes on ${topics[i % topics.length]} and ${topics[(i * 3) % topics.length]}, item ${i}.`,
      tags: [prefix.replace(/\W+/g, "-").toLowerCase()],
      relations: i + 1 < n ? [{ source_idea_id: i + 1, target_idea_id: i + 2, relation_type: "related", created_by: "user" }] : [],
    })),
  };
}

/** Polls `cond` every 100 ms until it holds or `ms` pass; returns its last value. */
export async function until<T>(cond: () => Promise<T> | T, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let v = await cond();
  while (!v && Date.now() < deadline) {
    await Bun.sleep(100);
    v = await cond();
  }
  return v;
}
