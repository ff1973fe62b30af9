// Idea rules: capture (Free cap, numbering, queueing), the filtered list, detail, partial update and archive.
import type { Deps } from "../../deps";
import type { AuthContext } from "../../auth/credentials";
import { FREE_IDEA_LIMIT } from "../../auth/plans";
import { AppError, fieldError, notFound } from "../../errors";
import { enqueueJob } from "../../jobs/queue";
import { toStamp } from "../../lib/time";
import { createTagAttacher, normalizeTagNames } from "../tags/attach";
import { createLinksRepo } from "../links/repo";
import { createIdeasRepo, type IdeaChanges, type IdeaRow } from "./repo";
import { createRelationsRepo } from "../relations/repo";
import { RELATION_TYPES, MAX_URL, type CreateIdeaBody, type ListIdeasQuery, type UpdateIdeaBody } from "./model";
import { clampLimit, parseOffset } from "../../http/params";
import { toCreatedIdea, toIdea, type IdeaView } from "./views";
import { notifyArchived, wakeWorker } from "./effects";

export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;

export const ideaNotFound = () => notFound("Idea not found");

export function createIdeasService(deps: Deps) {
  const { db } = deps;
  const repo = createIdeasRepo(db);
  const tags = createTagAttacher(db);
  const links = createLinksRepo(db);
  const relations = createRelationsRepo(db);
  const stamp = () => toStamp(deps.clock());

  function ideaLimitReached(count: number): AppError {
    return new AppError(403, {
      error: "idea_limit_reached",
      message: `The Free plan holds up to ${FREE_IDEA_LIMIT} active ideas. Archive an idea or upgrade to Pro to capture more.`,
      currentCount: count,
      limit: FREE_IDEA_LIMIT,
      upgradeUrl: deps.config.upgrade_url,
      featureRequestUrl: deps.config.feature_request_url,
    });
  }

  function mustOwn(userId: string, id: number): IdeaRow {
    const row = repo.findOwned(userId, id);
    if (!row) throw ideaNotFound();
    return row;
  }

  /** A parent must be a live idea of the same account, and must not make the idea its own ancestor. */
  function checkParent(userId: string, parentId: number, childId: number | null): void {
    const parent = repo.findOwned(userId, parentId);
    if (!parent || parent.is_archived) throw fieldError("parent_id", "Parent idea not found");
    if (childId !== null && repo.isSelfOrAncestor(parentId, childId)) {
      throw fieldError("parent_id", childId === parentId ? "An idea cannot be its own parent" : "parent_id would create a circular parent chain");
    }
  }

  function checkSourceUrl(url: string): void {
    if (url.length > MAX_URL || !URL.canParse(url)) throw fieldError("source_url", "source_url must be a valid URL");
  }

  function cleanTitle(title: string): string {
    const out = title.trim();
    if (out === "") throw fieldError("title", "title must not be blank");
    return out;
  }

  function view(row: IdeaRow) {
    return toIdea(row, tags.namesFor(row.id));
  }

  function parseTypes(raw: string | undefined): string[] | null {
    if (raw === undefined) return null;
    const types = [...new Set(raw.split(",").map((s) => s.trim()).filter((s) => s !== ""))];
    if (types.length === 0) return null;
    const unknown = types.filter((s) => !(RELATION_TYPES as readonly string[]).includes(s));
    if (unknown.length > 0) {
      throw fieldError("connection_types", `Unknown relation type: ${unknown.join(", ")} (use ${RELATION_TYPES.join(", ")})`);
    }
    return types;
  }

  /** The list's answer as JSON text, written by SQLite from each idea's kept entry (see repo.listPage). */
  function listJson(userId: string, q: ListIdeasQuery): string {
    const limit = clampLimit(q.limit, LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT);
    const tag = q.tag !== undefined && q.tag !== "" ? q.tag : null;
    // tag and connection_types do not combine: tag wins, so the types are not even parsed then.
    const types = tag === null ? parseTypes(q.connection_types) : null;
    const status = q.status ?? null;
    return repo.listPage({ userId, status, tag, types, limit, offset: parseOffset(q.offset) });
  }

  return {
    mustOwn,
    view,

    /** The Free cap, checked before the body is validated (see routes) and again inside the insert transaction. */
    assertCanCapture(auth: Pick<AuthContext, "plan" | "user">): void {
      if (auth.plan === "pro") return;
      const count = repo.countActive(auth.user.id);
      if (count >= FREE_IDEA_LIMIT) throw ideaLimitReached(count);
    },

    create(auth: Pick<AuthContext, "plan" | "user">, body: CreateIdeaBody) {
      const userId = auth.user.id;
      const title = cleanTitle(body.title);
      const status = body.status ?? "captured";
      const source = body.source ?? "api";
      const tagNames = normalizeTagNames(body.tags ?? [], "tags");
      const sourceUrl = body.source_url ?? null;
      if (sourceUrl !== null) checkSourceUrl(sourceUrl);
      const parentId = body.parent_id ?? null;
      const now = stamp();
      const id = db.transaction(() => {
        this.assertCanCapture(auth);
        if (parentId !== null) checkParent(userId, parentId, null);
        const id = repo.insert({
          user_id: userId,
          number: repo.nextNumber(userId),
          title,
          body: body.body ?? "",
          status,
          source,
          source_url: sourceUrl,
          parent_id: parentId,
        }, now);
        tags.replace(userId, id, tagNames, now);
        enqueueJob(db, "full", id, now);
        return id;
      })();
      wakeWorker(deps);
      return toCreatedIdea(repo.findOwned(userId, id)!, tags.namesFor(id));
    },

    listJson,

    /** The same answer as objects (the MCP tool). */
    list: (userId: string, q: ListIdeasQuery): { ideas: IdeaView[]; has_more: boolean } => JSON.parse(listJson(userId, q)),

    get(userId: string, id: number) {
      const row = mustOwn(userId, id);
      return { ...view(row), links: links.listForIdea(id), relations: relations.listTouching(id) };
    },

    update(userId: string, id: number, body: UpdateIdeaBody) {
      const row = mustOwn(userId, id);
      const changes: IdeaChanges = {};
      if (body.title !== undefined && cleanTitle(body.title) !== row.title) changes.title = cleanTitle(body.title);
      if (body.body !== undefined && body.body !== row.body) changes.body = body.body;
      if (body.status !== undefined && body.status !== row.status) changes.status = body.status;
      if (body.parent_id !== undefined && body.parent_id !== row.parent_id) {
        if (body.parent_id !== null) checkParent(userId, body.parent_id, id);
        changes.parent_id = body.parent_id;
      }
      let newTags: string[] | null = null;
      if (body.tags !== undefined) {
        const wanted = normalizeTagNames(body.tags, "tags");
        const current = tags.namesFor(id);
        const same = wanted.length === current.length && wanted.every((n) => current.includes(n));
        if (!same) newTags = wanted;
      }
      if (Object.keys(changes).length === 0 && newTags === null) return view(row); // nothing changed: no write, no job

      const reembed = "title" in changes || "body" in changes || "parent_id" in changes;
      const now = stamp();
      db.transaction(() => {
        repo.update(id, { ...changes, updated_at: now });
        if (newTags !== null) tags.replace(userId, id, newTags, now);
        // Archived ideas keep their edits but never go back into the pipeline (that would re-index them).
        if (!row.is_archived) enqueueJob(db, reembed ? "full" : "light", id, now);
      })();
      if (!row.is_archived) wakeWorker(deps);
      return view(mustOwn(userId, id));
    },

    archive(userId: string, id: number) {
      mustOwn(userId, id);
      const changed = repo.archive(id, stamp());
      if (changed) notifyArchived(deps, [id]);
      return { success: true as const };
    },
  };
}
export type IdeasService = ReturnType<typeof createIdeasService>;
