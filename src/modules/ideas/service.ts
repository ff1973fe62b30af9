// Idea rules: capture (validated here, filed by the write path), the filtered list, detail, partial update and archive.
import type { Deps } from "../../deps";
import { fieldError, notFound } from "../../errors";
import { toStamp } from "../../lib/time";
import { accountLock } from "../../db/store";
import { createFiling, type Filer } from "../filing/write";
import { createTagAttacher, normalizeTagNames } from "../filing/tags";
import { createLinksRepo } from "../links/repo";
import { createIdeasRepo, pageKey, type IdeaFilter, type IdeaRow } from "./repo";
import { createIdeaEdits, type IdeaChanges } from "../filing/repo";
import type { AuthContext } from "../../auth/credentials";
import type { Ride } from "../../auth/credential-repo";
import { createRelationsRepo } from "../relations/repo";
import { IDEA_STATUSES, LIMITS, RELATION_TYPES } from "../../contract";
import { type CreateIdeaBody, type ListIdeasQuery, type UpdateIdeaBody } from "./model";
import { clampLimit, parseOffset } from "../../http/params";
import { toCreatedIdea, toIdea, type IdeaView } from "./views";
import { notifyArchived } from "./effects";
import { createLinkSync } from "../wikilinks/sync";
import { createVersionRetention } from "../versions/retention";

export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;

export const ideaNotFound = () => notFound("Idea not found");

export function createIdeasService(deps: Deps) {
  const { store } = deps;
  const repo = createIdeasRepo(store);
  const edits = createIdeaEdits(store);
  const tags = createTagAttacher(store);
  const links = createLinksRepo(store);
  const relations = createRelationsRepo(store);
  const filing = createFiling(deps);
  const linkSync = createLinkSync(deps);
  const retention = createVersionRetention(deps);
  const stamp = () => toStamp(deps.clock());

  async function mustOwn(userId: string, id: number): Promise<IdeaRow> {
    const row = await repo.findOwned(userId, id);
    if (!row) throw ideaNotFound();
    return row;
  }

  function checkSourceUrl(url: string): void {
    if (url.length > LIMITS.url || !URL.canParse(url)) throw fieldError("source_url", "source_url must be a valid URL");
  }

  function cleanTitle(title: string): string {
    const out = title.trim();
    if (out === "") throw fieldError("title", "title must not be blank");
    return out;
  }

  async function view(row: IdeaRow) {
    return toIdea(row, await tags.namesFor(row.id));
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
  function listFilter(q: ListIdeasQuery): Omit<IdeaFilter, "userId"> {
    const limit = clampLimit(q.limit, LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT);
    const tag = q.tag !== undefined && q.tag !== "" ? q.tag : null;
    // tag and connection_types do not combine: tag wins, so the types are not even parsed then.
    const types = tag === null ? parseTypes(q.connection_types) : null;
    const status = q.status ?? null;
    return { status, tag, types, limit, offset: parseOffset(q.offset) };
  }

  /** The page, or what the credential's statement already read for it (`ride`, listRide's) when it read this one. */
  async function listJson(userId: string, q: ListIdeasQuery, ride?: AuthContext["ride"]): Promise<string> {
    const f = listFilter(q);
    if (ride && ride.key === pageKey(f)) return repo.pageFromRide(ride.value, f);
    return repo.listPage({ userId, ...f });
  }

  /**
   * GET /ideas's page as a ride (auth/plugin.ts) from the request's query as sent, before its schema checked it: what
   * listJson will ask for when the query is valid (it compares the keys); null when it cannot tell, or for a filter
   * the ride does not carry.
   */
  function listRide(request: Request): Ride | null {
    try {
      const q = Object.fromEntries(new URL(request.url).searchParams) as ListIdeasQuery;
      // Only values the schema accepts are sent: a refused one (a NUL byte) must not fail the credential's statement.
      if (q.status !== undefined && !(IDEA_STATUSES as readonly string[]).includes(q.status)) return null;
      return repo.plainPageRide(listFilter(q));
    } catch {
      return null; // an invalid query: refused after authentication, as always
    }
  }

  return {
    mustOwn,
    view,

    /** The Free cap, checked before the body is validated (see routes) and again inside the write path's transaction. */
    assertCanCapture: (auth: Filer): Promise<void> => filing.assertCanCapture(auth),

    /** Capture: POST /ideas, the MCP tool, and every new writer (e-mail, the agent) file an idea through here. */
    async create(auth: Filer, body: CreateIdeaBody) {
      const sourceUrl = body.source_url ?? null;
      const idea = {
        title: cleanTitle(body.title),
        body: body.body ?? "",
        status: body.status ?? "captured",
        source: body.source ?? "api",
        source_url: sourceUrl,
        parent_id: body.parent_id ?? null,
        tags: normalizeTagNames(body.tags ?? [], "tags"),
      };
      if (sourceUrl !== null) checkSourceUrl(sourceUrl);
      const { row, tags: names } = await filing.fileIdea(auth, idea);
      return toCreatedIdea(row, names);
    },

    listJson,
    listRide,

    /** The same answer as objects (the MCP tool). */
    list: async (userId: string, q: ListIdeasQuery): Promise<{ ideas: IdeaView[]; has_more: boolean }> => JSON.parse(await listJson(userId, q)),

    async get(userId: string, id: number) {
      const row = await mustOwn(userId, id);
      return { ...(await view(row)), links: await links.listForIdea(id), relations: await relations.listTouching(id) };
    },

    /** `writer` is recorded with the version a new title or body makes (src/modules/versions/writer.ts). */
    async update(userId: string, id: number, body: UpdateIdeaBody, writer: string = "api") {
      const row = await mustOwn(userId, id);
      const changes: IdeaChanges = {};
      if (body.title !== undefined && cleanTitle(body.title) !== row.title) changes.title = cleanTitle(body.title);
      if (body.body !== undefined && body.body !== row.body) changes.body = body.body;
      if (body.status !== undefined && body.status !== row.status) changes.status = body.status;
      if (body.parent_id !== undefined && body.parent_id !== row.parent_id) {
        if (body.parent_id !== null) await filing.checkParent(userId, body.parent_id, id);
        changes.parent_id = body.parent_id;
      }
      let newTags: string[] | null = null;
      if (body.tags !== undefined) {
        const wanted = normalizeTagNames(body.tags, "tags");
        const current = await tags.namesFor(id);
        const same = wanted.length === current.length && wanted.every((n) => current.includes(n));
        if (!same) newTags = wanted;
      }
      if (Object.keys(changes).length === 0 && newTags === null) return view(row); // nothing changed: no write, no job

      if ("title" in changes || "body" in changes) changes.last_writer = writer;
      const reembed = "title" in changes || "body" in changes || "parent_id" in changes;
      const now = stamp();
      // Under the account's lock: its tag set (a name found, else created) and its titles ([[links]]) are read, then written.
      await store.tx(async () => {
        await edits.update(id, { ...changes, updated_at: now });
        if (newTags !== null) await tags.replace(userId, id, newTags, now);
        // The relations of its [[wikilinks]] (and of others' links to a new title) change with the text, not after it.
        if (changes.title !== undefined || changes.body !== undefined) {
          const text = { id, number: row.number, title: changes.title ?? row.title, body: changes.body ?? row.body };
          await linkSync.textWritten(userId, text, changes.title !== undefined ? "renamed" : "body");
          await retention.afterWrite(id);
        }
        // Archived ideas keep their edits but never go back into the pipeline (that would re-index them).
        if (!row.is_archived) await filing.jobs.ideaEdited(id, reembed, now);
      }, { immediate: true, lock: accountLock(userId) });
      if (!row.is_archived) filing.wake();
      return view(await mustOwn(userId, id));
    },

    async archive(userId: string, id: number) {
      await mustOwn(userId, id);
      const changed = await edits.archive(id, stamp());
      if (changed) await notifyArchived(deps, [id]);
      return { success: true as const };
    },
  };
}
export type IdeasService = ReturnType<typeof createIdeasService>;
