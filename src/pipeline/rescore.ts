// Re-scoring an account whose calibration moved: every pair score is taken over vectors minus what the account's ideas
// share (src/vectors/calibration.ts), so when that shared part changes, earlier detections and relations are re-judged.
import type { Store } from "../db/store";
import { hasAccountJobs } from "../jobs/queue";
import { createJobs } from "../modules/filing/jobs";
import type { VectorStore } from "../vectors/store";
import { lockAccount } from "../jobs/account-lock";

/**
 * An account is re-scored when its idea count moved by this share since the last time (or from nothing: an account
 * scored before calibration existed, or an import into an empty account). The centre is a mean, so a 25% change in
 * count moves it little; re-scoring on every change would cost a full pass per capture. It waits until the account
 * has no full pass queued (an import or a backlog is processed first). Each re-score queues the full
 * pass for every idea (the embedding is skipped: the text's vector is current), so its total cost stays within a few
 * passes over the account however it grows.
 */
export const RESCORE_GROWTH = 0.25;

/** scoredN −1: some ideas were stored without their steps (deferred) and wait for the re-scoring pass. */
export function needsRescore(n: number, scoredN: number): boolean {
  return n > 0 && (scoredN < 0 || Math.abs(n - scoredN) >= Math.max(1, scoredN * RESCORE_GROWTH));
}

/**
 * Whether the steps of an account's ideas in this batch should wait for the re-scoring pass: the batch adds
 * `added` new vectors and the account will be re-scored anyway (it grows by RESCORE_GROWTH, or already waits). An
 * import into an account is then judged once, over its final calibration, instead of once per idea with a centre
 * that is still moving and then again. A batch that adds nothing (re-scoring itself, edits) never waits.
 */
export async function deferSteps(store: VectorStore, userId: string, added: number): Promise<boolean> {
  if (added === 0) return false;
  const s = await store.shared(userId);
  return needsRescore(s.n + added, s.scoredN);
}

/** Queues the re-scoring pass for each of the accounts whose calibration moved; returns how many ideas were queued. */
export async function queueRescores(store: Store, vectors: VectorStore, userIds: Iterable<string>, now: string): Promise<number> {
  const jobs = createJobs(store);
  let queued = 0;
  for (const userId of userIds) {
    await store.tx(async () => {
      // Nodes finishing batches of one account at once decide its re-scoring one after the other (account-lock.ts).
      await lockAccount(store, userId);
      const s = await vectors.shared(userId);
      if (!needsRescore(s.n, s.scoredN)) return;
      // While the account still has full passes waiting (an import, a backlog) it keeps growing: one re-score once
      // they are done, not one per batch.
      if (await hasAccountJobs(store, "full", userId)) return;
      queued += await jobs.rescoringPass(userId, now);
      await vectors.markScored(userId);
    });
  }
  return queued;
}
