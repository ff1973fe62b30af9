// Embedding generations: one pair of vector tables per embedding model, and which pair answers searches while another is built.
import type { Db } from "../db/open";
import type { Store } from "../db/store";
import { readAppState, writeAppState } from "../db/app-state";
import { createIdeaStorage, upgradeIdeaTable } from "./layout";
import { forgetStore, vectorDb } from "./store";
import type { Generation } from "./generation";
import { ideaTable, sharedTable, tagTable } from "./tables";

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

export function readState(db: Db): EmbeddingState {
  return { ...EMPTY, ...readAppState<Partial<EmbeddingState>>(db, STATE_KEY) };
}

function writeState(db: Db, state: EmbeddingState, now: string): void {
  writeAppState(db, STATE_KEY, state, now);
}

const CHUNK_SIZE = 128;

const sameModel = (g: Generation | null, m: ModelIdentity) => !!g && g.model_id === m.model_id && g.dim === m.dim;

function createTables(db: Db, g: Generation): void {
  // Idea vectors: a plain table with binary codes for the coarse pass (layout.ts). Tag vectors stay in vec0: an
  // account has few tags, and vec0's exact scan over them is fast.
  createIdeaStorage(db, g.gen);
  // Partitioned by account: a KNN scans only the caller's vectors, so a huge neighbour can never crowd them out.
  // The auxiliary column remembers the name that was embedded, so an unchanged tag is never re-embedded.
  // vec0 allocates vector storage a chunk at a time; the default 1024-vector chunk made every 1024th insert stall
  // the writer for 30–70 ms (2 MB written at once). 128 removes the stalls and scans as fast (measured at 100k).
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${tagTable(g.gen)} USING vec0(
    user_id text partition key, embedding float[${g.dim}] distance_metric=cosine, +name text, chunk_size=${CHUNK_SIZE})`);
}

function dropTables(db: Db, gen: number): void {
  forgetStore(db, gen); // a prepared statement on a table would make DROP fail
  db.exec(`DROP TABLE IF EXISTS ${ideaTable(gen)}`);
  db.exec(`DROP TABLE IF EXISTS ${tagTable(gen)}`);
  db.exec(`DROP TABLE IF EXISTS ${sharedTable(gen)}`);
}

/**
 * Reconciles the stored state with the model this process loaded (IMMEDIATE, so a CLI `reindex` and the server
 * cannot both start a generation). Same model: nothing to do (an abandoned build is dropped). New model: a building
 * generation is started and the active one keeps answering until it is complete. `force` rebuilds even for the
 * same model. The very first generation becomes active at once: there is nothing older to keep serving.
 */
export function planGenerations(db: Db, want: ModelIdentity, now: string, opts: { force?: boolean } = {}): EmbeddingState {
  // Idea tables written by an older build (vec0) are converted first, once, so no search pays for it later.
  for (const g of [readState(db).active, readState(db).building]) {
    if (g && upgradeIdeaTable(db, g.gen) > 0) forgetStore(db, g.gen);
  }
  return db.transaction(() => {
    const s = readState(db);
    const fresh = (): Generation => {
      const g = { gen: s.next_gen, ...want };
      s.next_gen += 1;
      createTables(db, g);
      return g;
    };
    if (!s.active) {
      s.active = fresh();
    } else if (sameModel(s.active, want) && !opts.force) {
      // A forced rebuild of the same model keeps going; a build for another model is abandoned.
      if (s.building && !sameModel(s.building, want)) {
        dropTables(db, s.building.gen);
        s.building = null;
      }
    } else if (!(sameModel(s.building, want) && !opts.force)) {
      if (s.building) dropTables(db, s.building.gen);
      s.building = fresh();
    }
    writeState(db, s, now);
    return s;
  }).immediate();
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
  // The counts go through the store; the state record and the vector tables are the SQLite handle's (sqlite-vec), on
  // the same connection and so inside the same transaction.
  const db = vectorDb(store);
  return store.tx(async () => {
    const s = readState(db);
    if (!s.building) return null;
    const missing = await countMissing(store, s.building.gen);
    if (missing.ideas > 0 || missing.tags > 0) return null;
    if (s.active) dropTables(db, s.active.gen);
    s.active = s.building;
    s.building = null;
    writeState(db, s, now);
    return s.active;
  }, { immediate: true });
}
