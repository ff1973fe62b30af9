// Folding one idea into another: POST /ideas/:id/merge, and the shared fold the duplicate merge reuses.
import { accountLock } from "../../db/store";
import type { Deps } from "../../deps";
import { badRequest } from "../../errors";
import { toStamp } from "../../lib/time";
import { createTagAttacher } from "../filing/tags";
import { createJobs, wakeWorker } from "../filing/jobs";
import { createIdeasRepo, type IdeaRow } from "./repo";
import { createIdeaEdits } from "../filing/repo";
import { createRelationsRepo } from "../relations/repo";
import { LIMITS } from "../../contract";
import { ideaNotFound } from "./service";
import { toIdea } from "./views";
import { notifyArchived } from "./effects";
import { createLinkSync } from "../wikilinks/sync";
import { createVersionRetention } from "../versions/retention";

export const MERGE_SEPARATOR = "\n\n---\n\n";

export interface FoldPlan {
  kept: IdeaRow;
  absorbed: IdeaRow;
  body: string;
  tags: string[];
}

export function createIdeaMerger(deps: Deps) {
  const { store } = deps;
  const repo = createIdeasRepo(store);
  const edits = createIdeaEdits(store);
  const tags = createTagAttacher(store);
  const jobs = createJobs(store);
  const relations = createRelationsRepo(store);
  const linkSync = createLinkSync(deps);
  const retention = createVersionRetention(deps);

  return {
    /**
     * Computes the merged body and tags, refusing a result no single idea could hold (stored ideas always stay within
     * the 50,000-char body and 20-tag limits, so exports re-import cleanly).
     */
    async plan(kept: IdeaRow, absorbed: IdeaRow): Promise<FoldPlan> {
      const body = kept.body + MERGE_SEPARATOR + absorbed.body;
      if (body.length > LIMITS.body) throw badRequest(`The merged body would exceed ${LIMITS.body} characters`);
      const keptTags = await tags.namesFor(kept.id);
      const union = [...keptTags, ...(await tags.namesFor(absorbed.id)).filter((n) => !keptTags.includes(n))];
      if (union.length > LIMITS.tags) throw badRequest(`The merged idea would have more than ${LIMITS.tags} tags`);
      return { kept, absorbed, body, tags: union };
    },

    /**
     * Writes a planned fold. `transferRelations` is the general merge (relations and child ideas move to the kept idea,
     * the absorbed one is shelved); without it (duplicate merge) the loser keeps its status and relations.
     * Run inside a transaction; call `finish` after it commits.
     */
    async apply(p: FoldPlan, userId: string, now: string, transferRelations: boolean): Promise<void> {
      const createdAt = p.absorbed.created_at < p.kept.created_at ? p.absorbed.created_at : p.kept.created_at;
      await edits.update(p.kept.id, {
        body: p.body,
        last_writer: "merge",
        created_at: createdAt,
        updated_at: now,
        // a kept idea whose parent was the absorbed one would otherwise point at itself
        ...(transferRelations && p.kept.parent_id === p.absorbed.id ? { parent_id: null } : {}),
      });
      await tags.replace(userId, p.kept.id, p.tags, now);
      if (transferRelations) {
        await relations.repoint(p.absorbed.id, p.kept.id);
        await edits.reparentChildren(p.absorbed.id, p.kept.id);
        await edits.update(p.absorbed.id, { status: "shelved" });
      }
      await edits.archive(p.absorbed.id, now);
      // The merged body's [[links]] make their relations in the merge's transaction (both merges come through here).
      await linkSync.textWritten(userId, { id: p.kept.id, number: p.kept.number, title: p.kept.title, body: p.body }, "body");
      await retention.afterWrite(p.kept.id);
      await jobs.fullPass(p.kept.id, now);
    },

    async finish(p: FoldPlan): Promise<void> {
      wakeWorker(deps);
      await notifyArchived(deps, [p.absorbed.id]);
    },

    /** POST /ideas/:id/merge — the idea in the path survives; the response is it, with the merged tags. */
    async merge(userId: string, keptId: number, absorbId: number) {
      if (keptId === absorbId) throw badRequest("Cannot merge an idea with itself");
      const kept = await repo.findOwned(userId, keptId);
      const absorbed = await repo.findOwned(userId, absorbId);
      if (!kept || !absorbed) throw ideaNotFound();
      if (kept.is_archived || absorbed.is_archived) throw badRequest("Cannot merge an archived idea");
      const p = await this.plan(kept, absorbed);
      await store.tx(() => this.apply(p, userId, toStamp(deps.clock()), true), { immediate: true, lock: accountLock(userId) });
      await this.finish(p);
      return toIdea((await repo.findOwned(userId, keptId))!, await tags.namesFor(keptId));
    },
  };
}
