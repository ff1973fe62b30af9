// PATCH /ideas/bulk: one status/tag change over up to 50 ideas, reported per id instead of failing the request.
import { accountLock } from "../../db/store";
import type { Deps } from "../../deps";
import { badRequest } from "../../errors";
import { toStamp } from "../../lib/time";
import { createTagAttacher, normalizeTagNames } from "../filing/tags";
import { createJobs, wakeWorker } from "../filing/jobs";
import { createIdeasRepo } from "./repo";
import { createIdeaEdits } from "../filing/repo";
import { LIMITS } from "../../contract";
import type { BulkUpdateBody } from "./model";

type BulkResult = { id: number; status: "updated" } | { id: number; status: "error"; error: string };

export function createBulkIdeasService(deps: Deps) {
  const { store } = deps;
  const repo = createIdeasRepo(store);
  const edits = createIdeaEdits(store);
  const tags = createTagAttacher(store);
  const jobs = createJobs(store);

  return {
    async update(userId: string, body: BulkUpdateBody) {
      if (body.tags !== undefined && (body.add_tags !== undefined || body.remove_tags !== undefined)) {
        throw badRequest("tags cannot be combined with add_tags or remove_tags");
      }
      if (body.status === undefined && body.tags === undefined && body.add_tags === undefined && body.remove_tags === undefined) {
        throw badRequest("Nothing to update: give at least one of status, tags, add_tags, remove_tags");
      }
      const status = body.status;
      const replace = body.tags !== undefined ? normalizeTagNames(body.tags, "tags") : null;
      const add = normalizeTagNames(body.add_tags ?? [], "add_tags");
      const remove = normalizeTagNames(body.remove_tags ?? [], "remove_tags");
      const ids = [...new Set(body.ids)]; // one result per distinct id
      const now = toStamp(deps.clock());
      let queued = false;

      /** One id's change, reported instead of thrown; inside the request's transaction. */
      const updateOne = async (id: number): Promise<BulkResult> => {
        const row = await repo.findOwned(userId, id);
        if (!row) return { id, status: "error", error: "Idea not found" };
        const current = await tags.namesFor(id);
        // add first, then remove: a name in both lists ends up removed.
        const next = replace ?? [...current, ...add.filter((n) => !current.includes(n))].filter((n) => !remove.includes(n));
        if (next.length > LIMITS.tags) return { id, status: "error", error: `An idea can have at most ${LIMITS.tags} tags` };
        const tagsChanged = next.length !== current.length || next.some((n) => !current.includes(n));
        const statusChanged = status !== undefined && status !== row.status;
        if (!tagsChanged && !statusChanged) return { id, status: "updated" };
        await edits.update(id, statusChanged ? { status, updated_at: now } : { updated_at: now });
        if (tagsChanged) await tags.replace(userId, id, next, now);
        if (!row.is_archived) {
          await jobs.metadataUpdate(id, now);
          queued = true;
        }
        return { id, status: "updated" };
      };

      // Under the account's lock: tag names are looked up, then created (the account's tag set).
      const results = await store.tx(async () => {
        const out: BulkResult[] = [];
        for (const id of ids) out.push(await updateOne(id));
        return out;
      }, { immediate: true, lock: accountLock(userId) });
      if (queued) wakeWorker(deps);
      const updated = results.filter((r) => r.status === "updated").length;
      return { updated, errors: results.length - updated, results };
    },
  };
}
