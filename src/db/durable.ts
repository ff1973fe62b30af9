// Group commit for durability "power-safe": commits append to the WAL unsynced (NORMAL), answers wait for one shared fdatasync.
//
// SQLite's FULL differs from NORMAL in WAL mode by one thing: "an additional sync operation of the WAL file happens
// after each transaction commit" (PRAGMA synchronous). This barrier is that sync, shared: one fdatasync of the -wal
// file covers every commit made before it started, so a commit is as durable once a barrier that started after it
// has finished as it is with FULL. Requests that arrive while a sync runs wait for the next one (that is the group).
// Checkpoints stay safe on their own: with NORMAL, SQLite syncs the WAL before copying it into the database and the
// database after. docs/reliability.md ("Group commit") has the reasoning, fsync failures included.
//
// Which commits a barrier must cover is read from SQLite's total_changes() of the one server connection (no other
// connection in the process writes; the CLI runs FULL): a waiter whose count is already synced does not wait, so
// reads that follow no commit pay one cheap query and nothing else.
import type { Database } from "bun:sqlite";
import { open, type FileHandle } from "node:fs/promises";
import { recordWalSync } from "../metrics/registry";

/** What an answer that waited on a failed sync says (HTTP 500, like every storage failure; src/http/durable-answer.ts). */
export const SYNC_FAILED_MESSAGE =
  "Server storage failed to sync; the change may not have been saved. Check whether it is there before trying again.";

/** How often a refusing barrier tries its recovery checkpoint again. */
const RETRY_MS = 1000;

/** The shared sync failed: the commits it covered are of unknown durability. */
export class WalSyncError extends Error {
  readonly code: string;
  constructor(cause: unknown) {
    const c = cause as { code?: unknown; message?: unknown } | null;
    super(`WAL sync failed: ${String(c?.message ?? cause)}`);
    this.code = typeof c?.code === "string" ? c.code : "EIO";
  }
}

/** Where a failed sync is reported (the storage monitor: the log and /health). */
export interface SyncReporter {
  failed(error: unknown): unknown;
}

interface Round {
  target: number;
  waiters: number;
  done: Promise<void>;
}

export function createDurabilityBarrier(db: Database, walFile: string) {
  const totalChanges = db.query<{ n: number }, []>("SELECT total_changes() AS n");
  const count = () => totalChanges.get()!.n;
  const checkpoint = db.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)");
  // Everything before this point was committed with FULL (the migrations, src/db/open.ts).
  let synced = count();
  let handle: Promise<FileHandle> | null = null;
  let running: Round | null = null;
  let next: { waiters: number; done: Promise<void> } | null = null;
  /** Set after a failed sync until the recovery checkpoint succeeds: writes are refused (query_only) meanwhile. */
  let refusing: { error: WalSyncError; at: number } | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let reporter: SyncReporter | null = null;

  function start(): Round {
    const round: Round = { target: count(), waiters: 0, done: Promise.resolve() };
    const t0 = performance.now();
    round.done = (async () => {
      try {
        // One descriptor for the server's life: Linux reports a writeback error to every descriptor open before it.
        const fh = await (handle ??= open(walFile, "r").catch((e) => ((handle = null), Promise.reject(e))));
        await fh.datasync();
      } catch (e) {
        recordWalSync("failed", round.waiters, 0);
        throw failed(e);
      } finally {
        if (running === round) running = null;
      }
      if (round.target > synced) synced = round.target;
      recordWalSync("ok", round.waiters, (performance.now() - t0) / 1000);
    })();
    round.done.catch(() => undefined); // every waiter sees the rejection; this only keeps it from counting as unhandled
    return round;
  }

  /** The next round, started when the running one settles; it covers whatever was committed by then. */
  function queueNext(after: Round): { waiters: number; done: Promise<void> } {
    const pending = { waiters: 0, done: Promise.resolve() };
    pending.done = after.done.catch(() => undefined).then(() => {
      if (next === pending) next = null;
      if (refusing) throw refusing.error; // the failed sync could not be repaired: these commits are not confirmed
      if (count() <= synced) return; // the recovery checkpoint covered them
      const round = (running ??= start());
      round.waiters += pending.waiters;
      return round.done;
    });
    return pending;
  }

  /** After a failed fsync the kernel may have dropped the WAL pages it could not write (and a later fsync succeeds
   * over the hole), so nothing is acknowledged until a TRUNCATE checkpoint has rewritten every committed page into
   * the database file and synced it; writes are refused meanwhile, so none lands behind the hole. */
  function failed(cause: unknown): WalSyncError {
    const error = new WalSyncError(cause);
    if (!refusing) {
      refusing = { error, at: performance.now() };
      db.exec("PRAGMA query_only = 1");
      // The monitor logs it (once a minute per kind: a flaky disk fails and recovers many times a second).
      reporter?.failed(error);
    }
    recover();
    return error;
  }

  function recover(): void {
    clearTimeout(retry);
    if (!refusing) return;
    const busyTimeout = db.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()!.timeout;
    try {
      db.exec("PRAGMA busy_timeout = 100"); // a reader in another process must not stall the event loop for long
      if (checkpoint.get()!.busy) throw new Error("checkpoint busy");
    } catch {
      retry = setTimeout(recover, RETRY_MS);
      retry.unref?.();
      return;
    } finally {
      db.exec(`PRAGMA busy_timeout = ${busyTimeout}`);
    }
    synced = count();
    refusing = null;
    db.exec("PRAGMA query_only = 0");
    // Health stays "failing" until a write goes through (src/app.ts): the checkpoint proves nothing depends on the
    // WAL any more, not that the storage works (with an empty WAL it succeeds without a single sync).
  }

  return {
    /** Something was committed that no finished sync covers yet (or writes are refused): an answer must ask wait(). */
    pending(): boolean {
      return refusing !== null || count() > synced;
    },
    /**
     * Resolves once every commit made before the call is on stable storage; rejects with WalSyncError when the sync
     * failed. `startedAt` (performance.now() when the request or job began) matters only while writes are refused:
     * work that began after the failure could not commit, so it passes; work that began before may have committed
     * something unconfirmed, so it fails.
     */
    wait(startedAt: number): Promise<void> {
      if (refusing) return startedAt > refusing.at || count() <= synced ? Promise.resolve() : Promise.reject(refusing.error);
      const target = count();
      if (target <= synced) return Promise.resolve();
      if (running && running.target >= target) {
        running.waiters++;
        return running.done;
      }
      if (!running) {
        running = start();
        running.waiters++;
        return running.done;
      }
      next ??= queueNext(running);
      next.waiters++;
      return next.done;
    },
    /** Why changes are refused, for /health; null while syncs work. */
    refusing(): string | null {
      return refusing ? `WAL sync failed (${refusing.error.code}): changes are refused until a checkpoint makes every commit durable` : null;
    },
    /** The storage monitor hears of failures (app.ts), so the log and /health say it once. */
    reportTo(r: SyncReporter): void {
      reporter = r;
    },
    async close(): Promise<void> {
      clearTimeout(retry);
      await running?.done.catch(() => undefined);
      await next?.done.catch(() => undefined);
      if (handle) await (await handle.catch(() => null))?.close();
      handle = null;
    },
  };
}
export type DurabilityBarrier = ReturnType<typeof createDurabilityBarrier>;
