// Remembered mind-map positions: the web app saves where its layout put each idea and reads them back on the next
// visit (any device), so only ideas without a position are placed. Ids that are not the caller's live ideas are ignored.
import type { Deps } from "../../deps";
import { toStamp } from "../../lib/time";
import { createMapPositionsRepo } from "./repo";
import type { SavePositionsBody } from "./model";

export function createMapPositionsService(deps: Deps) {
  const repo = createMapPositionsRepo(deps.store);
  return {
    list: async (userId: string) => ({ positions: await repo.listPositions(userId) }),

    /** Upserts the given positions; others keep theirs. `saved` counts the ideas stored, `ignored` the rest. */
    async save(userId: string, body: SavePositionsBody) {
      const unique = new Map(body.positions.map((p) => [p.id, p]));
      const saved = unique.size === 0 ? 0 : await repo.upsertPositions(userId, [...unique.values()], toStamp(deps.clock()));
      return { saved, ignored: body.positions.length - saved };
    },

    /** Forgets every position of the account: the next visit lays the whole map out afresh. */
    clear: async (userId: string) => {
      await repo.clearPositions(userId);
      return { success: true as const };
    },
  };
}
