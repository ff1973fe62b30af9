// The side effect other features hook into: dropping archived ideas from the vector index. (Waking the job worker
// is the write path's, filing/jobs.ts.)
import type { Deps } from "../../deps";

/**
 * Tells the search engine (when running) to remove the ideas' vectors. The archive itself is already committed and
 * every query filters archived ideas, so a failing hook only leaves an unreachable vector behind: log, don't fail.
 */
export function notifyArchived(deps: Deps, ideaIds: number[]): void {
  const hook = deps.engines.onIdeaArchived;
  if (!hook) return; // no vector index is served by this process
  for (const id of ideaIds) {
    const report = (e: unknown) => deps.log.warn("vector removal failed", { idea_id: id, error: (e as Error)?.message ?? String(e) });
    try {
      const out = hook(id);
      if (out instanceof Promise) out.catch(report);
    } catch (e) {
      report(e);
    }
  }
}
