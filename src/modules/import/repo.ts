// SQL for imports: number reservation, idea/tag/link inserts (relations go through the relations repo); the caller
// wraps it all in one transaction.
import type { Db } from "../../db/open";

export interface ImportIdeaRow {
  user_id: string;
  number: number;
  title: string;
  body: string;
  status: string;
  source: string;
  source_url: string | null;
  source_summary: string | null;
  created_at: string;
  updated_at: string;
}

export function createImportRepo(db: Db) {
  const reserve = db.query<{ idea_seq: number }, [number, string]>(
    "UPDATE users SET idea_seq = idea_seq + ? WHERE id = ? RETURNING idea_seq",
  );
  const active = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM ideas WHERE user_id = ? AND is_archived = 0");
  const insertIdea = db.query<{ id: number }, Record<string, string | number | null>>(
    `INSERT INTO ideas (user_id, number, title, body, status, source, source_url, source_summary, created_at, updated_at)
     VALUES ($user_id, $number, $title, $body, $status, $source, $source_url, $source_summary, $created_at, $updated_at) RETURNING id`,
  );
  const setParent = db.query("UPDATE ideas SET parent_id = ? WHERE id = ?");
  const tagByName = db.query<{ id: number; color: string | null }, [string, string]>("SELECT id, color FROM tags WHERE user_id = ? AND name = ?");
  const insertTag = db.query<{ id: number }, [string, string, string | null, string]>(
    "INSERT INTO tags (user_id, name, color, created_at) VALUES (?, ?, ?, ?) RETURNING id",
  );
  const setTagColor = db.query("UPDATE tags SET color = ? WHERE id = ? AND color IS NULL");
  const attach = db.query("INSERT OR IGNORE INTO idea_tags (idea_id, tag_id) VALUES (?, ?)");
  const insertLink = db.query("INSERT INTO links (idea_id, url, title, link_type, created_at) VALUES (?, ?, ?, ?, ?)");
  return {
    countActive: (userId: string) => active.get(userId)!.n,
    /** Reserves `n` consecutive display numbers after the account's last one; returns the first. */
    reserveNumbers: (userId: string, n: number) => reserve.get(n, userId)!.idea_seq - n + 1,
    insertIdea: (row: ImportIdeaRow) => insertIdea.get({ ...row })!.id,
    setParent: (id: number, parentId: number) => setParent.run(parentId, id),
    findTag: (userId: string, name: string) => tagByName.get(userId, name),
    insertTag: (userId: string, name: string, color: string | null, createdAt: string) => insertTag.get(userId, name, color, createdAt)!.id,
    fillTagColor: (tagId: number, color: string) => setTagColor.run(color, tagId),
    attachTag: (ideaId: number, tagId: number) => attach.run(ideaId, tagId),
    insertLink: (ideaId: number, l: { url: string; title: string | null; link_type: string; created_at: string }) =>
      insertLink.run(ideaId, l.url, l.title, l.link_type, l.created_at),
  };
}
