// Every statement that writes `ideas`: the write path's insert, display numbers and active count (createFilingRepo,
// for src/modules/filing/ only), and each later change to an idea's row (createIdeaEdits: the ideas service, review,
// imports, the pipeline). test/foundation/stores.test.ts fails when SQL anywhere else writes the table.
import type { Store } from "../../db/store";
import type { IdeaRow } from "../ideas/repo";

/** Every column a writer sets on a new idea; the rest (vectorize_id, is_archived, list_json) start at their defaults. */
export interface NewIdeaRow {
  user_id: string;
  number: number;
  title: string;
  body: string;
  status: string;
  source: string;
  source_url: string | null;
  source_summary: string | null;
  parent_id: number | null;
  created_at: string;
  updated_at: string;
}

/** last_writer: who made the new text (idea versions record it, migrations/0020); set beside a title or body. */
export type IdeaChanges = Partial<Pick<IdeaRow, "title" | "body" | "status" | "parent_id" | "created_at" | "updated_at"> & { last_writer: string }>;

/** What a re-run of an import writes over an idea it brought before (notes-import.ts). */
export interface ImportedText {
  title: string;
  body: string;
  /** null: the file states none, the idea keeps its own. */
  status: string | null;
  updated_at: string;
  /** Archived in its own app: the idea is archived too (a re-run never un-archives). */
  archived: boolean;
}

/** The write path's own statements: new rows only. Used by filing/ alone, so every new idea gets its jobs and cap. */
export function createFilingRepo(store: Store) {
  const reserve = store.query<{ idea_seq: number }, [number, string]>(
    "UPDATE users SET idea_seq = idea_seq + ? WHERE id = ? RETURNING idea_seq",
  );
  const active = store.query<{ n: number }, [string]>("SELECT count(*) AS n FROM ideas WHERE user_id = ? AND is_archived = 0");
  // The new row comes back whole (the columns ideas/repo.ts reads), so a capture's answer needs no read after it.
  const insert = store.query<IdeaRow, [Record<string, string | number | null>]>(
    `INSERT INTO ideas (user_id, number, title, body, status, source, source_url, source_summary, parent_id, created_at, updated_at)
     VALUES ($user_id, $number, $title, $body, $status, $source, $source_url, $source_summary, $parent_id, $created_at, $updated_at)
     RETURNING id, user_id, number, title, body, status, source, source_url, source_summary, parent_id, vectorize_id,
       is_archived, created_at, updated_at`,
  );
  const reserveNow = async (userId: string, n: number) => (await reserve.get(n, userId))!.idea_seq - n + 1;

  /**
   * Reservations asked for at once by the members of an interleaved capture group (PostgreSQL) are taken by one
   * UPDATE per account, handed out in the order asked. One UPDATE each made a new version of the account's
   * row per capture, and every later statement of the group that reads or locks that row (the reservations, the
   * foreign-key checks of each insert naming the account) walked all of the transaction's versions before it: a
   * group of 48 paid for it quadratically (issue 34). SQLite runs each call when made and has no such cost.
   */
  const asked = new Map<object, Map<string, Array<{ n: number; resolve: (first: number) => void; reject: (e: unknown) => void }>>>();
  function reserveMerged(scope: object, userId: string, n: number): Promise<number> {
    return new Promise((resolve, reject) => {
      let byUser = asked.get(scope);
      if (!byUser) {
        asked.set(scope, (byUser = new Map()));
        // Every member of a group asks within the turn that started them: the next turn sends one UPDATE per account.
        setImmediate(() => {
          asked.delete(scope);
          for (const [user, wants] of byUser!) {
            const total = wants.reduce((sum, w) => sum + w.n, 0);
            reserveNow(user, total).then((first) => {
              for (const w of wants) {
                w.resolve(first);
                first += w.n;
              }
            }, (e: unknown) => wants.forEach((w) => w.reject(e)));
          }
        });
      }
      const wants = byUser.get(userId) ?? [];
      byUser.set(userId, wants);
      wants.push({ n, resolve, reject });
    });
  }

  return {
    countActive: async (userId: string) => (await active.get(userId))!.n,
    /** Reserves `n` consecutive display numbers after the account's last one; returns the first. Same transaction as the inserts. */
    reserveNumbers: (userId: string, n: number): Promise<number> => {
      const scope = store.groupScope();
      return scope === null ? reserveNow(userId, n) : reserveMerged(scope, userId, n);
    },
    /** The inserted row, as ideas/repo.ts reads one. */
    insert: async (row: NewIdeaRow) => (await insert.get({ ...row }))!,
  };
}
export type FilingRepo = ReturnType<typeof createFilingRepo>;

/** Changes to an existing idea's row, whoever makes them. Each caller keeps its own rules (wikilinks, jobs, versions). */
export function createIdeaEdits(store: Store) {
  const archive = store.query("UPDATE ideas SET is_archived = 1, updated_at = ? WHERE id = ? AND is_archived = 0");
  const reparent = store.query("UPDATE ideas SET parent_id = ?1 WHERE parent_id = ?2 AND id <> ?1");
  const touch = store.query("UPDATE ideas SET updated_at = ? WHERE user_id = ? AND id = ?");
  const setParent = store.query("UPDATE ideas SET parent_id = ? WHERE id = ?");
  const importedText = store.query(
    `UPDATE ideas SET title = $title, body = $body, last_writer = 'import', status = coalesce($status, status), updated_at = $updated_at,
       is_archived = max(is_archived, $archived) WHERE id = $id`,
  );
  const setVectorId = store.query("UPDATE ideas SET vectorize_id = ? WHERE id = ?");
  const clearArchivedVectorId = store.query("UPDATE ideas SET vectorize_id = NULL WHERE id = ? AND is_archived = 1");
  return {
    /** Sets the given columns (none: nothing is written). A title or body change must sync its [[wikilinks]] (wikilinks/sync.ts). */
    async update(id: number, fields: IdeaChanges): Promise<void> {
      const keys = Object.keys(fields);
      if (keys.length === 0) return;
      const sets = keys.map((k) => `${k} = $${k}`).join(", ");
      await store.query(`UPDATE ideas SET ${sets} WHERE id = $id`).run({ ...fields, id } as Record<string, string | number | null>);
    },
    /**
     * Sets is_archived and updated_at; false when it already was archived. An import's archived note passes its own
     * updated_at, so it arrives archived with the date its file gave.
     */
    archive: async (id: number, updatedAt: string) => (await archive.run(updatedAt, id)).changes > 0,
    /** Children of `from` now hang under `to` (used when `from` is absorbed into `to`). */
    reparentChildren: async (from: number, to: number) => (await reparent.run(to, from)).changes,
    /** Sets updated_at only (the review's "keep"); false when the idea is not the caller's. */
    touch: async (userId: string, ideaId: number, now: string) => (await touch.run(now, userId, ideaId)).changes > 0,
    /** An imported idea's parent, once every idea of the file has its new id. */
    setParent: async (id: number, parentId: number) => void (await setParent.run(parentId, id)),
    /** A re-run of an import over an idea it brought before: its new text, status and date (last_writer 'import'). */
    rewriteImported: async (id: number, f: ImportedText) =>
      void (await importedText.run({ id, title: f.title, body: f.body, status: f.status, updated_at: f.updated_at, archived: f.archived ? 1 : 0 })),
    /** The id of the idea's current vector (the pipeline's embedding pass). */
    setVectorId: async (id: number, vectorId: string | null) => void (await setVectorId.run(vectorId, id)),
    /** Clears an archived idea's vectorize_id (its vectors are gone); a live idea is left alone. */
    clearArchivedVectorId: async (id: number) => void (await clearArchivedVectorId.run(id)),
  };
}
export type IdeaEdits = ReturnType<typeof createIdeaEdits>;
