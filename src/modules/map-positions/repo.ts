// SQL for remembered map positions: read the account's live ideas' positions, upsert a batch in one statement.
import type { Store } from "../../db/store";
import type { Position } from "./model";

export function createMapPositionsRepo(store: Store) {
  // Only unarchived ideas of the account: an archived idea keeps its row but is not on the map.
  const list = store.query<Position, [string]>(
    `SELECT p.idea_id AS id, p.x, p.y FROM map_positions p JOIN ideas i ON i.id = p.idea_id
     WHERE p.user_id = ?1 AND i.user_id = ?1 AND i.is_archived = 0 ORDER BY p.idea_id`,
  );
  // The join with ideas drops ids that are not the account's, archived or gone, so they are ignored, never stored.
  // CROSS JOIN keeps the batch as the outer loop (each id looked up by primary key): with a plain JOIN SQLite put the
  // account's ideas outside and read the whole batch once per idea, ~28 s for 5,000 positions of a 10,000-idea account,
  // during which the server answered nothing else. The casts say the type PostgreSQL cannot take from JSON text.
  const upsert = store.query<never, [string, string, string]>(
    `INSERT INTO map_positions (user_id, idea_id, x, y, updated_at)
     SELECT ?1, i.id, CAST(json_extract(j.value, '$.x') AS REAL), CAST(json_extract(j.value, '$.y') AS REAL), ?3
     FROM json_each(?2) j CROSS JOIN ideas i ON i.id = json_extract(j.value, '$.id')
     WHERE i.user_id = ?1 AND i.is_archived = 0
     ON CONFLICT (user_id, idea_id) DO UPDATE SET x = excluded.x, y = excluded.y, updated_at = excluded.updated_at`,
  );
  const clear = store.query<never, [string]>("DELETE FROM map_positions WHERE user_id = ?1");
  return {
    listPositions: (userId: string) => list.all(userId),
    /** Returns how many rows were written (duplicates of an id in the batch count once per write). */
    upsertPositions: async (userId: string, positions: Position[], now: string) => (await upsert.run(userId, JSON.stringify(positions), now)).changes,
    clearPositions: async (userId: string) => (await clear.run(userId)).changes,
  };
}
