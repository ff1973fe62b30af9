// Review queue rules: stale threshold from the user's settings, the fixed 7-day connection window, duplicates, keep.
import type { Deps } from "../../deps";
import type { Plan } from "../../auth/plans";
import { notFound } from "../../errors";
import { addDays, fromStamp, toStamp } from "../../lib/time";
import { createUsersRepo } from "../users/repo";
import { parseSettings } from "../../contract";
import { createDuplicatesService } from "../duplicates/service";
import { ideaNotFound } from "../ideas/service";
import { createReviewRepo } from "./repo";
import { createIdeaEdits } from "../filing/repo";

export const CONNECTIONS_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

export function createReviewService(deps: Deps) {
  const repo = createReviewRepo(deps.store);
  const edits = createIdeaEdits(deps.store);
  const users = createUsersRepo(deps.store);
  const duplicates = createDuplicatesService(deps);

  /** What the queue is read against: the account's stale threshold and the two windows' starts. */
  async function windowOf(userId: string) {
    const user = await users.findById(userId);
    if (!user) throw notFound("User not found");
    const threshold = parseSettings(user.settings_json).stale_threshold_days;
    const now = deps.clock();
    return { now, threshold, staleBefore: toStamp(addDays(now, -threshold)), connectionsSince: toStamp(addDays(now, -CONNECTIONS_WINDOW_DAYS)) };
  }

  /**
   * The spec's counts; with a connected folder (docs/vault.md) also its conflict files, counted in the total (the badge
   * shows what waits for the person). Accounts without a folder get exactly the spec's shape.
   */
  const countsOf = (stale: number, connections: number, duplicates: number, vault: number | null = null) =>
    vault === null
      ? { stale, connections, duplicates, total: stale + connections + duplicates }
      : { stale, connections, duplicates, vault_conflicts: vault, total: stale + connections + duplicates + vault };

  return {
    async queue(userId: string, plan: Plan) {
      const w = await windowOf(userId);
      const stale = (await repo.stale(userId, w.staleBefore)).map((r) => ({
        ...r,
        // whole days since the last update, rounded down
        days_stale: Math.floor((w.now.getTime() - fromStamp(r.updated_at).getTime()) / DAY_MS),
      }));
      const connections = await repo.connectionsSince(userId, w.connectionsSince);
      const dups = (await duplicates.list(userId, plan)).duplicates;
      const vault = await repo.vaultConflicts(userId);
      return {
        stale,
        connections,
        duplicates: dups,
        ...(vault === null ? {} : { vault_conflicts: vault }),
        counts: countsOf(stale.length, connections.length, dups.length, vault?.length ?? null),
        stale_threshold_days: w.threshold,
      };
    },

    /**
     * The queue's counts without its items (docs/ideas.md, "Review counts"): what a badge shows. Counted in SQL over
     * the queue's own FROM and WHERE (repo.ts), against the same window, so the numbers always agree with `queue`;
     * `connection_ids` lets a client that hides connections itself (the web app's "kept") count them out.
     */
    async counts(userId: string, plan: Plan) {
      const w = await windowOf(userId);
      const connectionIds = await repo.connectionIdsSince(userId, w.connectionsSince);
      const vault = await repo.vaultConflicts(userId);
      return {
        counts: countsOf(await repo.countStale(userId, w.staleBefore), connectionIds.length, await duplicates.count(userId, plan), vault?.length ?? null),
        connection_ids: connectionIds,
        stale_threshold_days: w.threshold,
      };
    },

    /** "Keep": the idea leaves the stale group for another threshold period; nothing but updated_at changes. */
    async keep(userId: string, ideaId: number) {
      if (!(await edits.touch(userId, ideaId, toStamp(deps.clock())))) throw ideaNotFound();
      return { success: true as const };
    },
  };
}
