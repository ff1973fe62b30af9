// SQL of wikilinks over ideas: the account's ideas a link can name, and an owned idea's body. (The relations links
// make are written by the relations repo: createTextRelationsRepo in src/modules/relations/repo.ts.)
import type { Store } from "../../db/store";

export interface LinkableIdea { id: number; number: number; title: string; is_archived: number }

export function createWikilinksRepo(store: Store) {
  // Titles are compared in JS (Unicode case folding; SQLite's lower() and NOCASE fold ASCII only), so every title of
  // the account is read, oldest first: only when a body holds a link (10,000 titles: a few ms).
  const ideas = store.query<LinkableIdea, [string]>("SELECT id, number, title, is_archived FROM ideas WHERE user_id = ? ORDER BY number");
  const byNumber = store.query<LinkableIdea, [string, number]>("SELECT id, number, title, is_archived FROM ideas WHERE user_id = ? AND number = ?");
  const owned = store.query<{ body: string }, [string, number]>("SELECT body FROM ideas WHERE user_id = ? AND id = ?");
  return {
    /** The idea's body, or null when the account has no such idea. */
    bodyOf: async (userId: string, ideaId: number) => (await owned.get(userId, ideaId))?.body ?? null,
    ideas: (userId: string) => ideas.all(userId),
    byNumber: (userId: string, n: number) => byNumber.get(userId, n),
  };
}
export type WikilinksRepo = ReturnType<typeof createWikilinksRepo>;
