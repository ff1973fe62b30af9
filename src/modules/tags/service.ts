// Tag rules: the counted list, explicit create, rename/recolour, delete (detaching from ideas), similar tags.
import { accountLock } from "../../db/store";
import type { Deps } from "../../deps";
import { badRequest, conflict, fieldError, internal, notFound } from "../../errors";
import { toStamp } from "../../lib/time";
import { clampLimit } from "../../http/params";
import { createJobs, wakeWorker } from "../filing/jobs";
import { createTagAttacher } from "../filing/tags";
import { createTagsRepo, type TagRow } from "./repo";
import type { CreateTagBody, SimilarQuery, UpdateTagBody } from "./model";

export const SIMILAR_DEFAULT_LIMIT = 5;
export const SIMILAR_MAX_LIMIT = 20;

const tagNotFound = () => notFound("Tag not found");
const isUniqueViolation = (e: unknown) => e instanceof Error && /UNIQUE constraint failed/.test(e.message);

function cleanName(name: string): string {
  const out = name.trim();
  if (out === "") throw fieldError("name", "name must not be blank");
  return out;
}

export function createTagsService(deps: Deps) {
  const { store } = deps;
  const repo = createTagsRepo(store);
  const jobs = createJobs(store);
  const attacher = createTagAttacher(store);
  const stamp = () => toStamp(deps.clock());

  /** Tag changes are idea metadata changes: every live idea carrying the tag gets a light update. */
  async function queueLightUpdates(tagId: number, now: string): Promise<boolean> {
    const live = (await repo.ideasOfTag(tagId)).filter((r) => !r.is_archived);
    for (const r of live) await jobs.metadataUpdate(r.idea_id, now);
    return live.length > 0;
  }

  return {
    list: async (userId: string) => ({ tags: await repo.listWithCounts(userId) }),

    async create(userId: string, body: CreateTagBody): Promise<{ tag: TagRow }> {
      const name = cleanName(body.name);
      if (await repo.findByName(userId, name)) throw conflict("Tag name already exists");
      const now = stamp();
      let id: number;
      try {
        id = await store.tx(() => attacher.create(userId, name, body.color ?? null, now, now), { immediate: true, lock: accountLock(userId) });
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict("Tag name already exists"); // lost a race with a concurrent create
        throw e;
      }
      wakeWorker(deps);
      return { tag: (await repo.findById(userId, id))! };
    },

    async update(userId: string, id: number, body: UpdateTagBody): Promise<{ tag: TagRow }> {
      const tag = await repo.findById(userId, id);
      if (!tag) throw tagNotFound();
      const fields: { name?: string; color?: string | null } = {};
      if (body.name !== undefined && cleanName(body.name) !== tag.name) fields.name = cleanName(body.name);
      if (body.color !== undefined && body.color !== tag.color) fields.color = body.color;
      if (Object.keys(fields).length === 0) return { tag };
      let queued = false;
      try {
        // Under the account's lock, as every writer of its tag set: a capture naming the old or the new name runs
        // wholly before or after the rename (its list entry then says the tag's name), never half across it.
        await store.tx(async () => {
          await repo.update(userId, id, fields);
          // A rename changes the tag lists of ideas; the embedding catches up in the background (old one used until then).
          if (fields.name !== undefined) {
            queued = await queueLightUpdates(id, stamp());
            await jobs.tagEmbedding(id, stamp());
          }
        }, { immediate: true, lock: accountLock(userId) });
      } catch (e) {
        // The spec keeps a rename onto an existing name as a 500 (not a 409); answer it without logging a crash.
        if (isUniqueViolation(e)) throw internal();
        throw e;
      }
      if (queued || fields.name !== undefined) wakeWorker(deps);
      return { tag: (await repo.findById(userId, id))! };
    },

    async remove(userId: string, id: number) {
      const tag = await repo.findById(userId, id);
      if (!tag) throw tagNotFound();
      const queued = await store.tx(async () => {
        const queued = await queueLightUpdates(id, stamp());
        await repo.delete(userId, id); // idea_tags rows go with it (ON DELETE CASCADE)
        return queued;
      }, { immediate: true, lock: accountLock(userId) });
      if (queued) wakeWorker(deps);
      return { success: true as const };
    },

    async similar(userId: string, q: SimilarQuery) {
      if (q.tag === undefined || q.tag.trim() === "") throw badRequest('Missing "tag" query parameter');
      const name = q.tag.trim();
      const tag = await repo.findByName(userId, name);
      if (!tag) throw notFound(`Tag "${name}" not found`);
      if (tag.vectorize_id === null) return { similar: [], message: "Tag has no embedding yet" };
      const limit = clampLimit(q.limit, SIMILAR_DEFAULT_LIMIT, SIMILAR_MAX_LIMIT);
      await deps.engines.started; // a server that is still loading its model answers once it has
      const engine = deps.engines.tagSimilar;
      if (!engine) return { similar: [] }; // no model loaded in this process
      const found = await engine(userId, tag.id, limit);
      return { similar: found.slice(0, limit).map((s) => ({ name: s.name, idea_count: s.idea_count, similarity: s.similarity })) };
    },
  };
}
