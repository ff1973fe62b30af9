// Keeping the relations [[wikilinks]] make in step with the text, inside the very transaction that wrote the text.
// The write path calls `textWritten` after it writes a title or a body (filing/write.ts for a capture, the ideas
// service for an edit or a restore, the merger for a merge); nothing else does, so no writer can forget it and no
// crash between the text and its links can leave them apart (docs/ideas.md "Wikilinks").
import type { Deps } from "../../deps";
import { toStamp } from "../../lib/time";
import { together } from "../../db/store";
import { wikilinkKey, wikilinkTargets, type Wikilink } from "../../contract";
import { createWikilinksRepo, type LinkableIdea } from "./repo";
import { createTextRelationsRepo } from "../relations/repo";

/** An idea as it stands after the write. */
export interface Written { id: number; number: number; title: string; body: string }

/** The idea each title names, by key. */
export type TitleIndex = Map<string, LinkableIdea>;
/** The ideas some title keys name (those that name one); asked of the store once per key per write. */
type Titles = (keys: string[]) => Promise<TitleIndex>;

const ASCII = /^[\x00-\x7f]*$/;

export function createLinkSync(deps: Pick<Deps, "store" | "clock">) {
  const { store } = deps;
  const repo = createWikilinksRepo(store);
  const relations = createTextRelationsRepo(store);

  /**
   * Two ideas of one title: a live one before an archived one, then the oldest (the lowest number; rows come in number
   * order), so capturing a second idea of a title never moves the links that already name the first.
   */
  const keep = (into: TitleIndex, i: LinkableIdea) => {
    const k = wikilinkKey(i.title);
    const held = into.get(k);
    if (!held || (held.is_archived && !i.is_archived)) into.set(k, i);
  };

  /**
   * Title keys → ideas, for one write. A key in ASCII is asked of the store by `lower(trim(title))` (both stores fold
   * ASCII alike), so only the ideas of that title are read; a key beyond ASCII (SQLite's lower() folds ASCII only)
   * reads every title of the account once and folds them here, as the parser does (10,000 ideas: ~40 ms).
   */
  function titlesOf(userId: string): Titles {
    const known = new Map<string, LinkableIdea | null>();
    let every: TitleIndex | null = null;
    return async (keys) => {
      const missing = [...new Set(keys)].filter((k) => !known.has(k));
      if (missing.length > 0) {
        const found: TitleIndex = new Map();
        const ascii = missing.filter((k) => ASCII.test(k));
        if (ascii.length > 0) for (const i of await repo.byTitleKeys(userId, ascii)) keep(found, i);
        if (ascii.length < missing.length) {
          if (!every) {
            every = new Map();
            for (const i of await repo.ideas(userId)) keep(every, i);
          }
          for (const k of missing) if (!ASCII.test(k) && every.has(k)) found.set(k, every.get(k)!);
        }
        for (const k of missing) known.set(k, found.get(k) ?? null);
      }
      const out: TitleIndex = new Map();
      for (const k of keys) if (known.get(k)) out.set(k, known.get(k)!);
      return out;
    };
  }

  /** What each link names, by key: `[[#42]]` idea number 42; a title the account's idea of that title. */
  async function resolve(userId: string, links: Wikilink[], titles: Titles = titlesOf(userId)): Promise<Map<string, LinkableIdea | null>> {
    const byTitle = await titles(links.filter((l) => l.number === null).map((l) => wikilinkKey(l.target)));
    const out = new Map<string, LinkableIdea | null>();
    for (const l of links) {
      const k = wikilinkKey(l.target);
      out.set(k, l.number !== null ? await repo.byNumber(userId, l.number) : byTitle.get(k) ?? null);
    }
    return out;
  }

  /** The index of the body's link targets (migrations/0023), as the parser folds them: a title's key, or `#42`. */
  const targetsOf = (links: Wikilink[]) => new Set(links.map((l) => wikilinkKey(l.target)));

  /**
   * Brings the relations the idea's links made in step with `body`: a link to a live idea that the pair has no
   * relation of the person's for (either way) makes one (`related`, created_by user, marked from_text); a relation a
   * link made whose link is gone is removed, unless the person changed it since (another type, a note). Relations the
   * person made otherwise are never touched. The body's targets go into the index. A `fresh` idea (just inserted)
   * has no targets and no relations yet: neither is read or cleared (two statements less a capture).
   */
  async function syncBody(userId: string, ideaId: number, body: string, titles: Titles, fresh = false): Promise<void> {
    const links = wikilinkTargets(body);
    const [, made] = fresh
      ? [await repo.addTargets(userId, ideaId, targetsOf(links)), []]
      : await together(repo.setTargets(userId, ideaId, targetsOf(links)), relations.madeBy(ideaId));
    if (links.length === 0 && made.length === 0) return;
    const wanted = new Set<number>();
    for (const i of (await resolve(userId, links, titles)).values()) if (i && i.id !== ideaId && !i.is_archived) wanted.add(i.id);
    const now = toStamp(deps.clock());
    for (const r of made) {
      if (wanted.delete(r.target_idea_id)) continue;
      if (r.relation_type === "related" && r.note === null) await relations.remove(r.id);
    }
    for (const target of wanted) {
      if (await relations.userRelationEitherWay(ideaId, target)) continue;
      if (await relations.insert(userId, ideaId, target, now)) await relations.dropSystemBetween(ideaId, target);
    }
  }

  /** Bodies written before the index (or by an import before the account's first capture) go in once per account. */
  async function ensureIndexed(userId: string, ready: boolean): Promise<void> {
    if (ready) return;
    for (const b of await repo.bodiesWithLinks(userId)) await repo.setTargets(userId, b.id, targetsOf(wikilinkTargets(b.body)));
    await repo.markReady(userId);
  }

  /**
   * The links other bodies wrote before the idea they name existed: `[[Title]]` of a title that now exists (captured
   * or renamed), `[[#N]]` of a number now taken. Each such body is synced again, so its link makes its relation now,
   * as Obsidian resolves a link once its note is created. The index finds them by key, without reading every body.
   */
  async function syncLinkersOf(userId: string, idea: Written, created: boolean, titles: Titles, ready: boolean): Promise<void> {
    await ensureIndexed(userId, ready);
    const key = wikilinkKey(idea.title);
    for (const c of await repo.linkersOf(userId, idea.id, key, created ? `#${idea.number}` : key)) await syncBody(userId, c.id, c.body, titles);
  }

  return {
    /** What each link of a body names (GET /ideas/:id/wikilinks). */
    resolve: (userId: string, links: Wikilink[]) => resolve(userId, links),

    /**
     * After the write path wrote an idea's text, inside the same transaction: the idea's own links, and, when the idea
     * is new (`created`) or its title changed (`renamed`), the links of other bodies that name it now. (`body`: only
     * the body changed.)
     */
    async textWritten(userId: string, idea: Written, change: "created" | "renamed" | "body"): Promise<void> {
      if (!store.inTx()) throw new Error("wikilinks: textWritten runs inside the write's transaction");
      const titles = titlesOf(userId);
      if (change === "body") return syncBody(userId, idea.id, idea.body, titles);
      // Whether the index is complete is read beside the body's own sync (one round trip on PostgreSQL).
      const [, ready] = await together(syncBody(userId, idea.id, idea.body, titles, change === "created"), repo.isReady(userId));
      await syncLinkersOf(userId, idea, change === "created", titles, ready);
    },

    /** An importer's body (imports make their own relations): only its targets go into the index, in its transaction. */
    recordLinks: (userId: string, ideaId: number, body: string) => repo.setTargets(userId, ideaId, targetsOf(wikilinkTargets(body))),
  };
}
export type LinkSync = ReturnType<typeof createLinkSync>;
