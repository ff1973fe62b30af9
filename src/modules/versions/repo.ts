// SQL of idea versions: the triggers of migrations/0020 write them; this reads them, owner-scoped through the idea.
import type { Store } from "../../db/store";

export interface VersionRow {
  version: number;
  title: string;
  body: string;
  writer: string;
  created_at: string;
}

/** A version as an export carries it and an import gives it back. */
export interface ExportedVersion extends VersionRow {}

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
  const oldest = store.query<VersionRow, [number]>(`SELECT ${COLUMNS} FROM idea_versions v WHERE v.idea_id = ? ORDER BY v.version`);
  // An imported history replaces the one the import's own insert began (version 1, the idea's current text).
  const clear = store.query<unknown, [number]>("DELETE FROM idea_versions WHERE idea_id = ?");
  const add = store.query<unknown, [number, number, string, string, string, string]>(
    "INSERT INTO idea_versions (idea_id, version, title, body, writer, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  return {
    ownsIdea: async (userId: string, ideaId: number) => (await owned.get(userId, ideaId)) !== null,
    /** Newest first, the current state included. */
    list: (userId: string, ideaId: number) => all.all(userId, ideaId),
    find: (userId: string, ideaId: number, version: number) => one.get(userId, ideaId, version),
    /** Oldest first, for exports (the caller already scoped the idea to its account). */
    forExport: (ideaId: number) => oldest.all(ideaId),
    /** Writes `versions` as the idea's whole history (an import of our own JSON); run inside the import's transaction. */
    async replace(ideaId: number, versions: ExportedVersion[]): Promise<void> {
      await clear.run(ideaId);
      for (const v of versions) await add.run(ideaId, v.version, v.title, v.body, v.writer, v.created_at);
    },
  };
}
export type VersionsRepo = ReturnType<typeof createVersionsRepo>;
