// SQL of the write path: the one INSERT over ideas, display numbers, and the active count the Free cap reads.
import type { Store } from "../../db/store";

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

export function createFilingRepo(store: Store) {
  const reserve = store.query<{ idea_seq: number }, [number, string]>(
    "UPDATE users SET idea_seq = idea_seq + ? WHERE id = ? RETURNING idea_seq",
  );
  const active = store.query<{ n: number }, [string]>("SELECT count(*) AS n FROM ideas WHERE user_id = ? AND is_archived = 0");
  const insert = store.query<{ id: number }, [Record<string, string | number | null>]>(
    `INSERT INTO ideas (user_id, number, title, body, status, source, source_url, source_summary, parent_id, created_at, updated_at)
     VALUES ($user_id, $number, $title, $body, $status, $source, $source_url, $source_summary, $parent_id, $created_at, $updated_at)
     RETURNING id`,
  );
  const archive = store.query("UPDATE ideas SET is_archived = 1 WHERE id = ?");
  return {
    countActive: async (userId: string) => (await active.get(userId))!.n,
    /** Reserves `n` consecutive display numbers after the account's last one; returns the first. Same transaction as the inserts. */
    reserveNumbers: async (userId: string, n: number) => (await reserve.get(n, userId))!.idea_seq - n + 1,
    insert: async (row: NewIdeaRow) => (await insert.get({ ...row }))!.id,
    /** A note that was archived in its own app arrives archived: stored, then set aside at once (no job). */
    archive: async (id: number) => void (await archive.run(id)),
  };
}
export type FilingRepo = ReturnType<typeof createFilingRepo>;
