// SQL for exports: unarchived ideas page by page in display-number order, their tags, links and relations.
import type { Store } from "../../db/store";
import type { IdeaRow } from "../ideas/repo";

export const EXPORT_IDEA_LIMIT = 10_000;
export const EXPORT_PAGE = 50;

export type ExportIdeaRow = Pick<IdeaRow, "id" | "number" | "title" | "body" | "source" | "source_url" | "source_summary" | "parent_id" | "created_at" | "updated_at"> & { status: string };

export interface ExportLinkRow { id: number; url: string; title: string | null; link_type: string; created_at: string }

export interface ExportRelationRow {
  id: number;
  source_idea_id: number;
  target_idea_id: number;
  relation_type: string;
  score: number | null;
  note: string | null;
  created_by: string;
  created_at: string;
}

export interface ExportTagRow { id: number; name: string; color: string | null; created_at: string; idea_count: number }

/** Read queries scoped to one account and to its first `EXPORT_IDEA_LIMIT` unarchived ideas (by number). */
export function createExportRepo(store: Store) {
  const cutoff = store.query<{ number: number }, [string, number]>(
    "SELECT number FROM ideas WHERE user_id = ? AND is_archived = 0 ORDER BY number LIMIT 1 OFFSET ?",
  );
  const count = store.query<{ n: number }, [string]>("SELECT count(*) AS n FROM ideas WHERE user_id = ? AND is_archived = 0");
  const maxNumber = store.query<{ n: number | null }, [string]>("SELECT max(number) AS n FROM ideas WHERE user_id = ?");
  // ?3 is the highest exported number: ideas past the cap are out, and so are relations and parents pointing at them.
  const page = store.query<ExportIdeaRow, [string, number, number, number]>(
    `SELECT i.id, i.number, i.title, i.body, i.status, i.source, i.source_url, i.source_summary,
            (SELECT p.id FROM ideas p WHERE p.id = i.parent_id AND p.is_archived = 0 AND p.number <= ?3) AS parent_id,
            i.created_at, i.updated_at
     FROM ideas i WHERE i.user_id = ?1 AND i.is_archived = 0 AND i.number > ?2 AND i.number <= ?3
     ORDER BY i.number LIMIT ?4`,
  );
  const names = store.query<{ id: number; number: number; title: string }, [string, number]>(
    "SELECT id, number, title FROM ideas WHERE user_id = ? AND is_archived = 0 AND number <= ? ORDER BY number",
  );
  const tagsOf = store.query<{ name: string }, [number]>(
    "SELECT t.name FROM idea_tags it JOIN tags t ON t.id = it.tag_id WHERE it.idea_id = ? ORDER BY t.name",
  );
  const linksOf = store.query<ExportLinkRow, [number]>(
    "SELECT id, url, title, link_type, created_at FROM links WHERE idea_id = ? ORDER BY created_at, id",
  );
  const REL_COLS = "r.id, r.source_idea_id, r.target_idea_id, r.relation_type, r.score, r.note, r.created_by, r.created_at";
  const outgoing = store.query<ExportRelationRow, [number, number]>(
    `SELECT ${REL_COLS} FROM live_relations r JOIN ideas o ON o.id = r.target_idea_id
     WHERE r.source_idea_id = ? AND o.number <= ? ORDER BY r.id`,
  );
  const incoming = store.query<ExportRelationRow, [number, number]>(
    `SELECT ${REL_COLS} FROM live_relations r JOIN ideas o ON o.id = r.source_idea_id
     WHERE r.target_idea_id = ? AND o.number <= ? ORDER BY r.id`,
  );
  const versionsOf = store.query<{ version: number; title: string; body: string; writer: string; created_at: string }, [number]>(
    "SELECT version, title, body, writer, created_at FROM idea_versions WHERE idea_id = ? ORDER BY version",
  );
  const tags = store.query<ExportTagRow, [string]>(
    `SELECT t.id, t.name, t.color, t.created_at,
            (SELECT count(*) FROM idea_tags it JOIN ideas i ON i.id = it.idea_id WHERE it.tag_id = t.id AND i.is_archived = 0) AS idea_count
     FROM tags t WHERE t.user_id = ? ORDER BY t.name`,
  );
  return {
    /**
     * Highest display number the export covers: the 10,000th unarchived idea's, or the account's current highest.
     * Fixing it up front keeps ideas captured while the export streams out of every part of it.
     */
    async lastExportedNumber(userId: string): Promise<number> {
      return (await cutoff.get(userId, EXPORT_IDEA_LIMIT - 1))?.number ?? (await maxNumber.get(userId))!.n ?? 0;
    },
    countActive: async (userId: string) => (await count.get(userId))!.n,
    page: (userId: string, afterNumber: number, maxNumber: number) => page.all(userId, afterNumber, maxNumber, EXPORT_PAGE),
    names: (userId: string, maxNumber: number) => names.all(userId, maxNumber),
    tagNames: async (ideaId: number) => (await tagsOf.all(ideaId)).map((r) => r.name),
    links: (ideaId: number) => linksOf.all(ideaId),
    outgoing: (ideaId: number, maxNumber: number) => outgoing.all(ideaId, maxNumber),
    incoming: (ideaId: number, maxNumber: number) => incoming.all(ideaId, maxNumber),
    tags: (userId: string) => tags.all(userId),
    /** The idea's versions, oldest first (docs/ideas.md "Versions"). */
    versions: (ideaId: number) => versionsOf.all(ideaId),
  };
}
export type ExportRepo = ReturnType<typeof createExportRepo>;
