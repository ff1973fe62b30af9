// Prepared SQL over one generation's vector tables: put/delete vectors, read them back, per-account KNN.
import type { Db } from "../db/open";
import { binaryCode, CodeCache } from "./codes";
import type { Generation } from "./generation";
import { createIdeaStorage, upgradeIdeaTable } from "./layout";
import { ideaTable, tagTable } from "./tables";

/**
 * Candidates the coarse pass hands to the exact rescoring: at least RESCORE_MIN, 4 × k, and 0.5% of the account
 * (RESCORE_SHARE). On USE-lite vectors of 20,000 real sentences plus distinct mixtures of them up to 100,000, the
 * asymmetric coarse pass (codes.ts) holds the exact top 20 with recall 0.998–0.999 at 100k with 500 candidates
 * (Hamming alone needed 1,000–1,500 for that); docs/performance.md has the curve. An account with no more ideas
 * than this has every idea rescored: its result is exact, and costs no more than vec0's exact scan did (measured at
 * 1,000 ideas), so small accounts need no separate exact path.
 */
export const RESCORE_MIN = 400;
export const RESCORE_SHARE = 0.005;
export const rescoreCount = (k: number, accountSize = 0) =>
  Math.max(RESCORE_MIN, 4 * k, Math.ceil(accountSize * RESCORE_SHARE));

/** "exact" scores every vector of the account in SQL (slower: the reference the benchmark and tests compare with). */
export type KnnMode = "quantized" | "exact";

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
  upgradeIdeaTable(db, g.gen);
  createIdeaStorage(db, g.gen);
  const q = {
    delIdea: db.prepare(`DELETE FROM ${ideas} WHERE id = ?`),
    putIdea: db.prepare(
      `INSERT INTO ${ideas} (id, user_id, embedding, code, text_hash) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (id) DO UPDATE SET user_id = ?2, embedding = ?3, code = ?4, text_hash = ?5`,
    ),
    ideaHash: db.prepare<{ text_hash: string }, [number]>(`SELECT text_hash FROM ${ideas} WHERE id = ?`),
    ideaVec: db.prepare<{ embedding: Uint8Array }, [number]>(`SELECT embedding FROM ${ideas} WHERE id = ?`),
    ideaCodes: db.prepare<{ id: number; code: Uint8Array }, [string]>(`SELECT id, code FROM ${ideas} WHERE user_id = ?`),
    // Ties broken by id so both paths order equal scores alike.
    exactIdeas: db.prepare<{ id: number; distance: number }, [Float32Array, string, number]>(
      `SELECT id, vec_distance_cosine(embedding, ?1) AS distance FROM ${ideas} WHERE user_id = ?2
       ORDER BY distance, id LIMIT ?3`,
    ),
    // CROSS JOIN: one primary-key lookup per candidate, never a walk of the account's rows.
    rescoreIdeas: db.prepare<{ id: number; distance: number }, [Float32Array, string, string, number]>(
      `SELECT v.id, vec_distance_cosine(v.embedding, ?1) AS distance FROM json_each(?2) j CROSS JOIN ${ideas} v ON v.id = j.value
       WHERE v.user_id = ?3 ORDER BY distance, v.id LIMIT ?4`,
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
    orphanIdeas: db.prepare(`DELETE FROM ${ideas} WHERE id NOT IN (SELECT id FROM ideas WHERE is_archived = 0)`),
    orphanTags: db.prepare(`DELETE FROM ${tags} WHERE rowid NOT IN (SELECT id FROM tags)`),
  };
  const toNeighbours = (rows: { id: number; distance: number }[]): Neighbour[] =>
    rows.map((r) => ({ id: r.id, score: 1 - r.distance }));
  // sqlite-vec refuses k above 4096.
  const clampK = (k: number) => Math.max(1, Math.min(4096, Math.floor(k)));
  const codes = new CodeCache(db, Math.ceil(g.dim / 32), (userId) => q.ideaCodes.all(userId));

  return {
    generation: g,
    finalize: () => {
      Object.values(q).forEach((s) => s.finalize());
      codes.finalize();
    },
    putIdea(id: number, userId: string, vector: Float32Array, textHash: string): void {
      if (vector.length !== g.dim) throw new Error(`vector has ${vector.length} dimensions, generation ${g.gen} holds ${g.dim}`);
      const code = binaryCode(vector);
      q.putIdea.run(id, userId, vector, code, textHash);
      codes.put(userId, id, code);
    },
    deleteIdea(id: number): boolean {
      codes.delete(id);
      return q.delIdea.run(id).changes > 0;
    },
    ideaHash: (id: number) => q.ideaHash.get(id)?.text_hash ?? null,
    ideaVector: (id: number) => toVector(q.ideaVec.get(id)?.embedding),
    /**
     * Nearest ideas of one account, best first, scored by exact cosine: the account's binary codes are scanned in
     * memory (Hamming, then the float query against the codes; codes.ts) and only the best rescoreCount(k)
     * candidates get their exact cosine from the stored vectors. `mode` "exact" scores every vector instead (the
     * reference the benchmark and tests compare with).
     */
    nearestIdeas(userId: string, vector: Float32Array, k: number, mode: KnnMode = "quantized"): Neighbour[] {
      const want = Math.max(1, Math.floor(k));
      if (mode === "exact") return toNeighbours(q.exactIdeas.all(vector, userId, want));
      const account = codes.account(userId);
      const candidates = account.nearest(vector, rescoreCount(want, account.size));
      return toNeighbours(q.rescoreIdeas.all(vector, JSON.stringify(candidates), userId, want));
    },
    /** Memory held by the in-memory codes of the accounts loaded so far. */
    codeBytes: () => codes.bytes(),

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
