// Every scheduled (croner) job in one list; features append entries, the server runs them while it is up.
import { Cron } from "croner";
import type { Deps } from "../deps";
import type { BackgroundProcess } from "../background-process";
import { MAIL_JOBS } from "../mail/jobs";
import { pipelineRecoveryJob } from "../pipeline/recovery";
import { scheduledBackupJob } from "../modules/admin/scheduled-backups";
import type { ScheduledJob } from "./scheduled-job";

export type { ScheduledJob };

export const SCHEDULED_JOBS: ScheduledJob[] = [...MAIL_JOBS, pipelineRecoveryJob, scheduledBackupJob];

export function createScheduler(deps: Deps): BackgroundProcess {
  const crons: Cron[] = [];
  return {
    name: "scheduler",
    start() {
      for (const job of SCHEDULED_JOBS) {
        if (job.enabled && !job.enabled(deps)) continue;
        const pattern = typeof job.pattern === "function" ? job.pattern(deps) : job.pattern;
        crons.push(
          new Cron(pattern, { name: job.name, timezone: deps.config.timezone, protect: true }, async () => {
            try {
              await job.run(deps);
            } catch (e) {
              deps.log.error("scheduled job failed", { job: job.name, error: (e as Error).message });
            }
          }),
        );
      }
    },
    stop() {
      for (const c of crons) c.stop();
    },
  };
}
