// Attaching tags to ideas by name: names are trimmed and de-duplicated, unknown names become tags of the account.
import type { Db } from "../../db/open";
import { fieldError } from "../../errors";
import { enqueueJob } from "../../jobs/queue";
import { createTagsRepo } from "./repo";

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

export function createTagAttacher(db: Db) {
  const repo = createTagsRepo(db);
  return {
    /**
     * Tag ids for the names, creating the missing ones. A new tag gets a 'tag-embed' job so it can later appear
     * in similarity results. Call inside the caller's transaction.
     */
    ensure(userId: string, names: readonly string[], now: string): number[] {
      return names.map((name) => {
        const found = repo.findByName(userId, name);
        if (found) return found.id;
        const id = repo.insert(userId, name, null, now);
        enqueueJob(db, "tag-embed", null, now, { tag_id: id });
        return id;
      });
    },
    /** Replaces the idea's tag set with exactly these names. */
    replace(userId: string, ideaId: number, names: readonly string[], now: string): void {
      repo.detachAll(ideaId);
      for (const id of this.ensure(userId, names, now)) repo.attach(ideaId, id);
    },
    namesFor: (ideaId: number) => repo.namesForIdeas([ideaId]).get(ideaId)!,
    namesForIdeas: repo.namesForIdeas,
  };
}
export type TagAttacher = ReturnType<typeof createTagAttacher>;
