// The side effect other features hook into: dropping archived ideas from the vector index. (Waking the job worker
// is the write path's, filing/jobs.ts.)
import type { Deps } from "../../deps";

/**
 * Tells the search engine (when running) to remove the ideas' vectors, and waits for it, so the answer to an archive
 * follows the removal on either store (on PostgreSQL the removal's statements would otherwise still be in flight).
 * The archive itself is already committed and every query filters archived ideas, so a failing hook only leaves an
 * unreachable vector behind: log, don't fail.
 */
export async function notifyArchived(deps: Deps, ideaIds: number[]): Promise<void> {
  const hook = deps.engines.onIdeaArchived;
  if (!hook) return; // no vector index is served by this process
  await Promise.all(
    ideaIds.map(async (id) => {
      try {
        await hook(id);
      } catch (e) {
        deps.log.warn("vector removal failed", { idea_id: id, error: (e as Error)?.message ?? String(e) });
      }
    }),
  );
}
