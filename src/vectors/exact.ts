// Exact cosines over stored vectors, the one place where the two stores score differently: SQLite in SQL (sqlite-vec's
// vec_distance_cosine, and vec0's KNN for tags), PostgreSQL in JavaScript over the account's vectors held in memory
// (account-vectors.ts) or, for an account too large to hold, over the fetched rows (no extension).
import type { Store } from "../db/store";
import { tagIdColumn } from "./layout";

/** A stored vector's distance to the query: 1 − cosine, as sqlite-vec's vec_distance_cosine. */
export interface Distance {
  id: number;
  distance: number;
}

/** A calibrated cosine (calibration.ts), before it is clamped to a score. */
export interface Cosine {
  id: number;
  cos: number;
}

/** What the calibrated scores need besides the query: the centre and, computed once per query, c·q and |c|. */
export interface CalibratedQuery {
  query: Float32Array;
  centre: Float32Array;
  cq: number;
  cn: number;
}

export interface ExactScorer {
  /** The stored vectors of those of `ids` that are the account's (any order). */
  vectors(ids: number[], userId: string): Promise<Array<{ id: number; embedding: Uint8Array }>>;
  /** Every idea of the account by distance to `query` (ties by id), the best `k`. */
  ideas(query: Float32Array, userId: string, k: number): Promise<Distance[]>;
  /** The ideas among `ids` (the account's only) by distance, the best `k`. */
  nearestAmong(query: Float32Array, ids: number[], userId: string, k: number): Promise<Distance[]>;
  /** Every idea of the account by calibrated cosine, best first (ties by id), the best `k`. */
  calibrated(c: CalibratedQuery, userId: string, k: number): Promise<Cosine[]>;
  /** The ideas among `ids` by calibrated cosine, the best `k`. */
  calibratedNearestAmong(c: CalibratedQuery, ids: number[], userId: string, k: number): Promise<Cosine[]>;
  /** The account's tag vectors (every one up to 4,096; past that, the 4,096 nearest `near` by raw cosine). */
  accountTags(near: Float32Array, userId: string): Promise<Array<{ id: number; embedding: Uint8Array }>>;
  /** The account's `k` tags nearest `query`, by distance. */
  tags(query: Float32Array, userId: string, k: number): Promise<Distance[]>;
}

/** A vector's bytes as both stores bind a blob (float32, little-endian: what vec0 and the idea tables hold). */
export const vectorBytes = (v: Float32Array): Uint8Array => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/**
 * A stored vector as an aligned Float32Array of its own. Copied element by element: a PostgreSQL bytea arrives as a
 * Buffer that may be a view into a larger pooled buffer at any offset (Buffer's slice() shares it, so `.buffer` of one
 * is not the vector).
 */
export const toVector = (bytes: Uint8Array | null | undefined): Float32Array | null => {
  if (!bytes) return null;
  const out = new Float32Array(bytes.byteLength >> 2);
  new Uint8Array(out.buffer).set(bytes);
  return out;
};

/** The distance vec_distance_cosine computes (1 − a·b / (|a| |b|)); a zero vector is similar to nothing (distance 1). */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa === 0 || bb === 0 ? 1 : 1 - ab / (Math.sqrt(aa) * Math.sqrt(bb));
}

/**
 * The calibrated cosine of a stored vector as SQLite's statement computes it (for unit stored vectors):
 * (a·q − c·q) / |a − c| with a·q = 1 − dist(a, q) and a·c = (1 − dist(a, c))·|c|.
 */
export function calibratedCos(a: Float32Array, c: CalibratedQuery): number {
  const aq = 1 - cosineDistance(a, c.query);
  const ac = 1 - cosineDistance(a, c.centre);
  return (aq - c.cq) / Math.sqrt(Math.max(1e-12, 1 - 2 * ac * c.cn + c.cn * c.cn));
}

const byDistance = (a: Distance, b: Distance) => a.distance - b.distance || a.id - b.id;
const byCos = (a: Cosine, b: Cosine) => b.cos - a.cos || a.id - b.id;
const top = <T>(rows: T[], order: (a: T, b: T) => number, k: number) => rows.sort(order).slice(0, Math.max(0, k));

/** sqlite-vec refuses k above 4096. */
const clampK = (k: number) => Math.max(1, Math.min(4096, Math.floor(k)));

export function exactScorer(store: Store, ideas: string, tags: string): ExactScorer {
  return store.dialect === "sqlite" ? sqliteScorer(store, ideas, tags) : jsScorer(store, ideas, tags);
}

/** SQLite: the cosines in SQL, so only ids and scores cross into JavaScript. */
function sqliteScorer(store: Store, ideas: string, tags: string): ExactScorer {
  // Ties broken by id so both paths order equal scores alike.
  const exact = store.query<Distance, [Uint8Array, string, number]>(
    `SELECT id, vec_distance_cosine(embedding, ?1) AS distance FROM ${ideas} WHERE user_id = ?2
     ORDER BY distance, id LIMIT ?3`,
  );
  // CROSS JOIN: one primary-key lookup per candidate, never a walk of the account's rows.
  const nearestAmong = store.query<Distance, [Uint8Array, string, string, number]>(
    `SELECT v.id, vec_distance_cosine(v.embedding, ?1) AS distance FROM json_each(?2) j CROSS JOIN ${ideas} v ON v.id = j.value
     WHERE v.user_id = ?3 ORDER BY distance, v.id LIMIT ?4`,
  );
  // The calibrated cosine in SQL (calibratedCos): ?1 q, ?2 c, ?3 c·q, ?4 |c|, ?5 c·c.
  const calibrated = store.query<Cosine, [Uint8Array, Uint8Array, number, number, number, string, number]>(
    `SELECT id, ((1 - vec_distance_cosine(embedding, ?1)) - ?3) / sqrt(max(1e-12, 1 - 2 * (1 - vec_distance_cosine(embedding, ?2)) * ?4 + ?5)) AS cos
     FROM ${ideas} WHERE user_id = ?6 ORDER BY cos DESC, id LIMIT ?7`,
  );
  const calibratedNearestAmong = store.query<Cosine, [Uint8Array, Uint8Array, number, number, number, string, string, number]>(
    `SELECT v.id, ((1 - vec_distance_cosine(v.embedding, ?1)) - ?3) / sqrt(max(1e-12, 1 - 2 * (1 - vec_distance_cosine(v.embedding, ?2)) * ?4 + ?5)) AS cos
     FROM json_each(?6) j CROSS JOIN ${ideas} v ON v.id = j.value WHERE v.user_id = ?7 ORDER BY cos DESC, v.id LIMIT ?8`,
  );
  // The account's tags through vec0's KNN, the only query that uses the partition key: a plain `WHERE user_id = ?`
  // scans every account's tags (measured 107–160 ms at 12,000 tags, against 0.7 ms this way). k is vec0's maximum.
  const accountTags = store.query<{ id: number; embedding: Uint8Array }, [Uint8Array, string]>(
    `SELECT rowid AS id, embedding FROM ${tags} WHERE embedding MATCH ?1 AND k = 4096 AND user_id = ?2`,
  );
  const knnTags = store.query<Distance, [Uint8Array, number, string]>(
    `SELECT rowid AS id, distance FROM ${tags} WHERE embedding MATCH ? AND k = ? AND user_id = ?`,
  );
  const vectors = store.query<{ id: number; embedding: Uint8Array }, [string, string]>(
    `SELECT v.id, v.embedding FROM json_each(?1) j CROSS JOIN ${ideas} v ON v.id = j.value WHERE v.user_id = ?2`,
  );
  const args = (c: CalibratedQuery) => [vectorBytes(c.query), vectorBytes(c.centre), c.cq, c.cn, c.cn * c.cn] as const;
  return {
    vectors: (ids, userId) => vectors.all(JSON.stringify(ids), userId),
    ideas: (q, userId, k) => exact.all(vectorBytes(q), userId, k),
    nearestAmong: (q, ids, userId, k) => nearestAmong.all(vectorBytes(q), JSON.stringify(ids), userId, k),
    calibrated: (c, userId, k) => calibrated.all(...args(c), userId, k),
    calibratedNearestAmong: (c, ids, userId, k) => calibratedNearestAmong.all(...args(c), JSON.stringify(ids), userId, k),
    accountTags: (near, userId) => accountTags.all(vectorBytes(near), userId),
    tags: (q, userId, k) => knnTags.all(vectorBytes(q), clampK(k), userId),
  };
}

/**
 * PostgreSQL: the rows are read and scored here with the formulas of SQLite's statements (cosineDistance,
 * calibratedCos), in double precision, ties by id: the same vectors give the same order on both stores.
 */
function jsScorer(store: Store, ideas: string, tags: string): ExactScorer {
  type Row = { id: number; embedding: Uint8Array };
  const account = store.query<Row, [string]>(`SELECT id, embedding FROM ${ideas} WHERE user_id = ?`);
  // PostgreSQL's own words (this scorer runs nowhere else): the ids as one bigint[] probe the primary key, where
  // json_each's translation planned a hash join over every row of the account (on each exact pass and duplicate score).
  const some = store.query<Row, [string, string]>(`SELECT id, embedding FROM ${ideas} WHERE id = ANY(CAST(?1 AS bigint[])) AND user_id = ?2`);
  const idArray = (ids: number[]) => `{${ids.join(",")}}`;
  const accountTags = store.query<Row, [string]>(`SELECT ${tagIdColumn(store)} AS id, embedding FROM ${tags} WHERE user_id = ?`);
  const distances = (rows: Row[], q: Float32Array) => rows.map((r) => ({ id: r.id, distance: cosineDistance(toVector(r.embedding)!, q) }));
  const cosines = (rows: Row[], c: CalibratedQuery) => rows.map((r) => ({ id: r.id, cos: calibratedCos(toVector(r.embedding)!, c) }));
  return {
    vectors: (ids, userId) => some.all(idArray(ids), userId),
    ideas: async (q, userId, k) => top(distances(await account.all(userId), q), byDistance, k),
    nearestAmong: async (q, ids, userId, k) => top(distances(await some.all(idArray(ids), userId), q), byDistance, k),
    calibrated: async (c, userId, k) => top(cosines(await account.all(userId), c), byCos, k),
    calibratedNearestAmong: async (c, ids, userId, k) => top(cosines(await some.all(idArray(ids), userId), c), byCos, k),
    accountTags: async (near, userId) => {
      const rows = await accountTags.all(userId);
      if (rows.length <= 4096) return rows;
      const d = new Map(distances(rows, near).map((x) => [x.id, x.distance]));
      return top(rows, (a, b) => d.get(a.id)! - d.get(b.id)! || a.id - b.id, 4096);
    },
    tags: async (q, userId, k) => top(distances(await accountTags.all(userId), q), byDistance, clampK(k)),
  };
}

/**
 * PostgreSQL with the account's vectors in memory (account-vectors.ts): the same formulas and order as jsScorer, no
 * round trip. `ideas` null (an account too large to hold): idea vectors come from `fetched` (jsScorer), tags from memory.
 */
export function memoryScorer(ideas: Map<number, Float32Array> | null, tags: Map<number, Float32Array>, fetched: ExactScorer): ExactScorer {
  const asBytes = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const pick = (m: Map<number, Float32Array>, ids: number[]) => {
    const out: Array<{ id: number; v: Float32Array }> = [];
    for (const id of ids) {
      const v = m.get(id);
      if (v) out.push({ id, v });
    }
    return out;
  };
  const every = (m: Map<number, Float32Array>) => Array.from(m, ([id, v]) => ({ id, v }));
  type Held = { id: number; v: Float32Array };
  const distances = (rows: Held[], q: Float32Array) => rows.map((r) => ({ id: r.id, distance: cosineDistance(r.v, q) }));
  const cosines = (rows: Held[], c: CalibratedQuery) => rows.map((r) => ({ id: r.id, cos: calibratedCos(r.v, c) }));
  const tagRows = (near: Float32Array) => {
    const rows = every(tags);
    if (rows.length <= 4096) return rows;
    const d = new Map(distances(rows, near).map((x) => [x.id, x.distance]));
    return top(rows, (a, b) => d.get(a.id)! - d.get(b.id)! || a.id - b.id, 4096);
  };
  const tagPart = {
    accountTags: async (near: Float32Array) => tagRows(near).map((r) => ({ id: r.id, embedding: asBytes(r.v) })),
    tags: async (q: Float32Array, _userId: string, k: number) => top(distances(every(tags), q), byDistance, clampK(k)),
  };
  if (!ideas) return { ...fetched, ...tagPart };
  return {
    vectors: async (ids) => pick(ideas, ids).map((r) => ({ id: r.id, embedding: asBytes(r.v) })),
    ideas: async (q, _userId, k) => top(distances(every(ideas), q), byDistance, k),
    nearestAmong: async (q, ids, _userId, k) => top(distances(pick(ideas, ids), q), byDistance, k),
    calibrated: async (c, _userId, k) => top(cosines(every(ideas), c), byCos, k),
    calibratedNearestAmong: async (c, ids, _userId, k) => top(cosines(pick(ideas, ids), c), byCos, k),
    ...tagPart,
  };
}
