// SQL of wikilinks: the account's ideas a link can name, the relations a body's links made, and backlinks.
import type { Store } from "../../db/store";

export interface LinkableIdea { id: number; number: number; title: string; is_archived: number }
export interface TextRelation { id: number; target_idea_id: number; relation_type: string; note: string | null }
export interface Backlink { id: number; number: number; title: string }

export function createWikilinksRepo(store: Store) {
  // Titles are compared in JS (Unicode case folding; SQLite's lower() and NOCASE fold ASCII only), so every title of
  // the account is read, oldest first: only when a body holds a link (10,000 titles: a few ms).
  const ideas = store.query<LinkableIdea, [string]>("SELECT id, number, title, is_archived FROM ideas WHERE user_id = ? ORDER BY number");
  const byNumber = store.query<LinkableIdea, [string, number]>("SELECT id, number, title, is_archived FROM ideas WHERE user_id = ? AND number = ?");
  const made = store.query<TextRelation, [number]>(
    "SELECT id, target_idea_id, relation_type, note FROM relations WHERE source_idea_id = ? AND created_by = 'user' AND from_text = 1",
  );
  const userEitherWay = store.query<{ n: number }, [number, number]>(
    `SELECT count(*) AS n FROM relations WHERE created_by = 'user'
       AND ((source_idea_id = ?1 AND target_idea_id = ?2) OR (source_idea_id = ?2 AND target_idea_id = ?1))`,
  );
  const insert = store.query<unknown, [string, number, number, string]>(
    `INSERT INTO relations (user_id, source_idea_id, target_idea_id, relation_type, score, note, created_by, created_at, from_text)
     VALUES (?, ?, ?, 'related', NULL, NULL, 'user', ?, 1)
     ON CONFLICT (source_idea_id, target_idea_id, created_by) DO NOTHING`,
  );
  // The person's link replaces the pipeline's suggestion of the same pair, as an import's does.
  const dropSystem = store.query<unknown, [number, number]>(
    `DELETE FROM relations WHERE created_by = 'system' AND relation_type = 'related' AND note IS NULL
       AND ((source_idea_id = ?1 AND target_idea_id = ?2) OR (source_idea_id = ?2 AND target_idea_id = ?1))`,
  );
  const remove = store.query<unknown, [number]>("DELETE FROM relations WHERE id = ?");
  // Ideas whose text links here: the relations links made (from_text) and the links an import carried over.
  const backlinks = store.query<Backlink, [number]>(
    `SELECT i.id, i.number, i.title FROM relations r JOIN ideas i ON i.id = r.source_idea_id
     WHERE r.target_idea_id = ? AND r.created_by = 'user' AND (r.from_text = 1 OR r.imported = 1) AND i.is_archived = 0
     ORDER BY i.number`,
  );
  const owned = store.query<{ body: string }, [string, number]>("SELECT body FROM ideas WHERE user_id = ? AND id = ?");
  return {
    /** The idea's body, or null when the account has no such idea. */
    bodyOf: async (userId: string, ideaId: number) => (await owned.get(userId, ideaId))?.body ?? null,
    ideas: (userId: string) => ideas.all(userId),
    byNumber: (userId: string, n: number) => byNumber.get(userId, n),
    madeBy: (ideaId: number) => made.all(ideaId),
    userRelationEitherWay: async (a: number, b: number) => (await userEitherWay.get(a, b))!.n > 0,
    /** False when the pair already had a user relation this way (the unique key). */
    insert: async (userId: string, source: number, target: number, now: string) => (await insert.run(userId, source, target, now)).changes > 0,
    dropSystemBetween: (a: number, b: number) => dropSystem.run(a, b),
    remove: (id: number) => remove.run(id),
    backlinks: (ideaId: number) => backlinks.all(ideaId),
  };
}
export type WikilinksRepo = ReturnType<typeof createWikilinksRepo>;
