// THE WRITE PATH: every writer files an idea through this module — POST /ideas and the MCP tool (through the ideas
// service's `create`), both importers, capture by e-mail, the agent. `fileIdea` is the entry for one idea; importers
// batch `insertIdea` in their own transaction. It inserts the idea with its tags and links, queues the jobs the spec
// lists (jobs.ts, typed), wakes the worker once after the commit, and checks the Free cap (cap.ts). Nothing else
// inserts ideas or queues jobs; test/foundation/stores.test.ts fails if anything does.
import type { Deps } from "../../deps";
import type { Plan } from "../../auth/plans";
import { fieldError } from "../../errors";
import { toStamp } from "../../lib/time";
import { createIdeasRepo } from "../ideas/repo";
import { createLinksRepo } from "../links/repo";
import { checkFreeCap } from "./cap";
import { createJobs, wakeWorker } from "./jobs";
import { createFilingRepo, type NewIdeaRow } from "./repo";
import { createTagAttacher, type TagWish } from "./tags";

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

/** One idea as an importer writes it: the whole row (number reserved by the caller), tag ids, links. */
export type ImportedIdea = Omit<NewIdeaRow, "user_id"> & {
  tagIds: Iterable<number>;
  links: readonly NewLink[];
  /** Stored archived, as its own app had it: no background pass. */
  archived?: boolean;
};

export function createFiling(deps: Deps) {
  const { db } = deps;
  const repo = createFilingRepo(db);
  const ideas = createIdeasRepo(db);
  const links = createLinksRepo(db);
  const tags = createTagAttacher(db);
  const jobs = createJobs(db);

  /** A parent must be a live idea of the same account, and must not make the idea its own ancestor. */
  function checkParent(userId: string, parentId: number, childId: number | null): void {
    const parent = ideas.findOwned(userId, parentId);
    if (!parent || parent.is_archived) throw fieldError("parent_id", "Parent idea not found");
    if (childId !== null && ideas.isSelfOrAncestor(parentId, childId)) {
      throw fieldError("parent_id", childId === parentId ? "An idea cannot be its own parent" : "parent_id would create a circular parent chain");
    }
  }

  /** Adds tags and links to an idea; inside the caller's transaction. */
  function addToIdea(ideaId: number, tagIds: Iterable<number>, newLinks: readonly NewLink[]): void {
    tags.attach(ideaId, tagIds);
    for (const l of newLinks) links.insert(ideaId, l.url, l.title, l.link_type, l.created_at);
  }

  /** Inserts one idea with its tags and links and queues its full pass (an archived one queues nothing). Inside the caller's transaction. */
  function insertIdea(userId: string, idea: ImportedIdea, now: string): number {
    const { tagIds, links: ideaLinks, archived, ...row } = idea;
    const id = repo.insert({ ...row, user_id: userId });
    if (archived) repo.archive(id);
    addToIdea(id, tagIds, ideaLinks);
    if (!archived) jobs.fullPass(id, now);
    return id;
  }

  return {
    /**
     * Files one idea: the Free cap, a live parent, the next display number, the row, its tags and its full pass in one
     * transaction; then wakes the worker. Returns the new idea's id.
     */
    fileIdea(filer: Filer, idea: NewIdea): number {
      const userId = filer.user.id;
      const now = toStamp(deps.clock());
      const id = db.transaction(() => {
        checkFreeCap(deps, repo, filer.plan, userId, { capture: true });
        if (idea.parent_id !== null) checkParent(userId, idea.parent_id, null);
        const number = repo.reserveNumbers(userId, 1);
        const tagIds = tags.ensure(userId, idea.tags, now);
        return insertIdea(userId, {
          number, title: idea.title, body: idea.body, status: idea.status, source: idea.source, source_url: idea.source_url,
          source_summary: null, parent_id: idea.parent_id, created_at: now, updated_at: now, tagIds, links: [],
        }, now);
      })();
      wakeWorker(deps);
      return id;
    },

    /** The capture's Free cap alone: POST /ideas and the MCP tool report it before validating the payload. */
    assertCanCapture: (filer: Filer) => checkFreeCap(deps, repo, filer.plan, filer.user.id, { capture: true }),
    checkParent,

    // For importers, inside their own transaction; they wake the worker once at the end.
    /** The import's Free cap: refuses when `adding` more active ideas would pass it. */
    checkImportCap: (plan: Plan, userId: string, adding: number) => checkFreeCap(deps, repo, plan, userId, { import: adding }),
    reserveNumbers: repo.reserveNumbers,
    insertIdea,
    addToIdea,
    ensureTag: tags.ensureOne,
    jobs,
    /** Wakes the worker once, after the transaction that queued jobs committed. */
    wake: () => wakeWorker(deps),
  };
}
export type Filing = ReturnType<typeof createFiling>;
export type { TagWish };
