// One scrape: the gauges read from the database, the files and the engines at this moment, then the text format.
import { statSync, statfsSync } from "node:fs";
import pkg from "../../package.json" with { type: "json" };
import type { Deps } from "../deps";
import { dbPath } from "../cli/context";
import { JOB_KINDS, countJobs, pendingJobsByKind } from "../jobs/queue";
import { fromStamp } from "../lib/time";
import { embeddingsHealth } from "../pipeline/health";
import type { StorageMonitor } from "../db/storage";
import { databaseBytes } from "../db/database-size";
import { loadMetrics } from "./registry";

const fileBytes = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0; // no WAL right after a clean close, or an in-memory database
  }
};

/** Sets the point-in-time gauges and renders every metric; a few indexed counts, run at the scraper's pace. */
export async function scrapeMetrics(deps: Deps, storage: Pick<StorageMonitor, "health">): Promise<string> {
  const { metrics, registry } = await loadMetrics();
  const now = deps.clock().getTime();
  const pending = new Map((await pendingJobsByKind(deps.store)).map((r) => [r.kind, r]));
  let oldest = 0;
  for (const kind of JOB_KINDS) {
    const row = pending.get(kind);
    metrics.jobsPending.set({ kind }, row?.pending ?? 0);
    if (row) oldest = Math.max(oldest, (now - fromStamp(row.oldest).getTime()) / 1000);
  }
  metrics.oldestPendingAge.set(oldest);
  metrics.jobsRunning.set((await countJobs(deps.store)).locked);

  const { embeddings } = await embeddingsHealth(deps.store);
  metrics.embeddingsPending.set(embeddings.pending);
  metrics.reindexing.set(embeddings.reindexing ? 1 : 0);
  metrics.ideas.set(embeddings.total);
  metrics.modelLoaded.set({ model: deps.config.embed_model }, deps.engines.models?.target.stats().loaded ? 1 : 0);

  if (deps.store.sqlite) {
    const file = dbPath(deps.config);
    metrics.databaseBytes.set(fileBytes(file));
    metrics.walBytes.set(fileBytes(`${file}-wal`));
  } else {
    // PostgreSQL's own size of the database; its WAL is the server's (pg_stat_wal), not this instance's file.
    metrics.databaseBytes.set(await databaseBytes(deps.store));
    metrics.walBytes.set(0);
  }
  try {
    const fs = statfsSync(deps.config.data_dir);
    metrics.diskFree.set(Number(fs.bavail) * Number(fs.bsize));
    metrics.diskSize.set(Number(fs.blocks) * Number(fs.bsize));
  } catch {
    // No data dir (in-memory tests): the disk gauges stay unset rather than report a false 0.
  }
  metrics.storageWritable.set(storage.health().writable ? 1 : 0);
  metrics.buildInfo.set({ version: pkg.version }, 1);
  return registry.metrics();
}
