// What a scheduled (croner) job is. A leaf, so the jobs (mail, recovery, backups) and the list that runs them
// (scheduler.ts) do not import each other.
import type { Deps } from "../deps";

export interface ScheduledJob {
  name: string;
  /** Cron pattern, or a function of config (e.g. the digest time is configurable). */
  pattern: string | ((deps: Deps) => string);
  run(deps: Deps): Promise<void> | void;
  /** Off unless this holds (e.g. a schedule that is only set by configuration); always on when absent. */
  enabled?: (deps: Deps) => boolean;
}
