// Link rules: links hang off one of the caller's ideas (archived ones included, as they stay readable).
import type { Deps } from "../../deps";
import { toStamp } from "../../lib/time";
import { createIdeasRepo } from "../ideas/repo";
import { ideaNotFound } from "../ideas/service";
import { createLinksRepo } from "./repo";
import type { CreateLinkBody } from "./model";

export function createLinksService(deps: Deps) {
  const ideas = createIdeasRepo(deps.db);
  const repo = createLinksRepo(deps.db);

  function mustOwnIdea(userId: string, ideaId: number): void {
    if (!ideas.findOwned(userId, ideaId)) throw ideaNotFound();
  }

  return {
    list(userId: string, ideaId: number) {
      mustOwnIdea(userId, ideaId);
      return { links: repo.listForIdea(ideaId) };
    },

    create(userId: string, ideaId: number, body: CreateLinkBody) {
      mustOwnIdea(userId, ideaId);
      // The URL is stored as given: never fetched, never normalised; it only has to parse.
      const linkType = body.link_type ?? "url";
      return { link: repo.insert(ideaId, body.url, body.title ?? null, linkType, toStamp(deps.clock())) };
    },

    /** Always succeeds; deletes only a link of that idea, and only when the idea is the caller's. */
    remove(userId: string, ideaId: number, linkId: number) {
      if (ideas.findOwned(userId, ideaId)) repo.deleteFromIdea(ideaId, linkId);
      return { success: true as const };
    },
  };
}
