// Link rules: links hang off one of the caller's ideas (archived ones included, as they stay readable).
import type { Deps } from "../../deps";
import { toStamp } from "../../lib/time";
import { createIdeasRepo } from "../ideas/repo";
import { ideaNotFound } from "../ideas/service";
import { createLinksRepo } from "./repo";
import type { CreateLinkBody } from "./model";

export function createLinksService(deps: Deps) {
  const ideas = createIdeasRepo(deps.store);
  const repo = createLinksRepo(deps.store);

  async function mustOwnIdea(userId: string, ideaId: number): Promise<void> {
    if (!(await ideas.findOwned(userId, ideaId))) throw ideaNotFound();
  }

  return {
    async list(userId: string, ideaId: number) {
      await mustOwnIdea(userId, ideaId);
      return { links: await repo.listForIdea(ideaId) };
    },

    async create(userId: string, ideaId: number, body: CreateLinkBody) {
      await mustOwnIdea(userId, ideaId);
      // The URL is stored as given: never fetched, never normalised; it only has to parse.
      const linkType = body.link_type ?? "url";
      return { link: await repo.insert(ideaId, body.url, body.title ?? null, linkType, toStamp(deps.clock())) };
    },

    /** Always succeeds; deletes only a link of that idea, and only when the idea is the caller's. */
    async remove(userId: string, ideaId: number, linkId: number) {
      if (await ideas.findOwned(userId, ideaId)) await repo.deleteFromIdea(ideaId, linkId);
      return { success: true as const };
    },
  };
}
