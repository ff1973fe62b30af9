// Side effects other features hook into: waking the job worker and dropping archived ideas from the vector index.
import type { Deps } from "../../deps";

/** Called after the enqueueing transaction committed, so the worker never wakes before the job is visible. */
export function wakeWorker(deps: Deps): void {
  try {
    deps.engines.onJobQueued?.();
  } catch (e) {
    deps.log.warn("job wake-up failed", { error: (e as Error).message });
  }
}

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
