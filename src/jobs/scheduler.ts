// Every scheduled (croner) job in one list; features append entries, the server runs them while it is up.
import { Cron } from "croner";
import type { Deps } from "../deps";
import type { BackgroundProcess } from "../background-process";
import { StoreUnavailableError } from "../db/store";
import { MAIL_JOBS } from "../mail/jobs";
import { pipelineRecoveryJob } from "../pipeline/recovery";
import { scheduledBackupJob } from "../modules/admin/scheduled-backups";
import { versionRetentionJob } from "../modules/versions/retention";
import type { ScheduledJob } from "./scheduled-job";

export type { ScheduledJob };

export const SCHEDULED_JOBS: ScheduledJob[] = [...MAIL_JOBS, pipelineRecoveryJob, scheduledBackupJob, versionRetentionJob];

export interface StoreWait {
  /** When the job's next scheduled run comes (null: never); a retry that would reach it is left to that run. */
  nextRun: () => Date | null;
  /** Aborted when the server stops: the wait ends at once and the job is not tried again. */
  signal: AbortSignal;
  /** The first wait; it doubles per failure up to `maxRetryMs`. */
  firstRetryMs?: number;
  maxRetryMs?: number;
}

/**
 * Runs `job`; when it fails because the database is away (PostgreSQL restarting or unreachable), waits and runs it
 * again — 5 s doubling, at most 5 min — so a weekly digest due during a restart is sent once the database is back
 * instead of a week later. Each job is safe to run again: the mail jobs claim per account and period, recovery and
 * backups repeat harmlessly. Other failures are thrown as before. One log line per outage, one when it ran after it.
 */
export async function runWaitingForStore(deps: Deps, job: ScheduledJob, wait: StoreWait): Promise<void> {
  const first = wait.firstRetryMs ?? 5_000;
  const max = wait.maxRetryMs ?? 300_000;
  for (let failures = 0; ; ) {
    try {
      await job.run(deps);
      if (failures > 0) deps.log.info("scheduled job ran once the database was back", { job: job.name, failed_attempts: failures });
      return;
    } catch (e) {
      if (!(e instanceof StoreUnavailableError) || wait.signal.aborted) throw e;
      failures++;
      const delay = Math.min(max, first * 2 ** (failures - 1));
      const next = wait.nextRun();
      if (next && next.getTime() - Date.now() <= delay) {
        deps.log.warn("scheduled job left to its next run: the database is unavailable", { job: job.name, failed_attempts: failures });
        return;
      }
      if (failures === 1) deps.log.warn("scheduled job waits for the database", { job: job.name, retry_in_s: Math.round(delay / 1000) });
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wait.signal.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, delay);
        wait.signal.addEventListener("abort", done);
      });
      if (wait.signal.aborted) return;
    }
  }
}

export function createScheduler(deps: Deps): BackgroundProcess {
  const crons: Cron[] = [];
  const stopping = new AbortController();
  return {
    name: "scheduler",
    start() {
      for (const job of SCHEDULED_JOBS) {
        if (job.enabled && !job.enabled(deps)) continue;
        const pattern = typeof job.pattern === "function" ? job.pattern(deps) : job.pattern;
        const cron: Cron = new Cron(pattern, { name: job.name, timezone: deps.config.timezone, protect: true }, async () => {
          try {
            await runWaitingForStore(deps, job, { nextRun: () => cron.nextRun(), signal: stopping.signal });
          } catch (e) {
            deps.log.error("scheduled job failed", { job: job.name, error: (e as Error).message });
          }
        });
        crons.push(cron);
      }
    },
    stop() {
      stopping.abort();
      for (const c of crons) c.stop();
    },
  };
}
