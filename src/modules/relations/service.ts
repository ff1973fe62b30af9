// Relation rules: ownership, the archive rule, uniqueness per creator, the cycle walk, note truncation, bulk creation.
import { accountLock } from "../../db/store";
import type { Deps } from "../../deps";
import { AppError, badRequest, conflict, fieldError, notFound } from "../../errors";
import { toStamp } from "../../lib/time";
import { ideaId, relationId } from "../../http/params";
import { createRelationsRepo } from "./repo";
import { ALWAYS_REFUSED, FORCEABLE, cycleMessage, findCyclePath } from "./cycle";
import { LIMITS, USER_RELATION_TYPES, type RelationCreator, type RelationType } from "../../contract";
import { TYPE_MESSAGE, type CreateRelationBody, type NewRelation, type UpdateRelationBody } from "./model";

/** Silent truncation to 500 characters, counted in code points so an emoji is never cut in half. */
export function truncateNote(note: string | null | undefined): string | null {
  if (note === null || note === undefined) return null;
  if (note.length <= LIMITS.note) return note;
  return Array.from(note).slice(0, LIMITS.note).join("");
}

const isUserType = (v: string) => (USER_RELATION_TYPES as readonly string[]).includes(v);

export function createRelationsService(deps: Deps) {
  const repo = createRelationsRepo(deps.store);

  /** Archived ideas are outside every relation: a new relation may not touch one. */
  async function requireLiveIdea(userId: string, id: number): Promise<void> {
    const idea = await repo.findIdea(userId, id);
    if (!idea) throw notFound("Idea not found");
    if (idea.is_archived) throw badRequest(`Idea #${id} is archived and cannot be related`);
  }

  async function checkCycle(source: number, target: number, type: string, force: boolean, exceptId = 0): Promise<void> {
    const forceable = FORCEABLE.has(type);
    if (!ALWAYS_REFUSED.has(type) && !(forceable && !force)) return;
    const chain = await findCyclePath((id) => repo.nextHops(id, type, exceptId), source, target);
    if (chain) throw badRequest(cycleMessage(chain, forceable));
  }

  /** Every rule for one new relation; throws the spec's error, or inserts and returns it. */
  async function createOne(userId: string, link: NewRelation, force: boolean) {
    if (!isUserType(link.relation_type)) throw fieldError("relation_type", TYPE_MESSAGE);
    if (link.source_idea_id === link.target_idea_id) throw badRequest("Cannot relate an idea to itself");
    await requireLiveIdea(userId, link.source_idea_id);
    await requireLiveIdea(userId, link.target_idea_id);
    if (await repo.hasUserPair(link.source_idea_id, link.target_idea_id)) throw conflict("Relation already exists");
    await checkCycle(link.source_idea_id, link.target_idea_id, link.relation_type, force);
    const note = truncateNote(link.note);
    let id: number;
    try {
      id = await repo.insertUserRelation(userId, { ...link, note }, toStamp(deps.clock()));
    } catch (e) {
      // Another process (the CLI) may have written the same pair since the check above.
      if ((e as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") throw conflict("Relation already exists");
      throw e;
    }
    return { id, source_idea_id: link.source_idea_id, target_idea_id: link.target_idea_id, relation_type: link.relation_type, note };
  }

  const errorText = (e: AppError) =>
    typeof e.body.error === "string" ? e.body.error : Object.values(e.body.error as Record<string, string[]>).flat().join("; ");

  return {
    async list(userId: string, rawId: string) {
      const id = ideaId(rawId);
      const idea = await repo.findIdea(userId, id);
      if (!idea) throw notFound("Idea not found");
      // An archived idea is readable, but every relation touching it is hidden.
      if (idea.is_archived) return { outgoing: [], incoming: [] };
      return { outgoing: await repo.listOutgoing(id), incoming: await repo.listIncoming(id) };
    },

    async create(userId: string, body: CreateRelationBody, force: boolean) {
      if (body.links) return this.createBulk(userId, body.links, force);
      if (body.source_idea_id === undefined) throw fieldError("source_idea_id", "source_idea_id is required");
      if (body.target_idea_id === undefined) throw fieldError("target_idea_id", "target_idea_id is required");
      const link = {
        source_idea_id: body.source_idea_id,
        target_idea_id: body.target_idea_id,
        relation_type: body.relation_type ?? "related",
        note: body.note ?? null,
      };
      return { relation: await deps.store.tx(() => createOne(userId, link, force), { immediate: true, lock: accountLock(userId) }) };
    },

    /** Each link succeeds or fails on its own; later links see the ones created before them (cycles included). */
    async createBulk(userId: string, links: NonNullable<CreateRelationBody["links"]>, force: boolean) {
      const one = async (l: (typeof links)[number]) => {
        const link = { source_idea_id: l.source_idea_id, target_idea_id: l.target_idea_id, relation_type: l.relation_type ?? "related", note: l.note ?? null };
        const base = { source_idea_id: link.source_idea_id, target_idea_id: link.target_idea_id, relation_type: link.relation_type };
        try {
          return { ...base, status: "created" as const, relation_id: (await createOne(userId, link, force)).id };
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          return { ...base, status: "error" as const, error: errorText(e) };
        }
      };
      const results = await deps.store.tx(async () => {
        const out: Array<Awaited<ReturnType<typeof one>>> = [];
        for (const l of links) out.push(await one(l)); // in order: later links see the earlier ones
        return out;
      }, { immediate: true, lock: accountLock(userId) });
      const linked = results.filter((r) => r.status === "created").length;
      return { linked, errors: results.length - linked, results };
    },

    /** A type change re-runs the cycle rule for the new type (force applies to supersedes, as on creation). */
    async update(userId: string, rawId: string, body: UpdateRelationBody, force: boolean) {
      const id = relationId(rawId);
      if (body.relation_type === undefined && body.note === undefined) throw badRequest("Nothing to update");
      return deps.store.tx(async () => {
        const rel = await repo.findForUser(userId, id);
        // A relation touching an archived idea is hidden everywhere, so it cannot be edited either.
        if (!rel || (await repo.touchesArchived(rel))) throw notFound("Relation not found");
        const fields: { relation_type?: string; note?: string | null } = {};
        if (body.relation_type !== undefined && body.relation_type !== rel.relation_type) {
          await checkCycle(rel.source_idea_id, rel.target_idea_id, body.relation_type, force, rel.id);
          fields.relation_type = body.relation_type;
        }
        if (body.note !== undefined) fields.note = truncateNote(body.note);
        await repo.update(id, fields);
        return { relation: toRelation((await repo.findForUser(userId, id))!) };
      }, { immediate: true, lock: accountLock(userId) });
    },

    async remove(userId: string, rawId: string) {
      const id = relationId(rawId);
      await deps.store.tx(async () => {
        const rel = await repo.findForUser(userId, id);
        // Deleting an automatic `related` link rejects the connection: the background pass must not bring it back.
        if (rel?.created_by === "system" && rel.relation_type === "related") {
          await repo.rejectPair(userId, rel.source_idea_id, rel.target_idea_id, toStamp(deps.clock()));
        }
        await repo.deleteForUser(userId, id);
      }, { immediate: true, lock: accountLock(userId) });
      return { success: true as const };
    },
  };
}

function toRelation(r: { id: number; source_idea_id: number; target_idea_id: number; relation_type: string; score: number | null; note: string | null; created_by: string; created_at: string }) {
  return {
    id: r.id,
    source_idea_id: r.source_idea_id,
    target_idea_id: r.target_idea_id,
    // Stored rows hold only the vocabulary's values (the routes and the pipeline write nothing else).
    relation_type: r.relation_type as RelationType,
    score: r.score,
    note: r.note,
    created_by: r.created_by as RelationCreator,
    created_at: r.created_at,
  };
}
