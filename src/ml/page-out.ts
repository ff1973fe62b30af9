// Gives the executable's embedded-file pages back to the kernel once the model has read its weights from them
// (and lends its madvise to packed-weights.ts).
//
// A compiled binary maps its embedded files (the model's 28 MB of weights among them) from the executable; reading
// them makes those pages resident, and they stay counted in the process's RSS after the weights were copied into the
// model runtime's own memory. MADV_PAGEOUT (Linux ≥ 5.4) asks the kernel to reclaim them now: clean file pages are
// simply dropped (read again from the file on the next access), and a page the process changed is never lost (it
// would be swapped, or left alone without swap), so this cannot change what the program reads. Anywhere else (not
// Linux, not compiled, an older kernel) it does nothing.
import { dlopen, FFIType } from "bun:ffi";
import { readFileSync } from "node:fs";

const MADV_PAGEOUT = 21;
/** Linux: the pages of a private anonymous range are freed; the next access reads zeros. */
export const MADV_DONTNEED = 4;

/** The executable's mappings that hold embedded files: its writable private mappings (Bun's `.bun` section). */
function embeddedRanges(): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const line of readFileSync("/proc/self/maps", "utf8").split("\n")) {
    const [span, perms, , , inode, path] = line.trim().split(/\s+/);
    if (!path || path !== process.execPath || perms !== "rw-p" || inode === "0") continue;
    const [from, to] = span.split("-").map((h) => parseInt(h, 16));
    // Only the large one: the small rw-p mappings are the runtime's own data.
    if (to - from >= 16 * 1024 * 1024) ranges.push([from, to]);
  }
  return ranges;
}

/** Returns the bytes asked to be paged out (0 when not applicable). Never throws. */
export function pageOutEmbeddedFiles(): number {
  if (process.platform !== "linux" || !import.meta.url.startsWith("file:///$bunfs/")) return 0;
  try {
    return adviseRanges(embeddedRanges(), MADV_PAGEOUT);
  } catch {
    return 0;
  }
}

/** madvise(2) on each [from, to) address range (page-aligned); returns the bytes it accepted. Linux only; never throws. */
export function adviseRanges(ranges: Array<[number, number]>, advice: number): number {
  if (process.platform !== "linux" || ranges.length === 0) return 0;
  try {
    const libc = dlopen("libc.so.6", { madvise: { args: [FFIType.u64, FFIType.u64, FFIType.i32], returns: FFIType.i32 } });
    let bytes = 0;
    try {
      for (const [from, to] of ranges) {
        if (libc.symbols.madvise(from, to - from, advice) === 0) bytes += to - from;
      }
    } finally {
      libc.close();
    }
    return bytes;
  } catch {
    return 0;
  }
}
