// Idea versions: the history of an idea's title and body (read, one version, restore), scoped to the idea's owner.
import type { Deps } from "../../deps";
import { notFound } from "../../errors";
import { createIdeasService, ideaNotFound } from "../ideas/service";
import { createVersionsRepo, type VersionRow } from "./repo";

export const versionNotFound = () => notFound("Version not found");

/** The API's version object (docs/ideas.md "Versions"); body is always a string here, never null. */
const view = (v: VersionRow) => ({ version: v.version, title: v.title, body: v.body, writer: v.writer, created_at: v.created_at });
export type VersionView = ReturnType<typeof view>;

export function createVersionsService(deps: Deps) {
  const repo = createVersionsRepo(deps.store);
  const ideas = createIdeasService(deps);

  async function mustOwn(userId: string, ideaId: number): Promise<void> {
    if (!(await repo.ownsIdea(userId, ideaId))) throw ideaNotFound();
  }

  async function one(userId: string, ideaId: number, version: number): Promise<VersionView> {
    await mustOwn(userId, ideaId);
    const row = await repo.find(userId, ideaId, version);
    if (!row) throw versionNotFound();
    return view(row);
  }

  return {
    /** Newest first; the first entry is the idea's current title and body. */
    async list(userId: string, ideaId: number): Promise<{ versions: VersionView[] }> {
      await mustOwn(userId, ideaId);
      return { versions: (await repo.list(userId, ideaId)).map(view) };
    },

    get: one,

    /**
     * Writes that version's title and body as the idea's text, through the ideas service like any edit (re-indexed,
     * re-embedded), so the restore is itself a new version (writer "restore"). Restoring the current text changes
     * nothing and adds no version, as a PATCH with the same text does not.
     */
    async restore(userId: string, ideaId: number, version: number) {
      const v = await one(userId, ideaId, version);
      await ideas.update(userId, ideaId, { title: v.title, body: v.body }, "restore");
      return await ideas.get(userId, ideaId);
    },
  };
}
export type VersionsService = ReturnType<typeof createVersionsService>;
