// SQL for an idea's external links; callers check idea ownership first.
import type { Store } from "../../db/store";
import type { LinkType } from "../../contract";

export interface LinkRow {
  id: number;
  idea_id: number;
  url: string;
  title: string | null;
  link_type: LinkType;
  created_at: string;
}

export function createLinksRepo(store: Store) {
  const forIdea = store.query<LinkRow, [number]>(
    "SELECT id, idea_id, url, title, link_type, created_at FROM links WHERE idea_id = ? ORDER BY created_at DESC, id DESC",
  );
  const insert = store.query<LinkRow, [number, string, string | null, string, string]>(
    `INSERT INTO links (idea_id, url, title, link_type, created_at) VALUES (?, ?, ?, ?, ?)
     RETURNING id, idea_id, url, title, link_type, created_at`,
  );
  const remove = store.query("DELETE FROM links WHERE idea_id = ? AND id = ?");
  return {
    listForIdea: (ideaId: number) => forIdea.all(ideaId),
    insert: async (ideaId: number, url: string, title: string | null, linkType: string, now: string) => (await insert.get(ideaId, url, title, linkType, now))!,
    /** Deletes only when the link belongs to that idea; false otherwise. */
    deleteFromIdea: async (ideaId: number, linkId: number) => (await remove.run(ideaId, linkId)).changes > 0,
  };
}
