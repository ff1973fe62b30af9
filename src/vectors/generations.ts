// Embedding generations: one pair of vector tables per embedding model, and which pair answers searches while another is built.
import type { Store } from "../db/store";
import { createGenerationTables, dropGenerationTables, upgradeIdeaTable } from "./layout";
import { forgetStore } from "./store";
import type { Generation } from "./generation";

export type { Generation };

/**
 * `active` answers searches and neighbour lookups. `building` exists only while a new model re-embeds everything in
 * the background; when it holds every vector it becomes `active` in one transaction and the old tables are dropped.
 */
export interface EmbeddingState {
  active: Generation | null;
  building: Generation | null;
  next_gen: number;
}

export type ModelIdentity = Omit<Generation, "gen">;

const STATE_KEY = "embeddings";
const EMPTY: EmbeddingState = { active: null, building: null, next_gen: 1 };

/** vectorize_id names the generation the vector lives in, so "embedded with an old model" is a prefix test. */
export const vectorId = (gen: number, id: number) => `g${gen}-${id}`;
/** [lo, hi) bounds of the vectorize_ids of one generation: an index range scan instead of a LIKE. */
export const vectorIdRange = (gen: number): [string, string] => [`g${gen}-`, `g${gen}.`];

/** Where new vectors must end up: the generation being built if any, else the active one. */
export const targetGeneration = (s: EmbeddingState): Generation | null => s.building ?? s.active;

// The state is app_state's "embeddings" record, read and written through the store (one statement each per store).
const readStmts = new WeakMap<Store, ReturnType<typeof stateStatements>>();
function stateStatements(store: Store) {
  return {
    get: store.query<{ value: string }, [string]>("SELECT value FROM app_state WHERE key = ?"),
    put: store.query<never, [string, string, string]>(
      `INSERT INTO app_state (key, value, updated_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ),
  };
}
const statementsOf = (store: Store) => {
  let s = readStmts.get(store);
  if (!s) readStmts.set(store, (s = stateStatements(store)));
  return s;
};

export async function readState(store: Store): Promise<EmbeddingState> {
  const row = await statementsOf(store).get.get(STATE_KEY);
  return { ...EMPTY, ...(row ? (JSON.parse(row.value) as Partial<EmbeddingState>) : {}) };
}

async function writeState(store: Store, state: EmbeddingState, now: string): Promise<void> {
  await statementsOf(store).put.run(STATE_KEY, JSON.stringify(state), now);
}

const sameModel = (g: Generation | null, m: ModelIdentity) => !!g && g.model_id === m.model_id && g.dim === m.dim;

async function dropTables(store: Store, gen: number): Promise<void> {
  forgetStore(store, gen); // its caches describe vectors that are about to go
  await dropGenerationTables(store, gen);
}

/**
 * Reconciles the stored state with the model this process loaded (IMMEDIATE, so a CLI `reindex` and the server
 * cannot both start a generation). Same model: nothing to do (an abandoned build is dropped). New model: a building
 * generation is started and the active one keeps answering until it is complete. `force` rebuilds even for the
 * same model. The very first generation becomes active at once: there is nothing older to keep serving.
 */
export async function planGenerations(store: Store, want: ModelIdentity, now: string, opts: { force?: boolean } = {}): Promise<EmbeddingState> {
  // Idea tables written by an older build (vec0) are converted first, once, so no search pays for it later.
  const before = await readState(store);
  for (const g of [before.active, before.building]) {
    if (g && (await upgradeIdeaTable(store, g.gen)) > 0) forgetStore(store, g.gen);
  }
  // The instance's lock (no TxOptions.lock): it makes and drops every account's vector tables, so no account's
  // immediate transaction (an account deletion clearing its rows from each of them) runs meanwhile.
  return store.tx(async () => {
    const s = await readState(store);
    // The live generations' tables, made again if missing (a table added since they were made: IF NOT EXISTS).
    for (const g of [s.active, s.building]) if (g) await createGenerationTables(store, g);
    const fresh = async (): Promise<Generation> => {
      const g = { gen: s.next_gen, ...want };
      s.next_gen += 1;
      await createGenerationTables(store, g);
      return g;
    };
    if (!s.active) {
      s.active = await fresh();
    } else if (sameModel(s.active, want) && !opts.force) {
      // A forced rebuild of the same model keeps going; a build for another model is abandoned.
      if (s.building && !sameModel(s.building, want)) {
        await dropTables(store, s.building.gen);
        s.building = null;
      }
    } else if (!(sameModel(s.building, want) && !opts.force)) {
      if (s.building) await dropTables(store, s.building.gen);
      s.building = await fresh();
    }
    await writeState(store, s, now);
    return s;
  }, { immediate: true });
}

/** Live ideas and tags that still lack a vector of generation `gen` (null vectorize_id counts for tags only). */
export async function countMissing(store: Store, gen: number): Promise<{ ideas: number; tags: number }> {
  const [lo, hi] = vectorIdRange(gen);
  const ideas = (await store.query<{ n: number }, [string, string]>(
    `SELECT count(*) AS n FROM ideas WHERE is_archived = 0 AND vectorize_id IS NOT NULL
       AND (vectorize_id < ?1 OR vectorize_id >= ?2)`,
  ).get(lo, hi))!.n;
  const tags = (await store.query<{ n: number }, [string, string]>(
    "SELECT count(*) AS n FROM tags WHERE vectorize_id IS NULL OR vectorize_id < ?1 OR vectorize_id >= ?2",
  ).get(lo, hi))!.n;
  return { ideas, tags };
}

/**
 * Makes the building generation active once nothing is missing from it, dropping the old tables in the same
 * transaction: searches see either the old complete index or the new complete one, never a half-built one.
 */
export async function switchIfComplete(store: Store, now: string): Promise<Generation | null> {
  // The instance's lock, as planGenerations: the old generation's tables, every account's, are dropped here.
  return store.tx(async () => {
    const s = await readState(store);
    if (!s.building) return null;
    const missing = await countMissing(store, s.building.gen);
    if (missing.ideas > 0 || missing.tags > 0) return null;
    if (s.active) await dropTables(store, s.active.gen);
    s.active = s.building;
    s.building = null;
    await writeState(store, s, now);
    return s.active;
  }, { immediate: true });
}
