// Prepared SQL over one generation's vector tables: put/delete vectors, read them back, per-account KNN.
import type { Db } from "../db/open";
import type { Store } from "../db/store";
import { asScore, calibrate, type Centre, centreOf, dot } from "./calibration";
import { binaryCode, CodeCache } from "./codes";
import { NeighbourMemo } from "./neighbour-memo";
import type { Generation } from "./generation";
import { createIdeaStorage, upgradeIdeaTable } from "./layout";
import { evenSample, fitPacked, localCosine, SUBJECT_ROUNDS, SUBJECT_SAMPLE, subjectOf, type Subjects } from "./subjects";
import { fitInWorker } from "./subjects-fitter";
import { ideaTable, sharedTable, tagTable } from "./tables";

/**
 * Candidates the coarse pass hands to the exact rescoring: at least RESCORE_MIN, 4 × k, and 0.5% of the account
 * (RESCORE_SHARE). On USE-lite vectors of 20,000 real sentences plus distinct mixtures of them up to 100,000, the
 * asymmetric coarse pass (codes.ts) holds the exact top 20 with recall 0.998–0.999 at 100k with 500 candidates
 * (Hamming alone needed 1,000–1,500 for that); docs/performance.md has the curve. An account with no more ideas
 * than this has every idea rescored: its result is exact, and costs no more than vec0's exact scan did (measured at
 * 1,000 ideas), so small accounts need no separate exact path.
 */
export const RESCORE_MIN = 400;
/** Memory for the accounts' fitted subjects (see subjectsOf): ~2,000 accounts of 200 ideas, ~200 past 2,000 ideas. */
export const SUBJECT_CACHE_BYTES = 64 * 1024 * 1024;
/** Vectors read per slice for a fit in the worker (~2 MB, a few milliseconds), the event loop free between slices. */
export const FIT_READ_SLICE = 1_000;
export const RESCORE_SHARE = 0.005;
export const rescoreCount = (k: number, accountSize = 0) =>
  Math.max(RESCORE_MIN, 4 * k, Math.ceil(accountSize * RESCORE_SHARE));

/** "exact" scores every vector of the account in SQL (slower: the reference the benchmark and tests compare with). */
export type KnnMode = "quantized" | "exact";

export interface Neighbour {
  id: number;
  /** Ideas: the calibrated cosine in 0–1 (calibration.ts). Tags: cosine similarity (1 − cosine distance). */
  score: number;
}

/** vec0 hands vectors back as bytes; copy them so the Float32Array is aligned and owns its memory. */
const toVector = (bytes: Uint8Array | null | undefined): Float32Array | null =>
  bytes ? new Float32Array(bytes.slice().buffer) : null;

function createStore(db: Db, g: Generation) {
  const ideas = ideaTable(g.gen);
  const tags = tagTable(g.gen);
  const shared = sharedTable(g.gen);
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
    ideaRow: db.prepare<{ user_id: string; embedding: Uint8Array }, [number]>(`SELECT user_id, embedding FROM ${ideas} WHERE id = ?`),
    accountVecs: db.prepare<{ id: number; embedding: Uint8Array }, [string]>(`SELECT id, embedding FROM ${ideas} WHERE user_id = ?`),
    accountIds: db.prepare<{ id: number }, [string]>(`SELECT id FROM ${ideas} WHERE user_id = ? ORDER BY id`),
    vecsOf: db.prepare<{ id: number; embedding: Uint8Array }, [string, string]>(
      `SELECT v.id, v.embedding FROM json_each(?1) j CROSS JOIN ${ideas} v ON v.id = j.value WHERE v.user_id = ?2`,
    ),
    // The calibrated cosine in SQL (calibration.ts, calibratedCosineOf, for unit stored vectors): (a·q − c·q) / |a − c|
    // with a·q = 1 − dist(a, q) (q is unit) and a·c = (1 − dist(a, c))·|c|. ?1 q, ?2 c, ?3 c·q, ?4 |c|, ?5 c·c.
    calibratedExact: db.prepare<{ id: number; cos: number }, [Float32Array, Float32Array, number, number, number, string, number]>(
      `SELECT id, ((1 - vec_distance_cosine(embedding, ?1)) - ?3) / sqrt(max(1e-12, 1 - 2 * (1 - vec_distance_cosine(embedding, ?2)) * ?4 + ?5)) AS cos
       FROM ${ideas} WHERE user_id = ?6 ORDER BY cos DESC, id LIMIT ?7`,
    ),
    calibratedRescore: db.prepare<{ id: number; cos: number }, [Float32Array, Float32Array, number, number, number, string, string, number]>(
      `SELECT v.id, ((1 - vec_distance_cosine(v.embedding, ?1)) - ?3) / sqrt(max(1e-12, 1 - 2 * (1 - vec_distance_cosine(v.embedding, ?2)) * ?4 + ?5)) AS cos
       FROM json_each(?6) j CROSS JOIN ${ideas} v ON v.id = j.value WHERE v.user_id = ?7 ORDER BY cos DESC, v.id LIMIT ?8`,
    ),
    sharedGet: db.prepare<{ n: number; sum: Uint8Array; scored_n: number }, [string]>(`SELECT n, sum, scored_n FROM ${shared} WHERE user_id = ?`),
    sharedPut: db.prepare(
      `INSERT INTO ${shared} (user_id, n, sum, scored_n) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (user_id) DO UPDATE SET n = ?2, sum = ?3, scored_n = ?4`,
    ),
    sharedClear: db.prepare(`DELETE FROM ${shared}`),
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
    // The account's tags through vec0's KNN, the only query that uses the partition key: a plain `WHERE user_id = ?`
    // scans every account's tags (measured 107–160 ms at 12,000 tags, against 0.7 ms this way). k is vec0's maximum,
    // so an account of up to 4,096 tags has every tag scored; past that, the 4,096 nearest by raw cosine.
    accountTags: db.prepare<{ id: number; embedding: Uint8Array }, [Float32Array, string]>(
      `SELECT rowid AS id, embedding FROM ${tags} WHERE embedding MATCH ?1 AND k = 4096 AND user_id = ?2`,
    ),
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
  const neighbourMemo = new NeighbourMemo(db);
  // Subjects per account (subjects.ts), fitted when first needed after the account was (re-)scored: they move with
  // the calibration, i.e. when every pair is judged again. Kept by size, not by count (8 KB per subject: ~32 KB for an
  // account of 200 ideas, ~3 MB at 10,000): a fit over every idea of a large account costs seconds of the subjects
  // worker (subjects-fitter.ts), and with captures spread over a thousand accounts a cache of 32 accounts refitted
  // on nearly every pass (scripts/bench/pipeline-profile.ts: ~100 ms an idea under load).
  const subjectCache = new Map<string, { key: string; subjects: Subjects | null; bytes: number }>();
  const fitting = new Map<string, { key: string; done: Promise<void> }>();
  let subjectBytes = 0;
  /** Subjects are fitted anew when the account was re-scored since (its scored_n moved). */
  const subjectKey = (userId: string) => `${sharedRow(userId).scored_n}`;
  const cachedSubjects = (userId: string, key: string) => {
    const hit = subjectCache.get(userId);
    if (!hit || hit.key !== key) return undefined;
    subjectCache.delete(userId);
    subjectCache.set(userId, hit);
    return hit;
  };
  const remember = (userId: string, key: string, subjects: Subjects | null) => {
    const old = subjectCache.get(userId);
    if (old) (subjectCache.delete(userId), (subjectBytes -= old.bytes));
    const bytes = 200 + (subjects ? subjects.means.length * g.dim * 8 : 0);
    subjectCache.set(userId, { key, subjects, bytes });
    subjectBytes += bytes;
    for (const [oldest, entry] of subjectCache) {
      if (subjectBytes <= SUBJECT_CACHE_BYTES) break;
      subjectCache.delete(oldest);
      subjectBytes -= entry.bytes;
    }
  };
  /** The bound on a fit's sample: SUBJECT_SAMPLE, another only for a bench comparing bounds through the product. */
  let sampleBound = SUBJECT_SAMPLE;
  /**
   * The one reader of a fit's vectors: the account's ideas by id, evenly sampled down to the bound (evenSample),
   * packed in that order, with the account's centre. Read in slices of FIT_READ_SLICE; it yields after each, so a
   * caller on the event loop can let it go between them.
   */
  function* fitVectors(userId: string): Generator<void, { packed: Float32Array; n: number; centre: Centre; scale: number }> {
    const s = sharedRow(userId);
    const ids = q.accountIds.all(userId).map((r) => r.id);
    const sample = evenSample(ids, sampleBound);
    const packed = new Float32Array(sample.length * g.dim);
    let n = 0;
    for (let i = 0; i < sample.length; i += FIT_READ_SLICE) {
      const slice = sample.slice(i, i + FIT_READ_SLICE);
      const rows = new Map(q.vecsOf.all(JSON.stringify(slice), userId).map((r) => [r.id, r.embedding]));
      for (const id of slice) {
        const bytes = rows.get(id);
        if (bytes) packed.set(new Float32Array(bytes.slice().buffer), n++ * g.dim);
      }
      yield;
    }
    return { packed, n, centre: centreOf(s.sum, s.n), scale: ids.length / Math.max(1, n) };
  }
  /** fitVectors read to the end at once. */
  const readFitVectors = (userId: string) => {
    const reader = fitVectors(userId);
    for (;;) {
      const step = reader.next();
      if (step.done) return step.value;
    }
  };
  /** The account's subjects, fitted here and now when not known (a caller outside the pipeline; the pipeline awaits subjectsReady). */
  const subjectsOf = (userId: string): Subjects | null => {
    const key = subjectKey(userId);
    const hit = cachedSubjects(userId, key);
    if (hit) return hit.subjects;
    const { packed, n, centre, scale } = readFitVectors(userId);
    const subjects = fitPacked(packed, n, g.dim, centre, scale);
    remember(userId, key, subjects);
    return subjects;
  };
  /**
   * Fits the account's subjects in the subjects worker when they are not known for its current calibration; null
   * when they are. The vectors are read in slices (fitVectors) with the event loop free between them; the k-means
   * runs in the worker (a worker that cannot start or fails: here, as before, on the vectors read again, since the
   * worker was handed them). The same vectors give the same subjects either way.
   */
  const subjectsReady = (userId: string, onWorkerFailure?: (message: string) => void): Promise<void> | null => {
    const key = subjectKey(userId);
    if (cachedSubjects(userId, key)) return null;
    const running = fitting.get(userId);
    if (running && running.key === key) return running.done;
    const entry = { key, done: Promise.resolve() };
    entry.done = (async () => {
      await Promise.resolve(); // entry is in `fitting` before anything here can throw
      try {
        const reader = fitVectors(userId);
        let step = reader.next();
        for (; !step.done; step = reader.next()) await new Promise<void>((resolve) => setImmediate(resolve));
        const { packed, n, centre, scale } = step.value;
        let subjects: Subjects | null;
        try {
          subjects = await fitInWorker(packed, n, g.dim, centre, scale, SUBJECT_ROUNDS);
        } catch (e) {
          onWorkerFailure?.((e as Error).message);
          const again = readFitVectors(userId);
          subjects = fitPacked(again.packed, again.n, g.dim, again.centre, again.scale);
        }
        remember(userId, key, subjects);
      } finally {
        if (fitting.get(userId) === entry) fitting.delete(userId);
      }
    })();
    fitting.set(userId, entry);
    return entry.done;
  };

  return {
    generation: g,
    finalize: () => {
      Object.values(q).forEach((s) => s.finalize());
      neighbourMemo.finalize();
      codes.finalize();
    },
    putIdea(id: number, userId: string, vector: Float32Array, textHash: string): void {
      if (vector.length !== g.dim) throw new Error(`vector has ${vector.length} dimensions, generation ${g.gen} holds ${g.dim}`);
      const code = binaryCode(vector);
      const old = q.ideaRow.get(id);
      if (old) addShared(old.user_id, toVector(old.embedding)!, -1);
      q.putIdea.run(id, userId, vector, code, textHash);
      addShared(userId, vector, 1);
      codes.put(userId, id, code);
    },
    deleteIdea(id: number): boolean {
      codes.delete(id);
      const old = q.ideaRow.get(id);
      if (old) addShared(old.user_id, toVector(old.embedding)!, -1);
      return q.delIdea.run(id).changes > 0;
    },
    ideaHash: (id: number) => q.ideaHash.get(id)?.text_hash ?? null,
    ideaVector: (id: number) => toVector(q.ideaVec.get(id)?.embedding),
    /** What the account's vectors share (removed before scoring), and the idea count it was last re-scored at. */
    shared: (userId: string) => {
      const s = sharedRow(userId);
      return { centre: centreOf(s.sum, s.n), n: s.n, scoredN: s.scored_n };
    },
    /**
     * Resolves once the account's subjects for its current calibration are known, fitting them in the subjects
     * worker if need be; null when they are known already. The pipeline awaits it before an idea's steps, so the
     * duplicate score (localScores) never fits on the event loop.
     */
    subjectsReady,
    /** Drops the account's fitted subjects: the next pass fits them again (benches time a re-scoring pass with its fit). */
    forgetSubjects(userId: string): void {
      const old = subjectCache.get(userId);
      if (old) (subjectCache.delete(userId), (subjectBytes -= old.bytes));
    },
    /** Fits take at most `n` ideas instead of SUBJECT_SAMPLE (only for a bench comparing bounds through the product). */
    boundSubjectSample(n: number): void {
      sampleBound = Math.max(1, Math.floor(n));
    },
    /** Records that every idea of the account was queued for re-scoring at its current size. */
    markScored(userId: string): void {
      const s = sharedRow(userId);
      if (s.sum) q.sharedPut.run(userId, s.n, new Uint8Array(s.sum.buffer), s.n);
    },
    /** Records that the account's pairs wait for a re-scoring pass (some ideas were stored without their steps). */
    markDirty(userId: string): void {
      const s = sharedRow(userId);
      if (s.sum) q.sharedPut.run(userId, s.n, new Uint8Array(s.sum.buffer), -1);
    },
    /**
     * The duplicate score's cosine (0–1) of a vector against stored ideas of the account: the calibrated cosine with,
     * in addition, the mean of the two ideas' subjects removed (subjects.ts), each in proportion to its text's
     * specificity (`specific`: the vector's own and the others' by id, text-overlap.ts; 1 when not given). Ideas
     * without a vector here are absent.
     */
    localScores(userId: string, vector: Float32Array, others: number[], specific?: { mine: number; of: Map<number, number> }): Map<number, number> {
      const out = new Map<number, number>();
      if (others.length === 0) return out;
      const centre = this.shared(userId).centre;
      const subjects = subjectsOf(userId);
      const mine = subjects ? subjectOf(subjects, vector, centre) : 0;
      for (const r of q.vecsOf.all(JSON.stringify(others), userId)) {
        const v = toVector(r.embedding)!;
        const theirs = subjects ? subjectOf(subjects, v, centre) : 0;
        out.set(r.id, localCosine(vector, v, centre, subjects, mine, theirs, specific?.mine ?? 1, specific?.of.get(r.id) ?? 1));
      }
      return out;
    },
    /** The calibrated cosine (0–1) of two ideas of the account; null when either has no vector here. */
    pairScore(userId: string, a: number, b: number): number | null {
      const va = toVector(q.ideaVec.get(a)?.embedding);
      const vb = toVector(q.ideaVec.get(b)?.embedding);
      if (!va || !vb) return null;
      const centre = this.shared(userId).centre;
      return asScore(dot(calibrate(va, centre), calibrate(vb, centre)));
    },
    /** The calibrated cosine (0–1) of a vector and a stored idea of the account; null when the idea has no vector. */
    scoreAgainst(userId: string, vector: Float32Array, other: number): number | null {
      const vb = toVector(q.ideaVec.get(other)?.embedding);
      if (!vb) return null;
      const centre = this.shared(userId).centre;
      return asScore(dot(calibrate(vector, centre), calibrate(vb, centre)));
    },
    /**
     * Nearest ideas of one account, best first, scored by exact cosine: the account's binary codes are scanned in
     * memory (Hamming, then the float query against the codes; codes.ts) and only the best rescoreCount(k)
     * candidates get their exact cosine from the stored vectors. `mode` "exact" scores every vector instead (the
     * reference the benchmark and tests compare with). Semantic search and auto-tags use this raw cosine.
     */
    nearestIdeas(userId: string, vector: Float32Array, k: number, mode: KnnMode = "quantized"): Neighbour[] {
      const want = Math.max(1, Math.floor(k));
      if (mode === "exact") return toNeighbours(q.exactIdeas.all(vector, userId, want));
      const account = codes.account(userId);
      const candidates = account.nearest(vector, rescoreCount(want, account.size));
      return toNeighbours(q.rescoreIdeas.all(vector, JSON.stringify(candidates), userId, want));
    },
    /**
     * Nearest ideas of one account, best first, by calibrated cosine (the account's shared component removed;
     * calibration.ts): the pair score of duplicates and relations. The account's binary codes are scanned in memory
     * (Hamming on the raw query, then the calibrated query against the codes; codes.ts) and only the best
     * rescoreCount(k) candidates are scored exactly, in SQL, from the stored vectors. `mode` "exact" scores every
     * vector of the account instead (the reference).
     */
    nearestCalibrated(userId: string, vector: Float32Array, k: number, mode: KnnMode = "quantized"): Neighbour[] {
      const want = Math.max(1, Math.floor(k));
      const s = sharedRow(userId);
      // Kept while the account's vectors are as they were: their running sum and count stand for them (neighbour-memo.ts).
      const memoKey = mode === "quantized" ? neighbourMemo.key(userId, s.n, s.sum, vector, want) : null;
      const known = memoKey === null ? null : neighbourMemo.get(memoKey);
      if (known) return known;
      const centre = centreOf(s.sum, s.n);
      const query = calibrate(vector, centre);
      if (!centre) return this.nearestIdeas(userId, vector, want, mode);
      const cq = dot(centre, query);
      const cn = Math.sqrt(dot(centre, centre));
      const rows =
        mode === "exact"
          ? q.calibratedExact.all(query, centre, cq, cn, cn * cn, userId, want)
          : (() => {
              const account = codes.account(userId);
              const ids = account.nearest(query, rescoreCount(want, account.size), vector);
              return q.calibratedRescore.all(query, centre, cq, cn, cn * cn, JSON.stringify(ids), userId, want);
            })();
      const out = rows.map((r) => ({ id: r.id, score: asScore(r.cos) }));
      if (memoKey !== null) neighbourMemo.put(memoKey, out);
      return out;
    },
    /** Whether nearestCalibrated answers a query it answered before from memory (on by default; benches timing the query turn it off). */
    memoizeNeighbours: (on: boolean) => neighbourMemo.enable(on),
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
    /**
     * Nearest tags of the account by calibrated cosine (0–1): the tag's and the query's vectors with the account's
     * ideas' shared component removed, as pairs of ideas are scored. Accounts have few tags: every one is scored
     * (up to 4,096; see accountTags).
     */
    nearestTagsCalibrated(userId: string, vector: Float32Array, k: number): Neighbour[] {
      const centre = this.shared(userId).centre;
      const query = calibrate(vector, centre);
      return q.accountTags
        .all(vector, userId)
        .map((r) => ({ id: r.id, score: asScore(dot(query, calibrate(toVector(r.embedding)!, centre))) }))
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, Math.max(0, Math.floor(k)));
    },
    renamedTagIds: () => q.renamedTags.all().map((r) => r.id),

    /** Vectors of ideas or tags that no longer exist (account deleted, archive hook missed): never served, freed here. */
    pruneOrphans: () => {
      const n = q.orphanIdeas.run().changes + q.orphanTags.run().changes;
      if (n > 0) q.sharedClear.run(); // recomputed from the rows on next use (and the neighbour memo's keys with it)
      return n;
    },
  };

  /** The account's running sum; computed from its rows (and stored) when there is no row yet. */
  function sharedRow(userId: string): { n: number; sum: Float64Array | null; scored_n: number } {
    const row = q.sharedGet.get(userId);
    if (row) return { n: row.n, sum: new Float64Array(row.sum.slice().buffer), scored_n: row.scored_n };
    const rows = q.accountVecs.all(userId);
    if (rows.length === 0) return { n: 0, sum: null, scored_n: 0 };
    const sum = new Float64Array(g.dim);
    for (const r of rows) {
      const v = toVector(r.embedding)!;
      for (let i = 0; i < sum.length; i++) sum[i] += v[i];
    }
    // scored_n 0: pairs scored before this row existed (an older version, raw cosine) are re-scored (runner.ts).
    q.sharedPut.run(userId, rows.length, new Uint8Array(sum.buffer), 0);
    return { n: rows.length, sum, scored_n: 0 };
  }

  /** Adds (sign 1) or removes (sign −1) a vector from its account's running sum, when the account has one. */
  function addShared(userId: string, v: Float32Array, sign: 1 | -1): void {
    const row = q.sharedGet.get(userId);
    if (!row) return; // computed from the rows on first use, this vector included
    const sum = new Float64Array(row.sum.slice().buffer);
    for (let i = 0; i < sum.length; i++) sum[i] += sign * v[i];
    q.sharedPut.run(userId, Math.max(0, row.n + sign), new Uint8Array(sum.buffer), row.scored_n);
  }
}
export type VectorStore = ReturnType<typeof createStore>;

/**
 * The SQLite handle the vector tables live on: sqlite-vec (vec0 tag tables, vec_distance_cosine) is SQLite-only, so
 * this is where a vector feature asks for it. A store without one (PostgreSQL) has no vector index yet.
 */
export function vectorDb(store: Store): Db {
  if (!store.sqlite) throw new Error("the vector index needs the SQLite store (sqlite-vec)");
  return store.sqlite;
}

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
