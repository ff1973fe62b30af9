// Tags on the write path: names are trimmed and de-duplicated, and a tag that is new to the account is created here
// only, with its embedding job (a new tag must be able to appear in similar-tag results).
import type { Store } from "../../db/store";
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

export function createTagAttacher(store: Store) {
  const repo = createTagsRepo(store);
  const jobs = createJobs(store);

  /** Creates a tag and queues its embedding; call inside the caller's transaction. */
  async function create(userId: string, name: string, color: string | null, createdAt: string, now: string): Promise<number> {
    const id = await repo.insert(userId, name, color, createdAt);
    await jobs.tagEmbedding(id, now);
    return id;
  }

  /**
   * The tag of that name, created when the account has none; `created` says which. Inside the caller's transaction.
   * On PostgreSQL two writers of one account (an import and its dry run, a capture beside an import) run at once:
   * the one that loses the race for a new name waits for the other's commit and then takes its tag (read again, in
   * a new snapshot), or creates it after the other rolled back, instead of failing on the unique name (a 500).
   */
  async function ensureOne(userId: string, name: string, now: string, wish: TagWish = {}): Promise<{ id: number; color: string | null; created: boolean }> {
    const found = await repo.findByName(userId, name);
    if (found) return { id: found.id, color: found.color, created: false };
    const color = wish.color ?? null;
    const id = await repo.insertIfAbsent(userId, name, color, wish.created_at ?? now);
    if (id === null) {
      const taken = (await repo.findByName(userId, name))!;
      return { id: taken.id, color: taken.color, created: false };
    }
    await jobs.tagEmbedding(id, now);
    return { id, color, created: true };
  }

  return {
    create,
    ensureOne,
    /** Tag ids for the names, creating the missing ones. */
    async ensure(userId: string, names: readonly string[], now: string): Promise<number[]> {
      const ids: number[] = [];
      for (const n of names) ids.push((await ensureOne(userId, n, now)).id); // in order: a repeated new name is created once
      return ids;
    },
    /** Replaces the idea's tag set with exactly these names. */
    async replace(userId: string, ideaId: number, names: readonly string[], now: string): Promise<void> {
      await repo.detachAll(ideaId);
      for (const id of await this.ensure(userId, names, now)) await repo.attach(ideaId, id);
    },
    /** Adds tags by id to an idea (one it already carries is kept once). */
    async attach(ideaId: number, tagIds: Iterable<number>): Promise<void> {
      for (const id of tagIds) await repo.attach(ideaId, id);
    },
    namesFor: async (ideaId: number) => (await repo.namesForIdeas([ideaId])).get(ideaId)!,
    namesForIdeas: repo.namesForIdeas,
  };
}
export type TagAttacher = ReturnType<typeof createTagAttacher>;
