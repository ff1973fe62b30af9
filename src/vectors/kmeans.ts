// The clustering behind an account's subjects (subjects.ts): Lloyd's k-means over residuals packed in one array, the
// point–mean products by the WebAssembly SIMD kernel of dots-wasm.ts (JavaScript where it is missing).
//
// Deterministic: the same points give the same clusters. Bounds that skip points whose cluster cannot change
// (Hamerly's) were tried and dropped: on the 5,000-idea bench account (scripts/bench/local-centre.ts) 90–99% of the
// points still needed every distance in each round (512 dimensions, 200 means close together), so they saved nothing.
import { dotsKernel } from "./dots-wasm";

export interface Clusters {
  /** C means, packed: mean j at [j · dim, (j + 1) · dim). An empty cluster's mean is zero. */
  means: Float32Array;
  /** Points per cluster at the last assignment. */
  sizes: Int32Array;
  /** Σ |residual|² of each cluster's points (its spread around the origin). */
  spread: Float64Array;
  assign: Int32Array;
}

/** a·b over dim components, a at offset ia of `a`, b at offset ib of `b`. */
export function dotAt(a: Float32Array, ia: number, b: Float32Array, ib: number, dim: number): number {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let i = 0;
  for (; i + 3 < dim; i += 4) {
    s0 += a[ia + i] * b[ib + i];
    s1 += a[ia + i + 1] * b[ib + i + 1];
    s2 += a[ia + i + 2] * b[ib + i + 2];
    s3 += a[ia + i + 3] * b[ib + i + 3];
  }
  for (; i < dim; i++) s0 += a[ia + i] * b[ib + i];
  return s0 + s1 + s2 + s3;
}

/**
 * k-means of n points (packed rows of `points`, dim each) into C clusters, seeded by the evenly spaced points
 * floor(j · n / C), `rounds` rounds of assignment (nearest mean, the lowest index on ties) then update. `onRound`
 * is told each finished round (progress). `simd` false: the JavaScript products (the kernel's reference).
 */
export function kmeans(points: Float32Array, n: number, dim: number, C: number, rounds: number, onRound?: (round: number) => void, simd = true): Clusters {
  // One memory: the points, then the means, then the C products of the point at hand.
  const kernel = simd && dim % 4 === 0 ? dotsKernel(n * dim + C * dim + C) : null;
  const pts = kernel ? kernel.memory.subarray(0, n * dim) : points;
  if (kernel) pts.set(points.subarray(0, n * dim));
  const meansAt = n * dim;
  const means = kernel ? kernel.memory.subarray(meansAt, meansAt + C * dim) : new Float32Array(C * dim);
  const out = kernel ? kernel.memory.subarray(meansAt + C * dim, meansAt + C * dim + C) : new Float32Array(C);
  for (let j = 0; j < C; j++) means.set(pts.subarray(Math.floor((j * n) / C) * dim, (Math.floor((j * n) / C) + 1) * dim), j * dim);
  const mm = new Float64Array(C);
  const assign = new Int32Array(n);
  const sizes = new Int32Array(C);
  const next = new Float64Array(C * dim);
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < C; j++) mm[j] = dotAt(means, j * dim, means, j * dim, dim);
    for (let a = 0; a < n; a++) {
      if (kernel) kernel.dots(a * dim * 4, meansAt * 4, C, dim / 4, (meansAt + C * dim) * 4);
      else for (let j = 0; j < C; j++) out[j] = dotAt(pts, a * dim, means, j * dim, dim);
      let best = 0;
      let bestD = Infinity;
      for (let j = 0; j < C; j++) {
        const d = mm[j] - 2 * out[j];
        if (d < bestD) (bestD = d), (best = j);
      }
      assign[a] = best;
    }
    // Update: each mean moves to its points' average (an empty cluster's to zero).
    next.fill(0);
    sizes.fill(0);
    for (let a = 0; a < n; a++) {
      const o = assign[a] * dim;
      sizes[assign[a]]++;
      for (let i = 0, p = a * dim; i < dim; i++) next[o + i] += pts[p + i];
    }
    for (let j = 0; j < C; j++) for (let i = 0, o = j * dim; i < dim; i++) means[o + i] = sizes[j] > 0 ? next[o + i] / sizes[j] : 0;
    onRound?.(round);
  }
  const spread = new Float64Array(C);
  for (let a = 0; a < n; a++) spread[assign[a]] += dotAt(pts, a * dim, pts, a * dim, dim);
  return { means: means.slice(), sizes, spread, assign };
}
