// SQL of wikilinks over ideas: the account's ideas a link can name, an owned idea's body, and the index of link
// targets (wikilink_targets). (The relations links make are written by the relations repo: createTextRelationsRepo
// in src/modules/relations/repo.ts.)
import type { Store } from "../../db/store";

export interface LinkableIdea { id: number; number: number; title: string; is_archived: number }

export function createWikilinksRepo(store: Store) {
  // Titles are compared in JS (Unicode case folding; SQLite's lower() and NOCASE fold ASCII only): for a link beyond
  // ASCII every title of the account is read, oldest first; an ASCII one asks for its title only (below).
  const ideas = store.query<LinkableIdea, [string]>("SELECT id, number, title, is_archived FROM ideas WHERE user_id = ? ORDER BY number");
  const byNumber = store.query<LinkableIdea, [string, number]>("SELECT id, number, title, is_archived FROM ideas WHERE user_id = ? AND number = ?");
  // Ideas whose title folds (ASCII) to one of the keys; the caller folds each again as the parser does. The index
  // ideas_title_key (migrations/0024) holds this very expression; an ORDER BY here would make SQLite's planner walk the
  // account's rows in number order instead, so the few rows found are sorted in JS.
  const byTitleKeys = store.query<LinkableIdea, [string, string]>(
    `SELECT id, number, title, is_archived FROM ideas WHERE user_id = ? AND lower(trim(title)) IN (SELECT value FROM json_each(?))`,
  );
  const owned = store.query<{ body: string }, [string, number]>("SELECT body FROM ideas WHERE user_id = ? AND id = ?");
  // The link index (migrations/0023): each idea's targets, so the bodies that link to a title are found by key.
  const clearTargets = store.query<unknown, [number]>("DELETE FROM wikilink_targets WHERE idea_id = ?");
  const addTarget = store.query<unknown, [string, string, number]>(
    "INSERT INTO wikilink_targets (user_id, target, idea_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const linkers = store.query<{ id: number; body: string }, [string, string, string, number]>(
    `SELECT DISTINCT i.id, i.body FROM wikilink_targets w JOIN ideas i ON i.id = w.idea_id
     WHERE w.user_id = ? AND w.target IN (?, ?) AND i.id <> ? AND i.is_archived = 0 ORDER BY i.id`,
  );
  const ready = store.query<{ wikilink_targets_ready: number }, [string]>("SELECT wikilink_targets_ready FROM users WHERE id = ?");
  const markReady = store.query<unknown, [string]>("UPDATE users SET wikilink_targets_ready = 1 WHERE id = ?");
  const withLinks = store.query<{ id: number; body: string }, [string]>("SELECT id, body FROM ideas WHERE user_id = ? AND body LIKE '%[[%' ORDER BY id");
  return {
    /** The idea's body, or null when the account has no such idea. */
    bodyOf: async (userId: string, ideaId: number) => (await owned.get(userId, ideaId))?.body ?? null,
    ideas: (userId: string) => ideas.all(userId),
    byNumber: (userId: string, n: number) => byNumber.get(userId, n),
    /** Oldest first. */
    byTitleKeys: async (userId: string, keys: string[]) => (await byTitleKeys.all(userId, JSON.stringify(keys))).sort((a, b) => a.number - b.number),
    /** Writes the idea's link targets in place of what they were. */
    async setTargets(userId: string, ideaId: number, targets: Iterable<string>): Promise<void> {
      await clearTargets.run(ideaId);
      for (const t of targets) await addTarget.run(userId, t, ideaId);
    },
    /** Targets of an idea that has none yet (one just inserted). */
    async addTargets(userId: string, ideaId: number, targets: Iterable<string>): Promise<void> {
      for (const t of targets) await addTarget.run(userId, t, ideaId);
    },
    /** Live bodies (other than the idea's own) whose links name `a` or `b`. */
    linkersOf: (userId: string, ideaId: number, a: string, b: string) => linkers.all(userId, a, b, ideaId),
    /** Whether the account's bodies are all in the index (those written before it are read once). */
    isReady: async (userId: string) => ((await ready.get(userId))?.wikilink_targets_ready ?? 0) === 1,
    markReady: async (userId: string) => void (await markReady.run(userId)),
    bodiesWithLinks: (userId: string) => withLinks.all(userId),
  };
}
export type WikilinksRepo = ReturnType<typeof createWikilinksRepo>;
