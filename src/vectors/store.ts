// Prepared statements over one generation's vector tables, on either store: put/delete vectors, read them back, per-account KNN.
import type { Store } from "../db/store";
import { asScore, calibrate, type Centre, centreOf, dot } from "./calibration";
import { AccountVectorCache, type Shared } from "./account-vectors";
import { binaryCode, CodeCache, type AccountCodes } from "./codes";
import { exactScorer, memoryScorer, toVector, vectorBytes, type CalibratedQuery, type ExactScorer } from "./exact";
import { NeighbourMemo } from "./neighbour-memo";
import type { Generation } from "./generation";
import { tagIdColumn } from "./layout";
import { evenSample, fitPacked, localCosine, SUBJECT_ROUNDS, SUBJECT_SAMPLE, subjectOf, type Subjects } from "./subjects";
import { fitInWorker } from "./subjects-fitter";
import { ideaTable, sharedTable, tagTable } from "./tables";

/**
 * Candidates the coarse pass hands to the exact pass: at least EXACT_POOL_MIN, 4 × k, and 0.5% of the account
 * (EXACT_POOL_SHARE). On USE-lite vectors of 20,000 real sentences plus distinct mixtures of them up to 100,000, the
 * asymmetric coarse pass (codes.ts) holds the exact top 20 with recall 0.998–0.999 at 100k with 500 candidates
 * (Hamming alone needed 1,000–1,500 for that); docs/performance.md has the curve. An account with no more ideas
 * than this has every idea scored exactly: its result is exact, and costs no more than vec0's exact scan did (measured at
 * 1,000 ideas), so small accounts need no separate exact path.
 */
export const EXACT_POOL_MIN = 400;
/** Memory for the accounts' fitted subjects (see subjectsOf): ~2,000 accounts of 200 ideas, ~200 past 2,000 ideas. */
export const SUBJECT_CACHE_BYTES = 64 * 1024 * 1024;
/** Vectors read per slice for a fit in the worker (~2 MB, a few milliseconds), the event loop free between slices. */
export const FIT_READ_SLICE = 1_000;
export const EXACT_POOL_SHARE = 0.005;
export const exactPoolSize = (k: number, accountSize = 0) =>
  Math.max(EXACT_POOL_MIN, 4 * k, Math.ceil(accountSize * EXACT_POOL_SHARE));

/** "exact" scores every vector of the account exactly (slower: the reference the benchmark and tests compare with). */
export type KnnMode = "quantized" | "exact";

export interface Neighbour {
  id: number;
  /** Ideas: the calibrated cosine in 0–1 (calibration.ts). Tags: cosine similarity (1 − cosine distance). */
  score: number;
}

/** The store's SQLite commit counter (PRAGMA data_version: moves when another connection commits); null on PostgreSQL. */
function dataVersionOf(store: Store): (() => number) | null {
  const db = store.sqlite;
  if (!db) return null;
  const pragma = db.query<{ data_version: number }, []>("PRAGMA data_version");
  return () => pragma.get()!.data_version;
}

function createStore(store: Store, g: Generation) {
  const ideas = ideaTable(g.gen);
  const tags = tagTable(g.gen);
  const shared = sharedTable(g.gen);
  const tid = tagIdColumn(store);
  type Bytes = Uint8Array;
  const q = {
    delIdea: store.query<never, [number]>(`DELETE FROM ${ideas} WHERE id = ?`),
    putIdea: store.query<never, [number, string, Bytes, Bytes, string]>(
      `INSERT INTO ${ideas} (id, user_id, embedding, code, text_hash) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (id) DO UPDATE SET user_id = ?2, embedding = ?3, code = ?4, text_hash = ?5`,
    ),
    ideaHash: store.query<{ text_hash: string }, [number]>(`SELECT text_hash FROM ${ideas} WHERE id = ?`),
    ideaVec: store.query<{ embedding: Bytes }, [number]>(`SELECT embedding FROM ${ideas} WHERE id = ?`),
    ideaRow: store.query<{ user_id: string; embedding: Bytes }, [number]>(`SELECT user_id, embedding FROM ${ideas} WHERE id = ?`),
    accountVecs: store.query<{ id: number; embedding: Bytes }, [string]>(`SELECT id, embedding FROM ${ideas} WHERE user_id = ?`),
    accountIds: store.query<{ id: number }, [string]>(`SELECT id FROM ${ideas} WHERE user_id = ? ORDER BY id`),
    sharedGet: store.query<{ n: number; sum: Bytes; scored_n: number }, [string]>(`SELECT n, sum, scored_n FROM ${shared} WHERE user_id = ?`),
    sharedPut: store.query<never, [string, number, Bytes, number]>(
      `INSERT INTO ${shared} (user_id, n, sum, scored_n) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (user_id) DO UPDATE SET n = ?2, sum = ?3, scored_n = ?4`,
    ),
    sharedClear: store.query<never, []>(`DELETE FROM ${shared}`),
    awaitingRescore: store.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${shared} s JOIN ${ideas} v ON v.user_id = s.user_id WHERE s.scored_n < 0`),
    ideaCodes: store.query<{ id: number; code: Bytes }, [string]>(`SELECT id, code FROM ${ideas} WHERE user_id = ?`),
    delTag: store.query<never, [number]>(`DELETE FROM ${tags} WHERE ${tid} = ?`),
    insTag: store.query<never, [number, string, Bytes, string]>(`INSERT INTO ${tags} (${tid}, user_id, embedding, name) VALUES (?, ?, ?, ?)`),
    tagName: store.query<{ name: string }, [number]>(`SELECT name FROM ${tags} WHERE ${tid} = ?`),
    tagVec: store.query<{ embedding: Bytes }, [number]>(`SELECT embedding FROM ${tags} WHERE ${tid} = ?`),
    renamedTags: store.query<{ id: number }, []>(`SELECT t.id FROM tags t JOIN ${tags} v ON v.${tid} = t.id WHERE v.name <> t.name`),
    orphanIdeas: store.query<never, []>(`DELETE FROM ${ideas} WHERE id NOT IN (SELECT id FROM ideas WHERE is_archived = 0)`),
    orphanTags: store.query<never, []>(`DELETE FROM ${tags} WHERE ${tid} NOT IN (SELECT id FROM tags)`),
    tagUser: store.query<{ user_id: string }, [number]>(`SELECT user_id FROM ${tags} WHERE ${tid} = ?`),
    ideaCount: store.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${ideas} WHERE user_id = ?`),
    accountRows: store.query<{ id: number; embedding: Bytes; code: Bytes }, [string]>(`SELECT id, embedding, code FROM ${ideas} WHERE user_id = ?`),
    accountTagRows: store.query<{ id: number; embedding: Bytes }, [string]>(`SELECT ${tid} AS id, embedding FROM ${tags} WHERE user_id = ?`),
  };
  // The exact cosines: in SQL on SQLite, over the fetched rows on PostgreSQL (exact.ts, the one place they differ).
  const exact = exactScorer(store, ideas, tags);
  const toNeighbours = (rows: { id: number; distance: number }[]): Neighbour[] =>
    rows.map((r) => ({ id: r.id, score: 1 - r.distance }));
  const dataVersion = dataVersionOf(store);
  const codes = new CodeCache(dataVersion, Math.ceil(g.dim / 32), (userId) => q.ideaCodes.all(userId));
  // PostgreSQL: each account's vectors and codes in memory, checked against its stamp per query (account-vectors.ts).
  // SQLite keeps its codes in `codes` and scores in SQL over its local file.
  const held = store.dialect === "postgres"
    ? new AccountVectorCache(store, g.gen, g.dim, {
      shared: (userId) => storedShared(userId),
      ideaCount: async (userId) => (await q.ideaCount.get(userId))!.n,
      ideas: (userId) => q.accountRows.all(userId),
      codes: (userId) => q.ideaCodes.all(userId),
      tags: (userId) => q.accountTagRows.all(userId),
    })
    : null;
  /** One account's codes and exact scorer for one operation (on PostgreSQL: one stamp read, then memory). */
  async function viewOf(userId: string): Promise<{ shared: Shared; codes: () => Promise<AccountCodes>; exact: ExactScorer; idea: (id: number) => Promise<Float32Array | null> }> {
    const fromDb = async (id: number) => toVector((await q.ideaVec.get(id))?.embedding);
    if (!held) return { shared: await storedShared(userId), codes: () => codes.account(userId), exact, idea: fromDb };
    const e = await held.account(userId);
    return {
      shared: e.shared,
      codes: async () => e.codes,
      exact: memoryScorer(e.ideas, e.tags, exact),
      idea: async (id) => (e.ideas ? (e.ideas.get(id) ?? null) : fromDb(id)),
    };
  }
  /** PostgreSQL: a write of the account's vectors and its stamp in one transaction (account-vectors.ts); SQLite: the write. */
  const stamped = <T>(write: () => Promise<T>): Promise<T> => (held ? store.tx(write) : write());
  const neighbourMemo = new NeighbourMemo(dataVersion);
  // Subjects per account (subjects.ts), fitted when first needed after the account was (re-)scored: they move with
  // the calibration, i.e. when every pair is judged again. Kept by size, not by count (8 KB per subject: ~32 KB for an
  // account of 200 ideas, ~3 MB at 10,000): a fit over every idea of a large account costs seconds of the subjects
  // worker (subjects-fitter.ts), and with captures spread over a thousand accounts a cache of 32 accounts refitted
  // on nearly every pass (scripts/bench/pipeline-profile.ts: ~100 ms an idea under load).
  const subjectCache = new Map<string, { key: string; subjects: Subjects | null; bytes: number }>();
  const fitting = new Map<string, { key: string; done: Promise<void> }>();
  let subjectBytes = 0;
  /** Subjects are fitted anew when the account was re-scored since (its scored_n moved). */
  const subjectKey = async (userId: string, known?: Shared) => `${(known ?? (await sharedRow(userId))).scored_n}`;
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
   * packed in that order, with the account's centre. Read in slices of FIT_READ_SLICE, `pause` awaited after each,
   * so a caller on the event loop can let it go between them.
   */
  async function fitVectors(userId: string, pause?: () => Promise<void>) {
    const view = await viewOf(userId);
    const s = view.shared;
    const ids = (await q.accountIds.all(userId)).map((r) => r.id);
    const sample = evenSample(ids, sampleBound);
    const packed = new Float32Array(sample.length * g.dim);
    let n = 0;
    for (let i = 0; i < sample.length; i += FIT_READ_SLICE) {
      const slice = sample.slice(i, i + FIT_READ_SLICE);
      const rows = new Map((await view.exact.vectors(slice, userId)).map((r) => [r.id, r.embedding]));
      for (const id of slice) {
        const bytes = rows.get(id);
        if (bytes) packed.set(toVector(bytes)!, n++ * g.dim);
      }
      await pause?.();
    }
    return { packed, n, centre: centreOf(s.sum, s.n), scale: ids.length / Math.max(1, n) };
  }
  /** The account's subjects, fitted here and now when not known (a caller outside the pipeline; the pipeline awaits subjectsReady). */
  const subjectsOf = async (userId: string, known?: Shared): Promise<Subjects | null> => {
    const key = await subjectKey(userId, known);
    const hit = cachedSubjects(userId, key);
    if (hit) return hit.subjects;
    const { packed, n, centre, scale } = await fitVectors(userId);
    const subjects = fitPacked(packed, n, g.dim, centre, scale);
    remember(userId, key, subjects);
    return subjects;
  };
  /**
   * Fits the account's subjects in the subjects worker when they are not known for its current calibration. The
   * vectors are read in slices (fitVectors) with the event loop free between them; the k-means runs in the worker (a
   * worker that cannot start or fails: here, as before, on the vectors read again, since the worker was handed them).
   * The same vectors give the same subjects either way.
   */
  const subjectsReady = async (userId: string, onWorkerFailure?: (message: string) => void): Promise<void> => {
    const key = await subjectKey(userId);
    if (cachedSubjects(userId, key)) return;
    const running = fitting.get(userId);
    if (running && running.key === key) return running.done;
    const entry = { key, done: Promise.resolve() };
    entry.done = (async () => {
      await Promise.resolve(); // entry is in `fitting` before anything here can throw
      try {
        const { packed, n, centre, scale } = await fitVectors(userId, () => new Promise<void>((resolve) => setImmediate(resolve)));
        let subjects: Subjects | null;
        try {
          subjects = await fitInWorker(packed, n, g.dim, centre, scale, SUBJECT_ROUNDS);
        } catch (e) {
          onWorkerFailure?.((e as Error).message);
          const again = await fitVectors(userId);
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

  /** What the account's vectors share (removed before scoring), and the idea count it was last re-scored at. */
  const sharedOf = async (userId: string) => {
    const s = await sharedRow(userId);
    return { centre: centreOf(s.sum, s.n), n: s.n, scoredN: s.scored_n };
  };

  /**
   * Nearest ideas of one account, best first, scored by exact cosine: the account's binary codes are scanned in
   * memory (Hamming, then the float query against the codes; codes.ts) and only the best exactPoolSize(k)
   * candidates get their exact cosine from the stored vectors. `mode` "exact" scores every vector instead (the
   * reference the benchmark and tests compare with). Semantic search and auto-tags use this raw cosine.
   */
  async function nearestIdeas(userId: string, vector: Float32Array, k: number, mode: KnnMode = "quantized"): Promise<Neighbour[]> {
    const want = Math.max(1, Math.floor(k));
    const view = await viewOf(userId);
    if (mode === "exact") return toNeighbours(await view.exact.ideas(vector, userId, want));
    const account = await view.codes();
    const candidates = account.nearest(vector, exactPoolSize(want, account.size));
    return toNeighbours(await view.exact.nearestAmong(vector, candidates, userId, want));
  }

  return {
    generation: g,
    async putIdea(id: number, userId: string, vector: Float32Array, textHash: string): Promise<void> {
      if (vector.length !== g.dim) throw new Error(`vector has ${vector.length} dimensions, generation ${g.gen} holds ${g.dim}`);
      const code = binaryCode(vector);
      await stamped(async () => {
        const old = await q.ideaRow.get(id);
        let stamp = 0;
        let oldStamp = 0;
        if (held) {
          const own = Float32Array.from(vector);
          if (old && old.user_id !== userId) oldStamp = await held.bump(old.user_id, (e) => (e.ideas?.delete(id), e.codes.delete(id)));
          stamp = await held.bump(userId, (e) => (e.ideas?.set(id, own), e.codes.put(id, code)));
        }
        if (old) await addShared(old.user_id, toVector(old.embedding)!, -1, old.user_id === userId ? stamp : oldStamp);
        await q.putIdea.run(id, userId, vectorBytes(vector), code, textHash);
        await addShared(userId, vector, 1, stamp);
      });
      codes.put(userId, id, code);
    },
    async deleteIdea(id: number): Promise<boolean> {
      codes.delete(id);
      return stamped(async () => {
        const old = await q.ideaRow.get(id);
        const stamp = old && held ? await held.bump(old.user_id, (e) => (e.ideas?.delete(id), e.codes.delete(id))) : 0;
        if (old) await addShared(old.user_id, toVector(old.embedding)!, -1, stamp);
        return (await q.delIdea.run(id)).changes > 0;
      });
    },
    ideaHash: async (id: number) => (await q.ideaHash.get(id))?.text_hash ?? null,
    ideaVector: async (id: number) => toVector((await q.ideaVec.get(id))?.embedding),
    shared: sharedOf,
    /**
     * Resolves once the account's subjects for its current calibration are known, fitting them in the subjects
     * worker if need be. The pipeline awaits it before an idea's steps, so the duplicate score (localScores) never
     * fits on the event loop.
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
    markScored: (userId: string) => markScoredAt(userId, (s) => s.n),
    /**
     * Records that the account's pairs wait for a re-scoring pass (some ideas were stored without their steps). Under
     * the account's lock (account-lock.ts), as the runner calls it: then nobody can mark it scored between the read
     * and the write, and an account already waiting (each idea of an import after the first) costs one read, not a
     * stamped write of the same value.
     */
    markDirty: async (userId: string): Promise<void> => {
      if ((await q.sharedGet.get(userId))?.scored_n === -1) return;
      await markScoredAt(userId, () => -1);
    },
    /**
     * Embedded ideas of accounts whose re-scoring pass is not queued yet: an import's, stored without their steps,
     * between their vectors and the pass queued when the last of them is done (GET /health counts them as
     * re-scoring, so it never says nothing is left while their relations and duplicates are still to come). Queueing
     * the pass marks the account scored, so no idea is counted here and as a queued pass at once, but for an edit's
     * pass within an import (still work left).
     */
    awaitingRescore: async () => Number((await q.awaitingRescore.get())!.n),
    /**
     * The duplicate score's cosine (0–1) of a vector against stored ideas of the account: the calibrated cosine with,
     * in addition, the mean of the two ideas' subjects removed (subjects.ts), each in proportion to its text's
     * specificity (`specific`: the vector's own and the others' by id, text-overlap.ts; 1 when not given). Ideas
     * without a vector here are absent.
     */
    async localScores(userId: string, vector: Float32Array, others: number[], specific?: { mine: number; of: Map<number, number> }): Promise<Map<number, number>> {
      const out = new Map<number, number>();
      if (others.length === 0) return out;
      const view = await viewOf(userId);
      const centre = centreOf(view.shared.sum, view.shared.n);
      const subjects = await subjectsOf(userId, view.shared);
      const mine = subjects ? subjectOf(subjects, vector, centre) : 0;
      for (const r of await view.exact.vectors(others, userId)) {
        const v = toVector(r.embedding)!;
        const theirs = subjects ? subjectOf(subjects, v, centre) : 0;
        out.set(r.id, localCosine(vector, v, centre, subjects, mine, theirs, specific?.mine ?? 1, specific?.of.get(r.id) ?? 1));
      }
      return out;
    },
    /** The calibrated cosine (0–1) of two ideas of the account; null when either has no vector here. */
    async pairScore(userId: string, a: number, b: number): Promise<number | null> {
      const view = await viewOf(userId);
      const va = await view.idea(a);
      const vb = await view.idea(b);
      if (!va || !vb) return null;
      const centre = centreOf(view.shared.sum, view.shared.n);
      return asScore(dot(calibrate(va, centre), calibrate(vb, centre)));
    },
    /** The calibrated cosine (0–1) of a vector and a stored idea of the account; null when the idea has no vector. */
    async scoreAgainst(userId: string, vector: Float32Array, other: number): Promise<number | null> {
      const view = await viewOf(userId);
      const vb = await view.idea(other);
      if (!vb) return null;
      const centre = centreOf(view.shared.sum, view.shared.n);
      return asScore(dot(calibrate(vector, centre), calibrate(vb, centre)));
    },
    nearestIdeas,
    /**
     * Nearest ideas of one account, best first, by calibrated cosine (the account's shared component removed;
     * calibration.ts): the pair score of duplicates and relations. The account's binary codes are scanned in memory
     * (Hamming on the raw query, then the calibrated query against the codes; codes.ts) and only the best
     * exactPoolSize(k) candidates are scored exactly from the stored vectors. `mode` "exact" scores every vector of the
     * account instead (the reference).
     */
    async nearestCalibrated(userId: string, vector: Float32Array, k: number, mode: KnnMode = "quantized"): Promise<Neighbour[]> {
      const want = Math.max(1, Math.floor(k));
      const view = await viewOf(userId);
      const s = view.shared;
      // Kept while the account's vectors are as they were: their running sum and count stand for them (neighbour-memo.ts).
      const memoKey = mode === "quantized" ? neighbourMemo.key(userId, s.n, s.sum, vector, want) : null;
      const known = memoKey === null ? null : neighbourMemo.get(memoKey);
      if (known) return known;
      const centre = centreOf(s.sum, s.n);
      const query = calibrate(vector, centre);
      if (!centre) return nearestIdeas(userId, vector, want, mode);
      const cn = Math.sqrt(dot(centre, centre));
      const c: CalibratedQuery = { query, centre, cq: dot(centre, query), cn };
      let rows;
      if (mode === "exact") rows = await view.exact.calibrated(c, userId, want);
      else {
        const account = await view.codes();
        const ids = account.nearest(query, exactPoolSize(want, account.size), vector);
        rows = await view.exact.calibratedNearestAmong(c, ids, userId, want);
      }
      const out = rows.map((r) => ({ id: r.id, score: asScore(r.cos) }));
      if (memoKey !== null) neighbourMemo.put(memoKey, out);
      return out;
    },
    /** Whether nearestCalibrated answers a query it answered before from memory (on by default; benches timing the query turn it off). */
    memoizeNeighbours: (on: boolean) => neighbourMemo.enable(on),
    /** Memory held by the in-memory codes of the accounts loaded so far. */
    codeBytes: () => (held ? held.bytes() : codes.bytes()),

    async putTag(id: number, userId: string, vector: Float32Array, name: string): Promise<void> {
      await stamped(async () => {
        if (held) {
          const own = Float32Array.from(vector);
          await held.bump(userId, (e) => e.tags.set(id, own));
        }
        await q.delTag.run(id);
        await q.insTag.run(id, userId, vectorBytes(vector), name);
      });
    },
    deleteTag: (id: number) =>
      stamped(async () => {
        const owner = held ? await q.tagUser.get(id) : null;
        if (owner) await held!.bump(owner.user_id, (e) => e.tags.delete(id));
        return (await q.delTag.run(id)).changes > 0;
      }),
    /** The name the stored vector was computed from; differs from the tag's name after a rename. */
    tagEmbeddedName: async (id: number) => (await q.tagName.get(id))?.name ?? null,
    tagVector: async (id: number) => toVector((await q.tagVec.get(id))?.embedding),
    nearestTags: async (userId: string, vector: Float32Array, k: number) => toNeighbours(await (await viewOf(userId)).exact.tags(vector, userId, k)),
    /**
     * Nearest tags of the account by calibrated cosine (0–1): the tag's and the query's vectors with the account's
     * ideas' shared component removed, as pairs of ideas are scored. Accounts have few tags: every one is scored
     * (up to 4,096; see ExactScorer.accountTags).
     */
    async nearestTagsCalibrated(userId: string, vector: Float32Array, k: number): Promise<Neighbour[]> {
      const view = await viewOf(userId);
      const centre = centreOf(view.shared.sum, view.shared.n);
      const query = calibrate(vector, centre);
      return (await view.exact.accountTags(vector, userId))
        .map((r) => ({ id: r.id, score: asScore(dot(query, calibrate(toVector(r.embedding)!, centre))) }))
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, Math.max(0, Math.floor(k)));
    },
    renamedTagIds: async () => (await q.renamedTags.all()).map((r) => r.id),

    /** Vectors of ideas or tags that no longer exist (account deleted, archive hook missed): never served, freed here. */
    pruneOrphans: () =>
      stamped(async () => {
        const n = (await q.orphanIdeas.run()).changes + (await q.orphanTags.run()).changes;
        if (n > 0) {
          await q.sharedClear.run(); // recomputed from the rows on next use (and the neighbour memo's keys with it)
          await held?.bumpAll(); // every process's copies of the accounts' vectors are loaded again
        }
        return n;
      }),
  };

  /** The account's running sum: on PostgreSQL the one held with its vectors (account-vectors.ts), else the stored one. */
  async function sharedRow(userId: string): Promise<Shared> {
    return held ? (await held.account(userId)).shared : storedShared(userId);
  }

  /** Sets the account's scored_n from its shared row (a write the other processes' copies follow: stamped). */
  function markScoredAt(userId: string, scoredN: (s: Shared) => number): Promise<void> {
    return stamped(async () => {
      const stamp = held ? await held.bump(userId, () => {}) : 0;
      const s = await storedShared(userId);
      if (!s.sum) return;
      const next = { ...s, scored_n: scoredN(s) };
      await q.sharedPut.run(userId, next.n, new Uint8Array(s.sum.buffer), next.scored_n);
      held?.setShared(userId, stamp, next);
    });
  }

  /** The account's stored running sum; computed from its rows (and stored) when there is no row yet. */
  async function storedShared(userId: string): Promise<Shared> {
    const row = await q.sharedGet.get(userId);
    if (row) return { n: row.n, sum: sumOf(row.sum), scored_n: row.scored_n };
    const rows = await q.accountVecs.all(userId);
    if (rows.length === 0) return { n: 0, sum: null, scored_n: 0 };
    const sum = new Float64Array(g.dim);
    for (const r of rows) {
      const v = toVector(r.embedding)!;
      for (let i = 0; i < sum.length; i++) sum[i] += v[i];
    }
    // scored_n 0: pairs scored before this row existed (an older version, raw cosine) are re-scored (runner.ts).
    await q.sharedPut.run(userId, rows.length, new Uint8Array(sum.buffer), 0);
    return { n: rows.length, sum, scored_n: 0 };
  }

  /**
   * Adds (sign 1) or removes (sign −1) a vector from its account's running sum, when the account has one. `stamp`:
   * the write's (bump's), so the copy held at that stamp takes the new row (PostgreSQL).
   */
  async function addShared(userId: string, v: Float32Array, sign: 1 | -1, stamp = 0): Promise<void> {
    const row = await q.sharedGet.get(userId);
    if (!row) {
      held?.forget(userId); // computed from the rows on first use, this vector included
      return;
    }
    const sum = sumOf(row.sum);
    for (let i = 0; i < sum.length; i++) sum[i] += sign * v[i];
    const next = { n: Math.max(0, row.n + sign), sum, scored_n: row.scored_n };
    await q.sharedPut.run(userId, next.n, new Uint8Array(sum.buffer), next.scored_n);
    held?.setShared(userId, stamp, next);
  }
}
export type VectorStore = ReturnType<typeof createStore>;

/** A stored running sum (float64 bytes) as its own aligned array (a PostgreSQL bytea may be a view into a pool). */
function sumOf(bytes: Uint8Array): Float64Array {
  const out = new Float64Array(bytes.byteLength >> 3);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

// One VectorStore per store and generation (its statements made once); a dropped generation's entry is evicted.
const cache = new WeakMap<Store, Map<number, VectorStore>>();

export function vectorStore(store: Store, g: Generation): VectorStore {
  let perStore = cache.get(store);
  if (!perStore) cache.set(store, (perStore = new Map()));
  let vs = perStore.get(g.gen);
  if (!vs) perStore.set(g.gen, (vs = createStore(store, g)));
  return vs;
}

/** Forgets a generation's store when its tables are dropped (its caches describe vectors that no longer exist). */
export function forgetStore(store: Store, gen: number): void {
  cache.get(store)?.delete(gen);
}

/** Forgets the store of every cached generation not listed (another process dropped their tables). */
export function forgetStoresExcept(store: Store, live: Array<number | undefined>): void {
  for (const gen of [...(cache.get(store)?.keys() ?? [])]) if (!live.includes(gen)) forgetStore(store, gen);
}
