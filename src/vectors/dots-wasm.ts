// The subjects fit's inner loop (kmeans.ts) as 146 bytes of WebAssembly SIMD: one point against every subject mean,
// four float32 products per instruction.
//
// Why: the fit over every idea of a 10,000-idea account is 4 million point–mean dot products of 512 dimensions a
// round. JavaScript reaches ~0.4 billion multiply-adds a second on this machine under load; this kernel ~1.5 (same
// run, scratch benchmark), so the fit is ~4× shorter in the subjects worker. Written out byte by byte as
// hamming-wasm.ts is (no toolchain, nothing fetched); where WebAssembly SIMD is missing, kmeans.ts falls back to
// JavaScript. Its sums are float32 (JavaScript's are float64): the same input gives the same subjects on one build.
import { oneKernelModule } from "./wasm-module";

/**
 * dots(point, means, C, dim4, out): for j < C, stores Σ_i point[i] · mean_j[i] as a float32 at out + 4j; `point` and
 * `means` are byte offsets of float32 rows of dim4 × 4 components, the means back to back.
 */
const BODY = [
  // locals: 3 × i32 (5 j, 6 w, 7 off), 1 × v128 (8 acc); params 0 point, 1 means, 2 C, 3 dim4, 4 out
  0x02, 0x03, 0x7f, 0x01, 0x7b,
  0x41, 0x00, 0x21, 0x05, // j = 0
  0x02, 0x40, 0x03, 0x40, // block, loop (over the means)
  0x20, 0x05, 0x20, 0x02, 0x4f, 0x0d, 0x01, // if j >= C: break
  0x43, 0x00, 0x00, 0x00, 0x00, 0xfd, 0x13, 0x21, 0x08, // acc = f32x4.splat(0)
  0x41, 0x00, 0x21, 0x06, // w = 0
  0x02, 0x40, 0x03, 0x40, // block, loop (over 16-byte chunks)
  0x20, 0x06, 0x20, 0x03, 0x4f, 0x0d, 0x01, // if w >= dim4: break
  0x20, 0x06, 0x41, 0x04, 0x74, 0x21, 0x07, // off = w << 4
  0x20, 0x08, // acc
  0x20, 0x00, 0x20, 0x07, 0x6a, 0xfd, 0x00, 0x04, 0x00, // v128.load(point + off)
  0x20, 0x01, 0x20, 0x07, 0x6a, 0xfd, 0x00, 0x04, 0x00, // v128.load(means + off)
  0xfd, 0xe6, 0x01, // f32x4.mul
  0xfd, 0xe4, 0x01, // f32x4.add
  0x21, 0x08, // acc = …
  0x20, 0x06, 0x41, 0x01, 0x6a, 0x21, 0x06, // w++
  0x0c, 0x00, 0x0b, 0x0b, // continue; end loop, end block
  0x20, 0x04, 0x20, 0x05, 0x41, 0x02, 0x74, 0x6a, // out + j × 4
  0x20, 0x08, 0xfd, 0x1f, 0x00, 0x20, 0x08, 0xfd, 0x1f, 0x01, 0x92, // lane 0 + lane 1
  0x20, 0x08, 0xfd, 0x1f, 0x02, 0x92, 0x20, 0x08, 0xfd, 0x1f, 0x03, 0x92, // + lane 2 + lane 3
  0x38, 0x02, 0x00, // f32.store
  0x20, 0x01, 0x20, 0x03, 0x41, 0x04, 0x74, 0x6a, 0x21, 0x01, // means += dim4 × 16
  0x20, 0x05, 0x41, 0x01, 0x6a, 0x21, 0x05, // j++
  0x0c, 0x00, 0x0b, 0x0b, // continue; end loop, end block
  0x0b, // end function
];

const BYTES = oneKernelModule("dots", BODY);

let compiled: WebAssembly.Module | null | undefined;

export type DotsFn = (point: number, means: number, C: number, dim4: number, out: number) => void;

/** The kernel over a memory of at least `floats` float32s; null where WebAssembly SIMD is not available. */
export function dotsKernel(floats: number): { memory: Float32Array; dots: DotsFn } | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(BYTES);
    } catch {
      compiled = null;
    }
  }
  if (!compiled) return null;
  const mem = new WebAssembly.Memory({ initial: Math.ceil((floats * 4) / 65536) + 1 });
  const instance = new WebAssembly.Instance(compiled, { env: { mem } });
  return { memory: new Float32Array(mem.buffer), dots: instance.exports.dots as DotsFn };
}
