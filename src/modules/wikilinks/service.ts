// Wikilinks for reading: what each [[link]] of an idea's body names, and the ideas whose links point at it (the page).
// The relations links make are kept in step by the write path itself (sync.ts), in the transaction of each write.
import type { Deps } from "../../deps";
import { wikilinkKey, wikilinkTargets } from "../../contract";
import { ideaNotFound } from "../ideas/service";
import { createWikilinksRepo, type LinkableIdea } from "./repo";
import { createTextRelationsRepo } from "../relations/repo";
import { createLinkSync } from "./sync";

const brief = (i: LinkableIdea) => ({ id: i.id, number: i.number, title: i.title });

export function createWikilinks(deps: Deps) {
  const repo = createWikilinksRepo(deps.store);
  const relations = createTextRelationsRepo(deps.store);
  const links = createLinkSync(deps);

  return {
    /** GET /ideas/:id/wikilinks: each distinct link of the body with the idea it names (or null), and the backlinks. */
    async view(userId: string, ideaId: number) {
      const body = await repo.bodyOf(userId, ideaId);
      if (body === null) throw ideaNotFound();
      const found = wikilinkTargets(body);
      const resolved = await links.resolve(userId, found);
      return {
        links: found.map((l) => {
          const i = resolved.get(wikilinkKey(l.target));
          return { target: l.target, idea: i ? brief(i) : null };
        }),
        linked_from: await relations.backlinks(ideaId),
      };
    },
  };
}
export type Wikilinks = ReturnType<typeof createWikilinks>;
