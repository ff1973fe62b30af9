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
import { addDays, toStamp } from "../lib/time";
import { NODE_ID } from "../lib/node-id";

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

/** Claimed runs older than this are forgotten (a claim only matters while the nodes' clocks reach the same run). */
const KEEP_RUNS_DAYS = 7;

/**
 * Claims one run of a scheduled job for this node: the first node to reach the run (named by its scheduled time, the
 * same on every node whose clock is within a run of the others) inserts the row, every other finds it there. On
 * SQLite the one server always wins and nothing is written: a run must not need a database write before it starts
 * (a scheduled backup on a disk refusing writes has to run, fail and say so).
 */
export async function claimScheduledRun(deps: Deps, job: string, slot: Date, node = NODE_ID): Promise<boolean> {
  if (deps.store.dialect === "sqlite") return true;
  const now = deps.clock();
  const claimed = await deps.store
    .query("INSERT INTO scheduled_runs (job, slot, node, claimed_at) VALUES (?, ?, ?, ?) ON CONFLICT (job, slot) DO NOTHING")
    .run(job, slot.toISOString(), node, toStamp(now));
  if (claimed.changes > 0) {
    await deps.store.query("DELETE FROM scheduled_runs WHERE claimed_at < ?").run(toStamp(addDays(now, -KEEP_RUNS_DAYS)));
  }
  return claimed.changes > 0;
}

/**
 * The run a firing belongs to: the latest scheduled time at or before now (croner fires on the second, maybe a
 * little late on a busy loop, never early), so every node names a run alike whatever its own delay.
 */
function scheduledSlot(cron: Cron): Date {
  return cron.previousRuns(1, new Date(Date.now() + 1000))[0] ?? new Date(Math.floor(Date.now() / 1000) * 1000);
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
          // Every node keeps the schedule; each run happens on the one node that claims it (scheduled_runs). The
          // claim is part of the run, so a database away at the scheduled time is waited for like the job itself.
          const slot = scheduledSlot(cron);
          let claimed: boolean | null = null;
          const once: ScheduledJob = {
            ...job,
            run: async (d) => {
              claimed ??= await claimScheduledRun(d, job.name, slot);
              if (!claimed) return;
              deps.log.info("scheduled job runs on this node", { job: job.name, slot: slot.toISOString() });
              await job.run(d);
            },
          };
          try {
            await runWaitingForStore(deps, once, { nextRun: () => cron.nextRun(), signal: stopping.signal });
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
