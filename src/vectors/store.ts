// Prepared SQL over one generation's vec0 tables: put/delete vectors, read them back, per-account KNN.
import type { Db } from "../db/open";
import type { Generation } from "./generations";
import { ideaTable, tagTable } from "./tables";

export interface Neighbour {
  id: number;
  /** Cosine similarity (1 − cosine distance). */
  score: number;
}

/** vec0 hands vectors back as bytes; copy them so the Float32Array is aligned and owns its memory. */
const toVector = (bytes: Uint8Array | null | undefined): Float32Array | null =>
  bytes ? new Float32Array(bytes.slice().buffer) : null;

function createStore(db: Db, g: Generation) {
  const ideas = ideaTable(g.gen);
  const tags = tagTable(g.gen);
  const q = {
    // vec0 has no UPSERT: delete, then insert, inside the caller's transaction.
    delIdea: db.prepare(`DELETE FROM ${ideas} WHERE rowid = ?`),
    insIdea: db.prepare(`INSERT INTO ${ideas} (rowid, user_id, embedding, text_hash) VALUES (?, ?, ?, ?)`),
    ideaHash: db.prepare<{ text_hash: string }, [number]>(`SELECT text_hash FROM ${ideas} WHERE rowid = ?`),
    ideaVec: db.prepare<{ embedding: Uint8Array }, [number]>(`SELECT embedding FROM ${ideas} WHERE rowid = ?`),
    knnIdeas: db.prepare<{ id: number; distance: number }, [Float32Array, number, string]>(
      `SELECT rowid AS id, distance FROM ${ideas} WHERE embedding MATCH ? AND k = ? AND user_id = ?`,
    ),
    delTag: db.prepare(`DELETE FROM ${tags} WHERE rowid = ?`),
    insTag: db.prepare(`INSERT INTO ${tags} (rowid, user_id, embedding, name) VALUES (?, ?, ?, ?)`),
    tagName: db.prepare<{ name: string }, [number]>(`SELECT name FROM ${tags} WHERE rowid = ?`),
    tagVec: db.prepare<{ embedding: Uint8Array }, [number]>(`SELECT embedding FROM ${tags} WHERE rowid = ?`),
    knnTags: db.prepare<{ id: number; distance: number }, [Float32Array, number, string]>(
      `SELECT rowid AS id, distance FROM ${tags} WHERE embedding MATCH ? AND k = ? AND user_id = ?`,
    ),
    renamedTags: db.prepare<{ id: number }, []>(
      `SELECT t.id FROM tags t JOIN ${tags} v ON v.rowid = t.id WHERE v.name <> t.name`,
    ),
    orphanIdeas: db.prepare(`DELETE FROM ${ideas} WHERE rowid NOT IN (SELECT id FROM ideas WHERE is_archived = 0)`),
    orphanTags: db.prepare(`DELETE FROM ${tags} WHERE rowid NOT IN (SELECT id FROM tags)`),
  };
  const toNeighbours = (rows: { id: number; distance: number }[]): Neighbour[] =>
    rows.map((r) => ({ id: r.id, score: 1 - r.distance }));
  // sqlite-vec refuses k above 4096.
  const clampK = (k: number) => Math.max(1, Math.min(4096, Math.floor(k)));

  return {
    generation: g,
    finalize: () => Object.values(q).forEach((s) => s.finalize()),
    putIdea(id: number, userId: string, vector: Float32Array, textHash: string): void {
      q.delIdea.run(id);
      q.insIdea.run(id, userId, vector, textHash);
    },
    deleteIdea: (id: number) => q.delIdea.run(id).changes > 0,
    ideaHash: (id: number) => q.ideaHash.get(id)?.text_hash ?? null,
    ideaVector: (id: number) => toVector(q.ideaVec.get(id)?.embedding),
    /** Nearest ideas of one account, best first (exact: vec0 scans the account's partition). */
    nearestIdeas: (userId: string, vector: Float32Array, k: number) => toNeighbours(q.knnIdeas.all(vector, clampK(k), userId)),

    putTag(id: number, userId: string, vector: Float32Array, name: string): void {
      q.delTag.run(id);
      q.insTag.run(id, userId, vector, name);
    },
    deleteTag: (id: number) => q.delTag.run(id).changes > 0,
    /** The name the stored vector was computed from; differs from the tag's name after a rename. */
    tagEmbeddedName: (id: number) => q.tagName.get(id)?.name ?? null,
    tagVector: (id: number) => toVector(q.tagVec.get(id)?.embedding),
    nearestTags: (userId: string, vector: Float32Array, k: number) => toNeighbours(q.knnTags.all(vector, clampK(k), userId)),
    renamedTagIds: () => q.renamedTags.all().map((r) => r.id),

    /** Vectors of ideas or tags that no longer exist (account deleted, archive hook missed): never served, freed here. */
    pruneOrphans: () => q.orphanIdeas.run().changes + q.orphanTags.run().changes,
  };
}
export type VectorStore = ReturnType<typeof createStore>;

// Statements are prepared once per generation; a dropped generation's entry is evicted before its tables vanish.
const cache = new WeakMap<Db, Map<number, VectorStore>>();

export function vectorStore(db: Db, g: Generation): VectorStore {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  let store = perDb.get(g.gen);
  if (!store) perDb.set(g.gen, (store = createStore(db, g)));
  return store;
}

/** Finalizes a generation's statements before its tables are dropped (DROP fails while statements hold them). */
export function forgetStore(db: Db, gen: number): void {
  const perDb = cache.get(db);
  perDb?.get(gen)?.finalize();
  perDb?.delete(gen);
}

/** Finalizes the statements of every cached generation not listed (another process dropped their tables). */
export function forgetStoresExcept(db: Db, live: Array<number | undefined>): void {
  for (const gen of [...(cache.get(db)?.keys() ?? [])]) if (!live.includes(gen)) forgetStore(db, gen);
}
