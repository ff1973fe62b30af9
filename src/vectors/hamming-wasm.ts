// The Hamming pass's inner loop as 173 bytes of WebAssembly: one i64 XOR + popcnt per 64 bits of code.
//
// JavaScript has no 64-bit popcount: its 32-bit bit-twiddling version costs ~0.055 µs an idea at 512 bits
// (5.5 ms at 100,000 ideas, most of a quantized KNN's coarse pass). WebAssembly's `i64.popcnt` is one CPU
// instruction. The module is written out byte by byte below (no toolchain, nothing fetched), validated by
// WebAssembly.Module on first use, and its result is held to the JavaScript version by test/search/hamming.test.ts.
import { oneKernelModule } from "./wasm-module";

/**
 * hamming(codes, n, words64, query, out): for each of the `n` codes stored back to back from byte `codes`, each
 * `words64` × 8 bytes long, stores its Hamming distance to the code at byte `query` as a u16 at `out + 2i`.
 */
const BODY = [
  // locals: 3 × i32 (5 i, 6 w, 7 p), 1 × i64 (8 acc); params are 0 codes, 1 n, 2 words64, 3 query, 4 out
  0x02, 0x03, 0x7f, 0x01, 0x7e,
  0x20, 0x00, 0x21, 0x07, // p = codes
  0x41, 0x00, 0x21, 0x05, // i = 0
  0x02, 0x40, 0x03, 0x40, // block, loop (over codes)
  0x20, 0x05, 0x20, 0x01, 0x4f, 0x0d, 0x01, // if i >= n: break
  0x42, 0x00, 0x21, 0x08, // acc = 0
  0x41, 0x00, 0x21, 0x06, // w = 0
  0x02, 0x40, 0x03, 0x40, // block, loop (over the code's 64-bit words)
  0x20, 0x06, 0x20, 0x02, 0x4f, 0x0d, 0x01, // if w >= words64: break
  0x20, 0x08, // acc
  0x20, 0x07, 0x20, 0x06, 0x41, 0x03, 0x74, 0x6a, 0x29, 0x03, 0x00, // i64.load(p + w × 8)
  0x20, 0x03, 0x20, 0x06, 0x41, 0x03, 0x74, 0x6a, 0x29, 0x03, 0x00, // i64.load(query + w × 8)
  0x85, 0x7b, 0x7c, 0x21, 0x08, // acc += popcnt(a ^ b)
  0x20, 0x06, 0x41, 0x01, 0x6a, 0x21, 0x06, // w++
  0x0c, 0x00, 0x0b, 0x0b, // continue; end loop, end block
  0x20, 0x04, 0x20, 0x05, 0x41, 0x01, 0x74, 0x6a, // out + i × 2
  0x20, 0x08, 0xa7, 0x3b, 0x01, 0x00, // i32.store16(…, wrap(acc))
  0x20, 0x07, 0x20, 0x02, 0x41, 0x03, 0x74, 0x6a, 0x21, 0x07, // p += words64 × 8
  0x20, 0x05, 0x41, 0x01, 0x6a, 0x21, 0x05, // i++
  0x0c, 0x00, 0x0b, 0x0b, // continue; end loop, end block
  0x0b, // end function
];

const BYTES = oneKernelModule("hamming", BODY);

let compiled: WebAssembly.Module | null = null;

export type HammingFn = (codes: number, n: number, words64: number, query: number, out: number) => void;

/** The kernel bound to `memory`; the module itself is compiled once per process. */
export function hammingKernel(memory: WebAssembly.Memory): HammingFn {
  compiled ??= new WebAssembly.Module(BYTES);
  const instance = new WebAssembly.Instance(compiled, { env: { mem: memory } });
  return instance.exports.hamming as HammingFn;
}
