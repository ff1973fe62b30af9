// What a similarity score is taken over: an idea's vector minus what all of its account's ideas share (their mean),
// so "similar" means similar among this person's ideas, not "on the same subject" or "made by the same model".
//
// Why: every sentence model puts all texts in a narrow cone, and a vault on one subject narrows it further. On Git's
// manual (182 pages, none a copy of another) USE-lite scores 76% of all page pairs above 0.75 raw; with the account's
// mean taken out, 2 pairs of 16,471 are (docs/search.md, *Scores*). The mean is the first principal direction of the
// account's cloud, and it is what moves scores with the model and the subject; removing it is the standard fix
// ("all-but-the-top", Mu & Viswanath 2018), done per account because the shared part is the account's subject.

/**
 * Shrinkage of the account's mean towards zero: with n ideas the removed component is n / (n + SHARED_PRIOR) of the
 * mean. A handful of ideas says little about what an account shares (their mean is mostly the ideas themselves), so
 * a new account scores almost as raw cosine; from a few hundred ideas on, the full mean is removed.
 */
export const SHARED_PRIOR = 20;

/** The component removed from every vector of an account before scoring; null when nothing is removed. */
export type Centre = Float32Array | null;

/** The centre of an account from the running sum of its vectors and their count. */
export function centreOf(sum: Float64Array | null, n: number): Centre {
  if (!sum || n <= 0) return null;
  const scale = 1 / (n + SHARED_PRIOR);
  const c = new Float32Array(sum.length);
  for (let i = 0; i < sum.length; i++) c[i] = sum[i] * scale;
  return c;
}

/**
 * The calibrated vector: v minus the centre, at unit length. A zero vector (an empty text) stays zero: it is
 * similar to nothing, as before.
 */
export function calibrate(v: Float32Array, centre: Centre): Float32Array {
  if (!centre) return v;
  let zero = true;
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) { zero = false; break; }
  if (zero) return v;
  const out = new Float32Array(v.length);
  let n2 = 0;
  for (let i = 0; i < v.length; i++) {
    out[i] = v[i] - centre[i];
    n2 += out[i] * out[i];
  }
  if (n2 === 0) return out;
  const inv = 1 / Math.sqrt(n2);
  for (let i = 0; i < out.length; i++) out[i] *= inv;
  return out;
}

/** Dot product of two calibrated (unit or zero) vectors: their cosine. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** A cosine as the product reports it: in 0–1 (a calibrated cosine below zero means "unrelated", reported as 0). */
export const asScore = (cos: number) => Math.min(1, Math.max(0, cos));

/**
 * The calibrated cosine of a calibrated query (unit, from calibrate()) and a raw stored vector, without building the
 * calibrated vector: (a·q − c·q) / |a − c|, with |a − c|² = a·a − 2 a·c + c·c. `cq` = c·q and `cc` = c·c are the
 * caller's, computed once per query. Bytes are read in place (the blob's offset need not be 4-aligned).
 */
export function calibratedCosineOf(query: Float32Array, stored: Float32Array, centre: Centre, cq: number, cc: number): number {
  if (!centre) return dot(query, stored);
  let aq = 0;
  let ac = 0;
  let aa = 0;
  for (let i = 0; i < stored.length; i++) {
    const a = stored[i];
    aq += a * query[i];
    ac += a * centre[i];
    aa += a * a;
  }
  if (aa === 0) return 0; // an empty text's zero vector is similar to nothing
  const n2 = aa - 2 * ac + cc;
  return n2 > 0 ? (aq - cq) / Math.sqrt(n2) : 0;
}
