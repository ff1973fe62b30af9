// Nodes planning the embedding generations at the same moment (their starts, a model change rolled out): one of them
// makes the generation, the others find it made, and every node comes away with the same state.
import { afterAll, describe, expect, test } from "bun:test";
import { pgStore } from "../../src/db/pg/store";
import type { Store } from "../../src/db/store";
import { planGenerations, type EmbeddingState } from "../../src/vectors/generations";
import { migratedDatabase, requirePostgres } from "../support/postgres";

const run = requirePostgres();
const NODES = 4;
const NOW = "2030-01-01 00:00:00";
const OLD = { model: "old", model_id: "old@1", dim: 64 };
const NEW = { model: "new", model_id: "new@1", dim: 32 };
const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
});

/** NODES stores (a pool each, as NODES processes have) on a fresh migrated database, each having run a statement. */
async function nodes(): Promise<Store[]> {
  const { url } = await migratedDatabase();
  const stores = Array.from({ length: NODES }, () => pgStore(url, { max: 2 }));
  opened.push(...stores);
  await Promise.all(stores.map((s) => s.query("SELECT 1 AS x").get()));
  return stores;
}

const summary = (s: EmbeddingState) => ({ active: s.active?.model_id ?? null, activeGen: s.active?.gen ?? null, building: s.building?.model_id ?? null, buildingGen: s.building?.gen ?? null, next_gen: s.next_gen });
const vectorTables = async (store: Store) =>
  (await store.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'vec\\_ideas\\_g%' ORDER BY 1").all()).map((t) => t.name);

describe.skipIf(!run)("planning embedding generations from several nodes at once (PostgreSQL)", () => {
  test("on an empty database every node starts together: one generation is made, every node gets it, none fails", async () => {
    for (let round = 0; round < 3; round++) {
      const stores = await nodes();
      const states = await Promise.all(stores.map((s) => planGenerations(s, OLD, NOW)));
      for (const s of states) expect(summary(s)).toEqual({ active: "old@1", activeGen: 1, building: null, buildingGen: null, next_gen: 2 });
      expect(await vectorTables(stores[0])).toEqual(["vec_ideas_g1"]);
    }
  }, 60_000);

  test("a new model reaching every node at once starts one build beside the active generation", async () => {
    const stores = await nodes();
    await planGenerations(stores[0], OLD, NOW);
    const states = await Promise.all(stores.map((s) => planGenerations(s, NEW, NOW)));
    for (const s of states) expect(summary(s)).toEqual({ active: "old@1", activeGen: 1, building: "new@1", buildingGen: 2, next_gen: 3 });
    expect(await vectorTables(stores[0])).toEqual(["vec_ideas_g1", "vec_ideas_g2"]);
  }, 60_000);
});
