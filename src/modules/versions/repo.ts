// SQL of idea versions: the triggers of migrations/0020 write them; this reads them, owner-scoped through the idea.
import type { Store } from "../../db/store";

export interface VersionRow {
  version: number;
  title: string;
  body: string;
  writer: string;
  created_at: string;
}

const COLUMNS = "v.version, v.title, v.body, v.writer, v.created_at";

export function createVersionsRepo(store: Store) {
  // Joined to ideas on the owner, so another account's idea reads as absent (404), as everywhere.
  const all = store.query<VersionRow, [string, number]>(
    `SELECT ${COLUMNS} FROM idea_versions v JOIN ideas i ON i.id = v.idea_id
     WHERE i.user_id = ? AND v.idea_id = ? ORDER BY v.version DESC`,
  );
  const one = store.query<VersionRow, [string, number, number]>(
    `SELECT ${COLUMNS} FROM idea_versions v JOIN ideas i ON i.id = v.idea_id
     WHERE i.user_id = ? AND v.idea_id = ? AND v.version = ?`,
  );
  const owned = store.query<{ id: number }, [string, number]>("SELECT id FROM ideas WHERE user_id = ? AND id = ?");
  // An imported history replaces the one the import's own insert began (version 1, the idea's current text).
  const clear = store.query<unknown, [number]>("DELETE FROM idea_versions WHERE idea_id = ?");
  const add = store.query<unknown, [number, number, string, string, string, string]>(
    "INSERT INTO idea_versions (idea_id, version, title, body, writer, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  // The UNIQUE (idea_id, version) index finds each idea's newest number.
  const prune = store.query<unknown, [number, number]>(
    "DELETE FROM idea_versions WHERE idea_id = ?1 AND version <= (SELECT max(version) FROM idea_versions WHERE idea_id = ?1) - ?2",
  );
  const pruneAll = store.query<unknown, [number]>(
    `DELETE FROM idea_versions WHERE version <= (SELECT max(v.version) FROM idea_versions v WHERE v.idea_id = idea_versions.idea_id) - ?`,
  );
  return {
    /** Removes the idea's versions older than its newest `keep` (versions_keep); the number of rows removed. */
    prune: async (ideaId: number, keep: number) => (await prune.run(ideaId, keep)).changes,
    /** The same over every idea (the nightly pass). */
    pruneAll: async (keep: number) => (await pruneAll.run(keep)).changes,
    ownsIdea: async (userId: string, ideaId: number) => (await owned.get(userId, ideaId)) !== null,
    /** Newest first, the current state included. */
    list: (userId: string, ideaId: number) => all.all(userId, ideaId),
    find: (userId: string, ideaId: number, version: number) => one.get(userId, ideaId, version),
    /**
     * Writes an imported history (our own JSON export) as the idea's, in place of the version 1 its insert began: in
     * the file's order, numbered from 1; when the last one is not the idea's text, that text follows as the newest
     * (writer import), so the newest version is always the current text. Run inside the import's transaction.
     */
    async importHistory(ideaId: number, given: Array<{ version: number; title: string; body?: string | null; writer?: string; created_at?: string }>, current: { title: string; body: string }, now: string): Promise<void> {
      const sorted = [...given].sort((a, b) => a.version - b.version);
      await clear.run(ideaId);
      let n = 0;
      for (const v of sorted) await add.run(ideaId, ++n, v.title, v.body ?? "", v.writer ?? "import", v.created_at ?? now);
      const last = sorted[sorted.length - 1];
      if (!last || last.title !== current.title || (last.body ?? "") !== current.body) await add.run(ideaId, ++n, current.title, current.body, "import", now);
    },
  };
}
export type VersionsRepo = ReturnType<typeof createVersionsRepo>;
