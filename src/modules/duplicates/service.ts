// Duplicate rules: the Pro-only pending listing, dismiss, and the merge that folds the older idea into the newer one.
import type { Deps } from "../../deps";
import type { Plan } from "../../auth/plans";
import type { DuplicateSummary } from "../../contract/responses";
import { fieldError, notFound } from "../../errors";
import { toStamp } from "../../lib/time";
import { createIdeasRepo } from "../ideas/repo";
import { createIdeaMerger } from "../ideas/service-merge";
import { MAX_IDEA_IDS } from "./model";
import { createDuplicatesRepo } from "./repo";

const unresolvable = () => notFound("Duplicate not found or already resolved");

export function createDuplicatesService(deps: Deps) {
  const repo = createDuplicatesRepo(deps.store);
  const ideas = createIdeasRepo(deps.store);
  const merger = createIdeaMerger(deps);

  return {
    /**
     * Free accounts always get an empty list, without an error (detections may still be stored for them). With
     * `ideaIds`, only the detections that pair one of those ideas (docs/ideas.md, "Duplicates of given ideas").
     */
    async list(userId: string, plan: Plan, ideaIds?: number[]) {
      if (plan !== "pro") return { duplicates: [] };
      return { duplicates: ideaIds === undefined ? await repo.listPending(userId) : ideaIds.length ? await repo.listPendingFor(userId, ideaIds) : [] };
    },

    /** How many `list` gives without `ideaIds` (the review queue's count), without building the list. */
    async count(userId: string, plan: Plan): Promise<number> {
      return plan === "pro" ? repo.countPending(userId) : 0;
    },

    /**
     * What a badge needs (docs/ideas.md, "Duplicate summary of given ideas"): per given idea with pending detections,
     * their count and the closest one. `idea_ids` is required here (the whole account's summary is not offered); Free
     * accounts get an empty list, as from the listing.
     */
    async summarize(userId: string, plan: Plan, ideaIds: number[] | undefined): Promise<{ summaries: DuplicateSummary[] }> {
      if (ideaIds === undefined) throw fieldError("idea_ids", `comma-separated idea ids, at most ${MAX_IDEA_IDS}`);
      if (plan !== "pro" || ideaIds.length === 0) return { summaries: [] };
      return {
        summaries: (await repo.summarizePendingFor(userId, ideaIds)).map((r) => ({
          idea_id: r.idea_id,
          pending: r.pending,
          closest: { duplicate_id: r.duplicate_id, idea_id: r.other_id, number: r.number, title: r.title, similarity_score: r.similarity_score, created_at: r.created_at },
        })),
      };
    },

    async dismiss(userId: string, id: number) {
      if (!(await repo.findActionable(userId, id))) throw unresolvable();
      await repo.resolve(id, "dismissed", toStamp(deps.clock()));
      return { success: true as const };
    },

    /** The idea whose capture triggered the detection survives; the older one is archived with its status unchanged. */
    async merge(userId: string, id: number) {
      const d = await repo.findActionable(userId, id);
      if (!d) throw unresolvable();
      const p = await merger.plan((await ideas.findOwned(userId, d.idea_id))!, (await ideas.findOwned(userId, d.duplicate_of_id))!);
      const now = toStamp(deps.clock());
      await deps.store.tx(async () => {
        await merger.apply(p, userId, now, false);
        await repo.resolve(id, "merged", now);
      });
      await merger.finish(p);
      return { success: true as const };
    },
  };
}
