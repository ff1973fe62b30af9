// The scheduled mail jobs (croner patterns from config; the scheduler runs them in config.timezone).
import type { ScheduledJob } from "../jobs/scheduled-job";
import { runWeeklyDigest } from "./digest";
import { runStaleNudges } from "./nudges";

export const MAIL_JOBS: ScheduledJob[] = [
  { name: "weekly-digest", pattern: (deps) => deps.config.digest_cron, run: async (deps) => void (await runWeeklyDigest(deps)) },
  { name: "stale-nudges", pattern: (deps) => deps.config.nudge_cron, run: async (deps) => void (await runStaleNudges(deps)) },
];
