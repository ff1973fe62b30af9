// THE WRITE PATH: every writer files an idea through this module — POST /ideas and the MCP tool (through the ideas
// service's `create`), both importers, capture by e-mail, the agent. `fileIdea` is the entry for one idea; importers
// batch `insertIdea` in their own transaction. It inserts the idea with its tags and links, queues the jobs the spec
// lists (jobs.ts, typed), wakes the worker once after the commit, and checks the Free cap (cap.ts). Nothing else
// inserts ideas or queues jobs; test/foundation/stores.test.ts fails if anything does.
import type { Deps } from "../../deps";
import type { Plan } from "../../auth/plans";
import { fieldError } from "../../errors";
import { toStamp } from "../../lib/time";
import { accountLock, together } from "../../db/store";
import { createIdeasRepo, type IdeaRow } from "../ideas/repo";
import { compareCodePoints } from "../../lib/code-point-order";
import { createLinksRepo } from "../links/repo";
import { checkFreeCap } from "./cap";
import { createJobs, wakeWorker } from "./jobs";
import { createFilingRepo, createIdeaEdits, type NewIdeaRow } from "./repo";
import { createTagAttacher, type TagWish } from "./tags";
import { arrivalFor, arrivingDates, arrivingStatus, type Arrival } from "./arrival";
import { createLinkSync } from "../wikilinks/sync";

/** Who files: the account and its effective plan (what the auth layer resolved). */
export interface Filer {
  plan: Plan;
  user: { id: string };
}

/** One idea as a capture writer hands it over, already validated (the ideas service checks titles, URLs, tag names). */
export interface NewIdea {
  title: string;
  body: string;
  status: string;
  source: string;
  source_url: string | null;
  parent_id: number | null;
  tags: readonly string[];
}

export interface NewLink {
  url: string;
  title: string | null;
  link_type: string;
  created_at: string;
}

/**
 * One idea as an importer writes it: the row (number reserved by the caller), tag ids, links. Dates and status are
 * what the file states (null: not stated); insertIdea resolves the rest the same way for every importer (arrival.ts).
 */
export type ImportedIdea = Omit<NewIdeaRow, "user_id" | "status" | "created_at" | "updated_at"> & {
  status: string | null;
  created_at: string | null;
  updated_at: string | null;
  tagIds: Iterable<number>;
  /** A link without a date of its own takes its idea's `updated_at` (the last time the author could have added it). */
  links: ReadonlyArray<Omit<NewLink, "created_at"> & { created_at: string | null }>;
  /** Stored archived, as its own app had it: no background pass. */
  archived?: boolean;
};

export function createFiling(deps: Deps) {
  const { store } = deps;
  const repo = createFilingRepo(store);
  const edits = createIdeaEdits(store);
  const ideas = createIdeasRepo(store);
  const links = createLinksRepo(store);
  const tags = createTagAttacher(store);
  const jobs = createJobs(store);
  const linkSync = createLinkSync(deps);

  /** A parent must be a live idea of the same account, and must not make the idea its own ancestor. */
  async function checkParent(userId: string, parentId: number, childId: number | null): Promise<void> {
    const parent = await ideas.findOwned(userId, parentId);
    if (!parent || parent.is_archived) throw fieldError("parent_id", "Parent idea not found");
    if (childId !== null && (await ideas.isSelfOrAncestor(parentId, childId))) {
      throw fieldError("parent_id", childId === parentId ? "An idea cannot be its own parent" : "parent_id would create a circular parent chain");
    }
  }

  /** Adds tags and links to an idea; inside the caller's transaction. */
  async function addToIdea(ideaId: number, tagIds: Iterable<number>, newLinks: readonly NewLink[]): Promise<void> {
    await tags.attach(ideaId, tagIds);
    for (const l of newLinks) await links.insert(ideaId, l.url, l.title, l.link_type, l.created_at);
  }

  /**
   * Inserts one idea with its tags and links and queues its full pass (an archived one queues nothing); `alongside`
   * is more of the writer's own work on the new row. Inside the caller's transaction.
   */
  async function insertRow(
    row: NewIdeaRow, tagIds: Iterable<number>, ideaLinks: readonly NewLink[], archived: boolean, now: string,
    alongside: (id: number) => Promise<void> = async () => {},
  ): Promise<IdeaRow> {
    const inserted = await repo.insert(row);
    const id = inserted.id;
    if (archived) await edits.archive(id, row.updated_at); // its own date stays: archived as its app had it
    // Writes to different rows, sent together (one round trip on PostgreSQL).
    await together(addToIdea(id, tagIds, ideaLinks), archived ? Promise.resolve() : jobs.fullPass(id, now), alongside(id));
    return archived ? { ...inserted, is_archived: 1 } : inserted;
  }

  /** An importer's idea: its own dates (or the import's moment), its status (or captured / shelved by age), then inserted. */
  async function insertIdea(userId: string, idea: ImportedIdea, arrival: Arrival): Promise<number> {
    const { tagIds, links: ideaLinks, archived, status, created_at, updated_at, ...row } = idea;
    const dates = arrivingDates(created_at, updated_at, arrival.now);
    const linksDated = ideaLinks.map((l) => ({ ...l, created_at: l.created_at ?? dates.updated_at }));
    const full = { ...row, ...dates, status: arrivingStatus(status, dates.updated_at, arrival), user_id: userId };
    const { id } = await insertRow(full, tagIds, linksDated, archived === true, arrival.now);
    await linkSync.recordLinks(userId, id, row.body); // the importer makes the relations; the index learns the targets
    return id;
  }

  return {
    /**
     * Files one idea: the Free cap, a live parent, the next display number, the row, its tags, its full pass and the
     * relations of its [[wikilinks]] in one transaction; then wakes the worker. Returns the new idea as its transaction
     * wrote it (the row and its tag names in code-point order, as a read would give them), once that has committed.
     */
    async fileIdea(filer: Filer, idea: NewIdea): Promise<{ row: IdeaRow; tags: string[] }> {
      const userId = filer.user.id;
      const now = toStamp(deps.clock());
      // Immediate under the account's lock: the Free cap's count and the number reservation must not be raced by
      // another writer of the account (other accounts' captures run beside it on PostgreSQL). Grouped:
      // captures in flight together share one commit on PostgreSQL (store.ts, TxOptions.group), each in its savepoint.
      // Interleaved with the group's others (all at once, their statements pipelined) when no rule reads what another
      // capture of the group writes: no Free cap to count, and no [[link]] in the body to resolve against titles being
      // written beside it (a body without links only finds its linkers among bodies already written or run after it).
      const interleave = filer.plan === "pro" && !idea.body.includes("[[");
      const row = await store.tx(async () => {
        await checkFreeCap(deps, repo, filer.plan, userId, { capture: true });
        if (idea.parent_id !== null) await checkParent(userId, idea.parent_id, null);
        // Sent together: on PostgreSQL one round trip for both.
        const [number, tagIds] = await together(repo.reserveNumbers(userId, 1), tags.ensure(userId, idea.tags, now));
        // With its tags and full pass: its [[links]], and the links other bodies wrote to its title before it existed.
        return insertRow({
          user_id: userId, number, title: idea.title, body: idea.body, status: idea.status, source: idea.source, source_url: idea.source_url,
          source_summary: null, parent_id: idea.parent_id, created_at: now, updated_at: now,
        }, tagIds, [], false, now, (id) => linkSync.textWritten(userId, { id, number, title: idea.title, body: idea.body }, "created"));
      }, { immediate: true, lock: accountLock(userId), group: true, interleave });
      wakeWorker(deps);
      // Tags are found or made by exactly these names (tags.ensure), so these are the names the idea carries.
      return { row, tags: [...idea.tags].sort(compareCodePoints) };
    },

    /** The capture's Free cap alone: POST /ideas and the MCP tool report it before validating the payload. */
    assertCanCapture: (filer: Filer) => checkFreeCap(deps, repo, filer.plan, filer.user.id, { capture: true }),
    checkParent,

    // For importers, inside their own transaction; they wake the worker once at the end.
    /** The import's Free cap: refuses when `adding` more active ideas would pass it. */
    checkImportCap: (plan: Plan, userId: string, adding: number) => checkFreeCap(deps, repo, plan, userId, { import: adding }),
    reserveNumbers: repo.reserveNumbers,
    /** The import's moment and the account's stale line, read once per import (arrival.ts). */
    arrival: (userId: string) => arrivalFor(deps, userId),
    insertIdea,
    addToIdea,
    /** An importer's rewrite of a body: its link targets into the index (wikilinks/sync.ts). */
    recordLinks: linkSync.recordLinks,
    ensureTag: tags.ensureOne,
    jobs,
    /** Wakes the worker once, after the transaction that queued jobs committed. */
    wake: () => wakeWorker(deps),
  };
}
export type Filing = ReturnType<typeof createFiling>;
export type { TagWish };
