// The operator's retention of idea versions (versions_keep): each idea keeps its newest N versions, the current text
// included; 0 (the default) keeps every one. Applied in the write's own transaction when an idea's text changes, and
// by a nightly pass for ideas not edited since the setting was lowered (or brought in with a longer imported history).
import type { Deps } from "../../deps";
import type { ScheduledJob } from "../../jobs/scheduled-job";
import { createVersionsRepo } from "./repo";

export function createVersionRetention(deps: Pick<Deps, "store" | "config">) {
  const repo = createVersionsRepo(deps.store);
  const keep = deps.config.versions_keep;
  return {
    /** After a write of the idea's title or body, inside its transaction. */
    afterWrite: async (ideaId: number): Promise<void> => {
      if (keep > 0) await repo.prune(ideaId, keep);
    },
    /** Every idea at once; the number of versions removed. */
    sweep: async (): Promise<number> => (keep > 0 ? await repo.pruneAll(keep) : 0),
  };
}

/** Nightly, when versions_keep is set: the versions beyond each idea's newest N. */
export const versionRetentionJob: ScheduledJob = {
  name: "version-retention",
  pattern: "40 3 * * *",
  enabled: (deps) => deps.config.versions_keep > 0,
  async run(deps) {
    const removed = await createVersionRetention(deps).sweep();
    if (removed > 0) deps.log.info("old idea versions removed", { removed, keep: deps.config.versions_keep });
  },
};
