// SQL for imports from other apps: remembered origins (import_origins), what an idea holds (its rewrite is filing/repo.ts's).
import type { Store } from "../../db/store";

export interface OriginRow { idea_id: number; content_hash: string; is_archived: number }

export function createNotesRepo(store: Store) {
  const origin = store.query<OriginRow, [string, string, string]>(
    `SELECT o.idea_id, o.content_hash, i.is_archived FROM import_origins o JOIN ideas i ON i.id = o.idea_id
     WHERE o.user_id = ? AND o.source = ? AND o.origin = ?`,
  );
  const remember = store.query(
    `INSERT INTO import_origins (user_id, source, origin, idea_id, content_hash, imported_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, source, origin) DO UPDATE SET idea_id = excluded.idea_id, content_hash = excluded.content_hash,
       imported_at = excluded.imported_at`,
  );
  const linkUrls = store.query<{ url: string }, [number]>("SELECT url FROM links WHERE idea_id = ?");
  const tagExists = store.query<{ n: number }, [string, string]>("SELECT count(*) AS n FROM tags WHERE user_id = ? AND name = ?");
  return {
    findOrigin: (userId: string, source: string, o: string) => origin.get(userId, source, o),
    rememberOrigin: (userId: string, source: string, o: string, ideaId: number, hash: string, now: string) =>
      remember.run(userId, source, o, ideaId, hash, now),
    linkUrls: async (ideaId: number) => new Set((await linkUrls.all(ideaId)).map((r) => r.url)),
    tagExists: async (userId: string, name: string) => (await tagExists.get(userId, name))!.n > 0,
  };
}
