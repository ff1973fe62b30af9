// The duplicate score's local centre: the subjects of an account (k-means clusters of its calibrated vectors), so that
// two notes of one subject are judged against what that subject's notes share, not only what the whole account shares.
//
// Why: the account's mean (calibration.ts) is "what this person writes about" overall. When one subject is a small
// part of a large account (Git's manual as 9% of 2,020 ideas), its notes keep a shared direction of their own and 22
// pairs of different Git pages passed 0.75; on Git's manual alone, 2 did. Removing, in addition, the mean of the
// pair's subjects (weighted by how many ideas the subject has and how alike they are) brings it back to a vault's
// level while a near-copy, which shares the note's own words and meaning, still scores near 1 (docs/search.md,
// *A subject inside a large account*; scripts/bench/local-centre.ts measured the candidates).
import { type Centre, dot } from "./calibration";
import { kmeans } from "./kmeans";

/** Ideas per subject: the account is cut into about n / SUBJECT_SIZE clusters. */
export const SUBJECT_SIZE = 25;
/**
 * Clusters are fitted on at most this many of the account's ideas (exactly this many past it, evenSample), in the
 * subjects worker (subjects-fitter.ts). Through the product at 10,005 ideas (scripts/bench/suggestions-scale.ts
 * --fit-samples, one run, same vectors): 0.88 false detections per 20 Git notes with 10,000, 0.99 with 5,000, 1.21
 * with the 3,335 a stepped sample of 5,000 took; offline at 20,000 ideas 0.66 with 10,000, 0.77 with 5,000
 * (docs/search.md). The fit's cost grows with the square of the sample: 13–20 s of the worker for 10,000 against
 * 4–5 s for 5,000 (load 9–10), beside a re-scoring pass of minutes over such an account; peak RSS +85 MB against +47.
 */
export const SUBJECT_SAMPLE = 10_000;
/**
 * The ideas a fit takes: all of them up to `bound`, else exactly `bound` evenly spaced (the i-th at
 * floor(i · n / bound)), in their order. A step of ceil(n / bound) took 3,335 of 10,005 ideas and 2,505 of 5,010: a
 * bound that meant fewer subjects than it said as soon as an account passed it.
 */
export function evenSample<T>(items: T[], bound: number): T[] {
  const take = Math.min(items.length, Math.max(1, Math.floor(bound)));
  return take === items.length ? items : Array.from({ length: take }, (_, i) => items[Math.floor((i * items.length) / take)]);
}
/** k-means rounds: the fit's cost is SUBJECT_SAMPLE × (SUBJECT_SAMPLE / SUBJECT_SIZE) × dim × ROUNDS. */
export const SUBJECT_ROUNDS = 5;
/** Shrinkage of a subject's mean, as the account's: a subject of m ideas removes m / (m + SUBJECT_PRIOR) of it. */
export const SUBJECT_PRIOR = 20;

export interface Subjects {
  /** Each subject's mean residual (vector − account centre), for assigning a vector to its nearest subject. */
  means: Float32Array[];
  meanNorms: Float64Array;
  /** What is removed for a vector of subject j: weight_j · means[j] (shrunk by size, times coherence). */
  removed: Float32Array[];
}

const residual = (v: Float32Array, centre: Centre) => {
  const r = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) r[i] = v[i] - (centre ? centre[i] : 0);
  return r;
};

/**
 * k-means (Euclidean, on residuals; kmeans.ts) over the account's vectors, given in a stable order (by id), seeded by
 * evenly spaced ideas: the same vectors give the same subjects. A subject's weight is its size's shrinkage times its
 * coherence ρ = |mean residual|² / mean |residual|² (0 for ideas pointing every way, 1 for copies of one idea).
 * `scale`: how many of the account's ideas each given vector stands for (a sample of a large account).
 * null when the account has fewer than 2 ideas.
 */
export function fitSubjects(vectors: Float32Array[], centre: Centre, scale = 1, rounds = SUBJECT_ROUNDS): Subjects | null {
  if (vectors.length === 0) return null;
  const dim = vectors[0].length;
  const packed = new Float32Array(vectors.length * dim);
  vectors.forEach((v, a) => packed.set(v, a * dim));
  return fitPacked(packed, vectors.length, dim, centre, scale, rounds);
}

/** fitSubjects over vectors packed in one array (n rows of dim; turned into residuals in place): what the fitting worker receives. */
export function fitPacked(
  packed: Float32Array,
  n: number,
  dim: number,
  centre: Centre,
  scale = 1,
  rounds = SUBJECT_ROUNDS,
  onRound?: (round: number) => void,
): Subjects | null {
  if (n * scale < 2 || n === 0) return null;
  if (centre) for (let a = 0; a < n; a++) for (let i = 0, o = a * dim; i < dim; i++) packed[o + i] -= centre[i];
  const C = Math.max(1, Math.round(n / SUBJECT_SIZE));
  const { means: packedMeans, sizes, spread } = kmeans(packed, n, dim, C, rounds, onRound);
  const means = Array.from({ length: C }, (_, j) => packedMeans.slice(j * dim, (j + 1) * dim));
  return subjectsFrom(means, sizes, spread, scale);
}

/** The subjects from the clusters: each one's mean, and what it removes (its shrinkage by size times its coherence ρ). */
export function subjectsFrom(means: Float32Array[], sizes: ArrayLike<number>, spread: ArrayLike<number>, scale: number): Subjects {
  const dim = means[0]?.length ?? 0;
  const removed = means.map((m, j) => {
    if (sizes[j] === 0) return new Float32Array(dim);
    const rho = spread[j] > 0 ? dot(m, m) / (spread[j] / sizes[j]) : 0;
    const size = sizes[j] * scale;
    const w = (size / (size + SUBJECT_PRIOR)) * Math.min(1, rho);
    return m.map((x) => x * w);
  });
  return { means, meanNorms: Float64Array.from(means.map((m) => dot(m, m))), removed };
}

function nearest(r: Float32Array, means: Float32Array[], mm: ArrayLike<number>): number {
  let best = 0;
  let bestD = Infinity;
  for (let j = 0; j < means.length; j++) {
    const d = mm[j] - 2 * dot(r, means[j]);
    if (d < bestD) (bestD = d), (best = j);
  }
  return best;
}

/** The subject of a vector: the nearest subject mean to its residual. */
export function subjectOf(s: Subjects, v: Float32Array, centre: Centre): number {
  return nearest(residual(v, centre), s.means, s.meanNorms);
}

/**
 * The duplicate score's cosine of two raw vectors: both minus one centre, the account's plus the mean of what their
 * two subjects remove, each scaled by its own text's specificity (`fa`, `fb` in 0–1: text-overlap.ts; a short generic
 * sentence keeps more of its subject), so the score is symmetric and a cosine; in 0–1 (negative is 0), 0 when either
 * is a zero vector. Without subjects it is the calibrated cosine (calibration.ts).
 */
export function localCosine(a: Float32Array, b: Float32Array, centre: Centre, s: Subjects | null, ja: number, jb: number, fa = 1, fb = 1): number {
  const ra = s?.removed[ja];
  const rb = s?.removed[jb];
  const ha = 0.5 * fa;
  const hb = 0.5 * fb;
  let ab = 0, ac = 0, bc = 0, cc = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) {
    const c = (centre ? centre[i] : 0) + (ra && rb ? ha * ra[i] + hb * rb[i] : 0);
    const x = a[i];
    const y = b[i];
    ab += x * y;
    ac += x * c;
    bc += y * c;
    cc += c * c;
    aa += x * x;
    bb += y * y;
  }
  if (aa === 0 || bb === 0) return 0;
  const na = aa - 2 * ac + cc;
  const nb = bb - 2 * bc + cc;
  if (na <= 0 || nb <= 0) return 0;
  return Math.min(1, Math.max(0, (ab - ac - bc + cc) / Math.sqrt(na * nb)));
}
