// Tags on the write path: names are trimmed and de-duplicated, and a tag that is new to the account is created here
// only, with its embedding job (a new tag must be able to appear in similar-tag results).
import type { Db } from "../../db/open";
import { fieldError } from "../../errors";
import { createTagsRepo } from "../tags/repo";
import { createJobs } from "./jobs";

/** Trims and de-duplicates (first spelling wins); a name that is blank after trimming is a 400 on `field`. */
export function normalizeTagNames(names: readonly string[], field: string): string[] {
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === "") throw fieldError(field, "Tag names must not be blank");
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** What an imported tag brings besides its name. */
export interface TagWish {
  color?: string | null;
  created_at?: string;
}

export function createTagAttacher(db: Db) {
  const repo = createTagsRepo(db);
  const jobs = createJobs(db);

  /** Creates a tag and queues its embedding; call inside the caller's transaction. */
  function create(userId: string, name: string, color: string | null, createdAt: string, now: string): number {
    const id = repo.insert(userId, name, color, createdAt);
    jobs.tagEmbedding(id, now);
    return id;
  }

  /** The tag of that name, created when the account has none; `created` says which. Inside the caller's transaction. */
  function ensureOne(userId: string, name: string, now: string, wish: TagWish = {}): { id: number; color: string | null; created: boolean } {
    const found = repo.findByName(userId, name);
    if (found) return { id: found.id, color: found.color, created: false };
    const color = wish.color ?? null;
    return { id: create(userId, name, color, wish.created_at ?? now, now), color, created: true };
  }

  return {
    create,
    ensureOne,
    /** Tag ids for the names, creating the missing ones. */
    ensure: (userId: string, names: readonly string[], now: string): number[] => names.map((n) => ensureOne(userId, n, now).id),
    /** Replaces the idea's tag set with exactly these names. */
    replace(userId: string, ideaId: number, names: readonly string[], now: string): void {
      repo.detachAll(ideaId);
      for (const id of this.ensure(userId, names, now)) repo.attach(ideaId, id);
    },
    /** Adds tags by id to an idea (one it already carries is kept once). */
    attach: (ideaId: number, tagIds: Iterable<number>) => {
      for (const id of tagIds) repo.attach(ideaId, id);
    },
    namesFor: (ideaId: number) => repo.namesForIdeas([ideaId]).get(ideaId)!,
    namesForIdeas: repo.namesForIdeas,
  };
}
export type TagAttacher = ReturnType<typeof createTagAttacher>;
