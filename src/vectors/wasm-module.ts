// The bytes of a WebAssembly module holding one kernel: fn(i32 × 5) → (), importing env.mem, exported under a name.
// hamming-wasm.ts and dots-wasm.ts write their kernels' bodies out byte by byte (no toolchain, nothing fetched); the
// module around a body is the same for both, so it is made here once.

/** An unsigned LEB128 number (a section or a body may pass 127 bytes). */
const leb = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...leb(n >> 7)]);
const section = (id: number, bytes: number[]) => [id, ...leb(bytes.length), ...bytes];
const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

/** The module: `body` is the function's locals and code, ending with its own `end` (0x0b). */
export function oneKernelModule(exportName: string, body: number[]): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]), // types: (i32 × 5) → ()
    ...section(2, [0x01, ...name("env"), ...name("mem"), 0x02, 0x00, 0x01]), // imports: env.mem, ≥ 1 page
    ...section(3, [0x01, 0x00]), // functions: #0 has type 0
    ...section(7, [0x01, ...name(exportName), 0x00, 0x00]), // exports: exportName = function 0
    ...section(10, [0x01, ...leb(body.length), ...body]), // code: one body
  ]);
}
