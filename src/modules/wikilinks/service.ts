// Wikilinks: the relations a body's [[links]] make, kept in step with the text, and what each link names (for the page).
import type { Deps } from "../../deps";
import { toStamp } from "../../lib/time";
import { wikilinkKey, wikilinkTargets, type Wikilink } from "../../contract";
import { ideaNotFound } from "../ideas/service";
import { createWikilinksRepo, type LinkableIdea } from "./repo";
import { createTextRelationsRepo } from "../relations/repo";

const brief = (i: LinkableIdea) => ({ id: i.id, number: i.number, title: i.title });

export function createWikilinks(deps: Deps) {
  const repo = createWikilinksRepo(deps.store);
  const relations = createTextRelationsRepo(deps.store);

  /**
   * What each link names, by key: `[[#42]]` idea number 42; a title the account's idea of that title, case-insensitive.
   * Two ideas of one title: a live one before an archived one, then the oldest (the lowest number), so capturing a
   * second idea of a title never moves the links that already point at the first.
   */
  async function resolve(userId: string, links: Wikilink[]): Promise<Map<string, LinkableIdea | null>> {
    const byTitle = new Map<string, LinkableIdea>();
    if (links.some((l) => l.number === null)) {
      for (const i of await repo.ideas(userId)) {
        const k = wikilinkKey(i.title);
        const held = byTitle.get(k);
        if (!held || (held.is_archived && !i.is_archived)) byTitle.set(k, i);
      }
    }
    const out = new Map<string, LinkableIdea | null>();
    for (const l of links) {
      const k = wikilinkKey(l.target);
      out.set(k, l.number !== null ? await repo.byNumber(userId, l.number) : byTitle.get(k) ?? null);
    }
    return out;
  }

  /**
   * Brings the relations the idea's links made in step with `body`: a link to a live idea that the pair has no
   * relation of the person's for (either way) makes one (`related`, created_by user, marked from_text); a relation a
   * link made whose link is gone is removed, unless the person changed it since (another type, a note). Relations
   * the person made otherwise are never touched. Called after every capture and every change of a body.
   */
  async function sync(userId: string, ideaId: number, body: string): Promise<void> {
    const links = wikilinkTargets(body);
    const made = await relations.madeBy(ideaId);
    if (links.length === 0 && made.length === 0) return;
    const wanted = new Set<number>();
    for (const i of (await resolve(userId, links)).values()) if (i && i.id !== ideaId && !i.is_archived) wanted.add(i.id);
    const now = toStamp(deps.clock());
    await deps.store.tx(async () => {
      for (const r of made) {
        if (wanted.delete(r.target_idea_id)) continue;
        if (r.relation_type === "related" && r.note === null) await relations.remove(r.id);
      }
      for (const target of wanted) {
        if (await relations.userRelationEitherWay(ideaId, target)) continue;
        if (await relations.insert(userId, ideaId, target, now)) await relations.dropSystemBetween(ideaId, target);
      }
    });
  }

  return {
    sync,

    /**
     * After a write that may have changed a body: syncs the idea's links and hands the idea back, so a caller writes
     * `await wikilinks.after(userId, ideas.create(…))`. Every writer of a body calls it (POST and PATCH /ideas, the
     * idea tools of MCP and the agent, e-mail capture, restore); imports make their own relations (import/), and a merge's body is synced as the survivor's.
     */
    async after<T extends { id: number; body: string }>(userId: string, write: T | Promise<T>): Promise<T> {
      const idea = await write;
      await sync(userId, idea.id, idea.body);
      return idea;
    },

    /** GET /ideas/:id/wikilinks: each distinct link of the body with the idea it names (or null), and the backlinks. */
    async view(userId: string, ideaId: number) {
      const body = await repo.bodyOf(userId, ideaId);
      if (body === null) throw ideaNotFound();
      const links = wikilinkTargets(body);
      const resolved = await resolve(userId, links);
      return {
        links: links.map((l) => {
          const i = resolved.get(wikilinkKey(l.target));
          return { target: l.target, idea: i ? brief(i) : null };
        }),
        linked_from: await relations.backlinks(ideaId),
      };
    },
  };
}
export type Wikilinks = ReturnType<typeof createWikilinks>;
