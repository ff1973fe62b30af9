// The WebAssembly Hamming pass (src/vectors/hamming-wasm.ts) against the JavaScript one it replaced: on accounts large
// enough for the prefilter to run, after inserts, overwrites, swap-removes and growth, both pick the same codes.
import { describe, expect, test } from "bun:test";
import { AccountCodes, binaryCode, prefilterCount } from "../../src/vectors/codes";

// Deterministic pseudo-random numbers (mulberry32).
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function unitVector(rand: () => number, dim: number): Float32Array {
  const v = new Float32Array(dim);
  let n = 0;
  for (let d = 0; d < dim; d++) n += (v[d] = rand() * 2 - 1) ** 2;
  for (let d = 0; d < dim; d++) v[d] /= Math.sqrt(n);
  return v;
}

for (const dim of [512, 384]) {
  describe(`${dim} dimensions`, () => {
    const rand = rng(dim);
    const words = dim / 32;
    const wasm = new AccountCodes(words);
    const js = new AccountCodes(words, { wasm: false });
    const vectors = new Map<number, Float32Array>();
    const put = (id: number, v: Float32Array) => {
      vectors.set(id, v);
      wasm.put(id, binaryCode(v));
      js.put(id, binaryCode(v));
    };
    // Past the prefilter several times over, through many doublings of the table.
    const n = 3 * prefilterCount(50);
    for (let id = 1; id <= n; id++) put(id, unitVector(rand, dim));
    // Overwrites and swap-removes move codes between slots.
    for (let i = 0; i < 500; i++) put(1 + Math.floor(rand() * n), unitVector(rand, dim));
    for (let i = 0; i < 700; i++) {
      const id = 1 + Math.floor(rand() * n);
      vectors.delete(id);
      wasm.delete(id);
      js.delete(id);
    }

    test("both passes keep the same codes for every query", () => {
      expect(wasm.size).toBe(js.size);
      expect(wasm.size).toBeGreaterThan(prefilterCount(50));
      for (let q = 0; q < 20; q++) {
        const query = unitVector(rand, dim);
        const a = wasm.nearest(query, 400);
        expect(a.length).toBeGreaterThanOrEqual(400);
        expect(a).toEqual(js.nearest(query, 400));
      }
    });

    test("a stored vector asked for finds itself, and a removed one is never returned", () => {
      const live = [...vectors.keys()];
      for (let i = 0; i < 10; i++) {
        const id = live[Math.floor(rand() * live.length)];
        expect(wasm.nearest(vectors.get(id)!, 400)).toContain(id);
      }
      const all = new Set(wasm.nearest(unitVector(rand, dim), wasm.size));
      for (const id of all) expect(vectors.has(id)).toBe(true);
    });
  });
}
