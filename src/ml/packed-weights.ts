// Gives back the memory of USE-lite weights that XNNPACK has packed into its own copy (~20 MB of the 28 MB).
//
// TF.js's wasm backend runs MatMul (weights not transposed) and Conv2D through XNNPACK, which on the first run of each
// op packs the weights into a buffer of its own and caches that operator for the weights' tensor (tfjs-backend-wasm
// src/cc/batch_mat_mul_impl.cc, conv2d_impl.cc: the cache key holds the tensor id and the op's fixed attributes,
// never the input's size, so every later run, whatever the batch, reuses it). From then on the original float32
// weights in WebAssembly memory are never read again, yet they stay resident beside the packed copy. Right after the
// first call that ran the graph (so every op has packed its weights), their pages are handed back to the kernel
// (madvise MADV_DONTNEED through bun:ffi): the tensors stay allocated (nothing else is placed there), their pages read
// as zeros if ever touched. As this leans on the backend's caching, the worker then checks, after replying, that one
// text of that call embeds as before; if not, it loads the model again and keeps it whole (worker.ts).
import type { GraphModel } from "@tensorflow/tfjs-converter";
import { ptr } from "bun:ffi";
import { adviseRanges, MADV_DONTNEED } from "./page-out";
import { cosine } from "./vectors";

const PAGE = 4096;

export interface GraphNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, { b?: boolean }>;
}

/** The graph's constants whose only readers are ops XNNPACK packs weights for: MatMul's b (neither side transposed, as the XNNPACK path requires) and Conv2D's filter. */
export function packedWeightNames(nodes: GraphNode[]): string[] {
  const readers = new Map<string, Array<{ node: GraphNode; slot: number }>>();
  for (const node of nodes) {
    (node.input ?? []).forEach((input, slot) => {
      if (input.startsWith("^")) return; // a control dependency reads nothing
      const name = input.split(":")[0];
      if (!readers.has(name)) readers.set(name, []);
      readers.get(name)!.push({ node, slot });
    });
  }
  const packs = ({ node, slot }: { node: GraphNode; slot: number }) =>
    slot === 1 &&
    ((node.op === "MatMul" && !node.attr?.transpose_a?.b && !node.attr?.transpose_b?.b) || node.op === "Conv2D");
  return nodes.filter((n) => n.op === "Const" && (readers.get(n.name) ?? []).length > 0 && readers.get(n.name)!.every(packs)).map((n) => n.name);
}

/** The wasm backend's view of its memory and where a tensor's data sits in it (tfjs-backend-wasm's BackendWasm). */
interface WasmBackend {
  wasm: { HEAPU8: Uint8Array };
  getMemoryOffset(dataId: object): number;
}

/**
 * Hands back the whole pages inside each named weight's data; returns the bytes released (0 where madvise is not
 * available: not Linux, no libc). Call only after every op reading them has run once (the warm-up).
 */
export function releasePackedWeights(model: GraphModel, names: string[], backend: WasmBackend): number {
  if (process.platform !== "linux") return 0;
  const heap = backend.wasm.HEAPU8;
  const base = Number(ptr(heap));
  const ranges: Array<[number, number]> = [];
  for (const name of names) {
    const tensor = model.weights[name]?.[0];
    if (!tensor || tensor.dtype !== "float32") continue;
    const start = base + backend.getMemoryOffset(tensor.dataId);
    const from = Math.ceil(start / PAGE) * PAGE;
    const to = Math.floor((start + tensor.size * 4) / PAGE) * PAGE;
    if (to > from) ranges.push([from, to]);
  }
  return adviseRanges(ranges, MADV_DONTNEED);
}

/** Releases once, after the first call that ran the graph, then checks the model on the worker's next settle(). */
export class PackedWeightRelease {
  private state: "waiting" | "done" | { text: string; vector: Float32Array; bytes: number } = "waiting";

  constructor(
    private model: GraphModel,
    private nodes: GraphNode[],
    private backend: () => WasmBackend,
    private embed: (texts: string[]) => Promise<Float32Array>,
    private dim: number,
  ) {}

  /** After each call, with its texts and (normalised) vectors; a text with no tokens gets a zero row and ran nothing. */
  afterCall(texts: string[], vectors: Float32Array): void {
    if (this.state !== "waiting") return;
    const row = texts.findIndex((_, i) => vectors.subarray(i * this.dim, (i + 1) * this.dim).some((x) => x !== 0));
    if (row === -1) return;
    const bytes = releasePackedWeights(this.model, packedWeightNames(this.nodes), this.backend());
    // Copied: the call's buffer is transferred to the main thread with the reply.
    this.state = bytes === 0 ? "done" : { text: texts[row], vector: vectors.slice(row * this.dim, (row + 1) * this.dim), bytes };
  }

  /** Bytes released by the last call, once proven harmless (null: nothing new); throws if a vector changed. */
  async check(): Promise<number | null> {
    if (typeof this.state !== "object") return null;
    const { text, vector, bytes } = this.state;
    this.state = "done";
    // Alone rather than in its batch, so equal up to float rounding (as any batch and single call are), not bit for bit.
    const similarity = cosine(vector, await this.embed([text]));
    if (!(similarity > 0.9999)) throw new Error(`use-lite's vectors changed after releasing its packed weights (cosine ${similarity})`);
    return bytes;
  }
}
