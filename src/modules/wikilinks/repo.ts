// SQL of wikilinks over ideas: the account's ideas a link can name, and an owned idea's body. (The relations links
// make are written by the relations repo: createTextRelationsRepo in src/modules/relations/repo.ts.)
import type { Store } from "../../db/store";

export interface LinkableIdea { id: number; number: number; title: string; is_archived: number }

/** A text as a LIKE pattern matching it literally (with ESCAPE '\\'). */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createWikilinksRepo(store: Store) {
  // Titles are compared in JS (Unicode case folding; SQLite's lower() and NOCASE fold ASCII only), so every title of
  // the account is read, oldest first: only when a body holds a link (10,000 titles: a few ms).
  const ideas = store.query<LinkableIdea, [string]>("SELECT id, number, title, is_archived FROM ideas WHERE user_id = ? ORDER BY number");
  const byNumber = store.query<LinkableIdea, [string, number]>("SELECT id, number, title, is_archived FROM ideas WHERE user_id = ? AND number = ?");
  const owned = store.query<{ body: string }, [string, number]>("SELECT body FROM ideas WHERE user_id = ? AND id = ?");
  // Live bodies of the account that may link to an idea: they hold `[[` and the title (LIKE: any ASCII case) or `#N`.
  const linkers = store.query<{ id: number; body: string }, [string, number, string, string]>(
    `SELECT id, body FROM ideas WHERE user_id = ? AND id <> ? AND is_archived = 0 AND body LIKE '%[[%'
       AND (body LIKE ? ESCAPE '\\' OR body LIKE ? ESCAPE '\\') ORDER BY id`,
  );
  const anyLinkers = store.query<{ id: number; body: string }, [string, number]>(
    "SELECT id, body FROM ideas WHERE user_id = ? AND id <> ? AND is_archived = 0 AND body LIKE '%[[%' ORDER BY id",
  );
  return {
    /** The idea's body, or null when the account has no such idea. */
    bodyOf: async (userId: string, ideaId: number) => (await owned.get(userId, ideaId))?.body ?? null,
    ideas: (userId: string) => ideas.all(userId),
    byNumber: (userId: string, n: number) => byNumber.get(userId, n),
    /**
     * Bodies that may hold a link to the idea: by its title (`null`: a title LIKE cannot fold, then every body with a
     * link) or by its number (`null`: not asked). A superset; the caller parses them.
     */
    linkersOf(userId: string, ideaId: number, title: string | null, number: number | null) {
      if (title === null) return anyLinkers.all(userId, ideaId);
      // "" matches only an empty body, which the `[[` test has already left out.
      return linkers.all(userId, ideaId, `%${likeEscape(title)}%`, number === null ? "" : `%#${number}%`);
    },
  };
}
export type WikilinksRepo = ReturnType<typeof createWikilinksRepo>;
