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

export const CONNECTIONS_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

export function createReviewService(deps: Deps) {
  const repo = createReviewRepo(deps.db);
  const users = createUsersRepo(deps.db);
  const duplicates = createDuplicatesService(deps);

  return {
    queue(userId: string, plan: Plan) {
      const user = users.findById(userId);
      if (!user) throw notFound("User not found");
      const threshold = parseSettings(user.settings_json).stale_threshold_days;
      const now = deps.clock();
      const stale = repo.stale(userId, toStamp(addDays(now, -threshold))).map((r) => ({
        ...r,
        // whole days since the last update, rounded down
        days_stale: Math.floor((now.getTime() - fromStamp(r.updated_at).getTime()) / DAY_MS),
      }));
      const connections = repo.connectionsSince(userId, toStamp(addDays(now, -CONNECTIONS_WINDOW_DAYS)));
      const dups = duplicates.list(userId, plan).duplicates;
      return {
        stale,
        connections,
        duplicates: dups,
        counts: { stale: stale.length, connections: connections.length, duplicates: dups.length, total: stale.length + connections.length + dups.length },
        stale_threshold_days: threshold,
      };
    },

    /**
     * The queue's counts without its items (docs/ideas.md, "Review counts"): what a badge shows. The same reading as
     * `queue`, so the numbers always agree; `connection_ids` lets a client that hides connections itself (the web
     * app's "kept") count them out.
     */
    counts(userId: string, plan: Plan) {
      const q = this.queue(userId, plan);
      return { counts: q.counts, connection_ids: q.connections.map((c) => c.id), stale_threshold_days: q.stale_threshold_days };
    },

    /** "Keep": the idea leaves the stale group for another threshold period; nothing but updated_at changes. */
    keep(userId: string, ideaId: number) {
      if (!repo.touch(userId, ideaId, toStamp(deps.clock()))) throw ideaNotFound();
      return { success: true as const };
    },
  };
}
