// Binary codes of idea vectors (one bit per dimension: its sign) and the per-account in-memory table a query scans.
import { hammingKernel, type HammingFn } from "./hamming-wasm";

/** The code of a vector: bit d set when component d > 0, LSB first within each byte (as vec_quantize_binary). */
export function binaryCode(v: Float32Array, bits = v.length): Uint8Array {
  const out = new Uint8Array(Math.ceil(bits / 8));
  for (let d = 0; d < v.length; d++) if (v[d] > 0) out[d >> 3] |= 1 << (d & 7);
  return out;
}

/**
 * Codes the Hamming pass hands to the asymmetric pass for `r` wanted: at least PREFILTER_MIN and 8 × r. On the
 * benchmark's 100k real-sentence vectors Hamming's best 2,000 already hold every idea the asymmetric pass would
 * rank in its best 600, so the prefilter costs no recall, and the asymmetric pass (~2× a Hamming step per code)
 * runs over 2–4% of a large account only.
 */
export const PREFILTER_MIN = 2000;
export const prefilterCount = (r: number) => Math.max(PREFILTER_MIN, 8 * r);

/**
 * The asymmetric score's lookup table: entry (byte b, value v) = Σ query[8b + j] over the bits j set in v. Built per
 * query in ~0.1 ms (each entry is another entry plus one component: v with its lowest bit cleared).
 */
function byteSums(query: Float32Array, bytes: number): Float32Array {
  const t = new Float32Array(bytes * 256);
  for (let b = 0; b < bytes; b++) {
    const o = b << 8;
    for (let v = 1; v < 256; v++) t[o + v] = t[o + (v & (v - 1))] + (query[b * 8 + 31 - Math.clz32(v & -v)] ?? 0);
  }
  return t;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * Capacity (codes) from which an account's table lives in a WebAssembly memory. Below it the Hamming pass never runs
 * (nearest() skips it up to prefilterCount(r) ≥ PREFILTER_MIN codes), and a memory per account is costly: with a
 * thousand accounts loaded, creating one took ~1–35 ms, at times hundreds (the engine collects garbage to reclaim
 * the address space each memory reserves), on the event loop of the request or pipeline pass that loaded the account.
 */
export const WASM_FROM = 2 * PREFILTER_MIN;

/**
 * One account's codes, packed in 32-bit words so a Hamming pass costs one XOR + popcount per word. Accounts past
 * WASM_FROM keep the words in a WebAssembly memory of their own, where the pass runs as `i64.popcnt`
 * (hamming-wasm.ts: ~0.007 µs an idea at 512 bits, against ~0.055 µs in JavaScript); smaller ones, and codes of an
 * odd number of 32-bit words (under 64 dimensions: test models), use a plain buffer and the JavaScript pass. Layout:
 * the codes from byte 0, then the query's code, then one u16 distance per code. Kept up to date by this process's
 * own writes; dropped when another process commits (see CodeCache).
 */
export class AccountCodes {
  private ids = new Float64Array(64);
  private memory: WebAssembly.Memory | null = null;
  private buffer: ArrayBuffer;
  private words: Uint32Array;
  private slot = new Map<number, number>();
  private kernel: HammingFn | null = null;
  private readonly wasm: boolean;
  private readonly wasmFrom: number;
  size = 0;

  /**
   * `wasm: false` runs the JavaScript pass whatever the size; `wasmFrom` moves the table to WebAssembly at that
   * capacity instead of WASM_FROM (the test holds the two passes to the same answers).
   */
  constructor(readonly wordsPer: number, opts: { wasm?: boolean; wasmFrom?: number } = {}) {
    this.wasm = opts.wasm !== false && wordsPer % 2 === 0;
    this.wasmFrom = opts.wasmFrom ?? WASM_FROM;
    this.buffer = this.allocate(this.ids.length);
    this.words = new Uint32Array(this.buffer, 0, this.ids.length * wordsPer);
  }

  /** Bytes for `capacity` codes, the query's code and `capacity` distances. */
  private bytesFor(capacity: number): number {
    return capacity * (this.wordsPer * 4 + 2) + this.wordsPer * 4;
  }

  /** A buffer for `capacity` codes, in a WebAssembly memory once the account is large enough to use the kernel. */
  private allocate(capacity: number): ArrayBuffer {
    if (!this.wasm || capacity < this.wasmFrom) return new ArrayBuffer(this.bytesFor(capacity));
    const pages = Math.ceil(this.bytesFor(capacity) / 65536);
    if (this.memory) {
      // Growing keeps the bytes (the codes stay at byte 0) and detaches every view of the old buffer.
      this.memory.grow(pages - this.memory.buffer.byteLength / 65536);
    } else {
      this.memory = new WebAssembly.Memory({ initial: pages });
      this.kernel = hammingKernel(this.memory);
    }
    return this.memory.buffer;
  }

  put(id: number, code: Uint8Array): void {
    let s = this.slot.get(id);
    if (s === undefined) {
      if (this.size === this.ids.length) this.grow();
      s = this.size++;
      this.slot.set(id, s);
      this.ids[s] = id;
    }
    // Copied into a zeroed word buffer: a PostgreSQL bytea may be a view into a larger buffer at any offset.
    const src = new Uint8Array(this.wordsPer * 4);
    src.set(code.subarray(0, src.length));
    this.words.set(new Uint32Array(src.buffer), s * this.wordsPer);
  }

  delete(id: number): void {
    const s = this.slot.get(id);
    if (s === undefined) return;
    const last = --this.size;
    this.slot.delete(id);
    if (s !== last) {
      // Swap-remove: the last entry takes the freed slot, so the table stays dense for the scan.
      const moved = this.ids[last];
      this.ids[s] = moved;
      this.slot.set(moved, s);
      this.words.copyWithin(s * this.wordsPer, last * this.wordsPer, (last + 1) * this.wordsPer);
    }
  }

  private grow(): void {
    const ids = new Float64Array(this.ids.length * 2);
    ids.set(this.ids);
    const codes = this.memory ? null : this.words.slice(0, this.size * this.wordsPer);
    this.ids = ids;
    this.buffer = this.allocate(ids.length);
    this.words = new Uint32Array(this.buffer, 0, ids.length * this.wordsPer);
    // A plain buffer (or the move into WebAssembly memory) starts empty: the codes are copied over.
    if (codes) this.words.set(codes);
  }

  /** Every id, for accounts small enough to score exactly whole. */
  allIds(): number[] {
    return Array.from(this.ids.subarray(0, this.size));
  }

  /**
   * The ids of the `r` codes that best match `query` (more when several tie at the cut: all of a tied score are
   * kept, so the result does not depend on insertion order). Two passes, both over the codes only:
   * 1. Hamming distance between the query's own sign code and every code (XOR + popcount, ~0.07 µs an idea) keeps
   *    the nearest prefilterCount(r); skipped when the account is no larger than that.
   * 2. Those are ranked by the asymmetric score: the float query against the code read as ±1 per dimension
   *    (Σ q[d] over set bits, through a per-query table of byte sums: one lookup per code byte). It keeps how far
   *    each component is from zero, which Hamming throws away: on USE-lite vectors of real sentences at 100k the
   *    exact top 20 is held by its best 500 about as often as by Hamming's best 1,000 (docs/performance.md).
   * `signOf` is the vector whose sign code the Hamming pass compares (default: the query). The store passes the raw
   * vector there and the calibrated one as `query`: the codes are the raw vectors' signs, which the shared component
   * dominates, so raw against raw keeps the prefilter's meaning while the ranking follows the calibrated score.
   */
  nearest(query: Float32Array, r: number, signOf: Float32Array = query): number[] {
    const n = this.size;
    const W = this.wordsPer;
    const B = W * 4;
    const bytes = new Uint8Array(this.buffer, 0, n * B);
    let pool: Int32Array;
    const p = prefilterCount(r);
    if (n > p) {
      const qAt = this.ids.length * B; // past the last code slot
      new Uint8Array(this.buffer, qAt, B).set(binaryCode(signOf, W * 32));
      const q = new Uint32Array(this.buffer, qAt, W);
      const dist = new Uint16Array(this.buffer, qAt + B, n);
      if (this.kernel) {
        this.kernel(0, n, W / 2, qAt, qAt + B);
      } else {
        const words = this.words;
        for (let i = 0, o = 0; i < n; i++, o += W) {
          let d = 0;
          for (let w = 0; w < W; w++) d += popcount(words[o + w] ^ q[w]);
          dist[i] = d;
        }
      }
      const hist = new Uint32Array(W * 32 + 1);
      for (let i = 0; i < n; i++) hist[dist[i]]++;
      // A counting pass over the distances finds the cut instead of sorting them.
      let cut = 0;
      for (let seen = 0; cut < hist.length && seen + hist[cut] < p; cut++) seen += hist[cut];
      let m = 0;
      for (let i = 0; i < n; i++) if (dist[i] <= cut) m++;
      pool = new Int32Array(m);
      for (let i = 0, j = 0; i < n; i++) if (dist[i] <= cut) pool[j++] = i;
    } else {
      pool = new Int32Array(n);
      for (let i = 0; i < n; i++) pool[i] = i;
    }
    if (pool.length <= r) return Array.from(pool, (s) => this.ids[s]);

    const table = byteSums(query, B);
    const score = new Float32Array(pool.length);
    for (let j = 0; j < pool.length; j++) {
      const o = pool[j] * B;
      // Four running sums: independent additions the CPU can overlap (~1.5× faster than one chain).
      let a = 0, b = 0, c = 0, e = 0;
      for (let k = 0; k < B; k += 4) {
        a += table[(k << 8) | bytes[o + k]];
        b += table[((k + 1) << 8) | bytes[o + k + 1]];
        c += table[((k + 2) << 8) | bytes[o + k + 2]];
        e += table[((k + 3) << 8) | bytes[o + k + 3]];
      }
      score[j] = a + b + c + e;
    }
    const cut = score.slice().sort()[pool.length - r];
    const out: number[] = [];
    for (let j = 0; j < pool.length; j++) if (score[j] >= cut) out.push(this.ids[pool[j]]);
    return out;
  }

  /** Bytes this account's table holds (for the health figures and the benchmark). */
  bytes(): number {
    return this.ids.byteLength + this.buffer.byteLength + this.size * 40; // Map entry ≈ 40 B
  }
}

/**
 * Codes of one generation, per account, loaded on an account's first query. On SQLite another process (the CLI
 * importing or reindexing while the server runs) commits behind our back: PRAGMA data_version changes then
 * (`dataVersion`), and every account is reloaded on its next query. PostgreSQL has no such counter (`dataVersion`
 * null): an account loaded here follows this process's writes. A stale code can only cost recall, never a wrong
 * result: candidates are scored exactly against the stored vectors, which also drop ids that no longer exist or belong to
 * someone else.
 */
export class CodeCache {
  private accounts = new Map<string, AccountCodes>();
  private version = -1;

  constructor(
    private readonly dataVersion: (() => number) | null,
    private readonly wordsPer: number,
    private readonly load: (userId: string) => Promise<Array<{ id: number; code: Uint8Array }>>,
  ) {}

  async account(userId: string): Promise<AccountCodes> {
    if (this.dataVersion) {
      const v = this.dataVersion();
      if (v !== this.version) {
        this.accounts.clear();
        this.version = v;
      }
    }
    let a = this.accounts.get(userId);
    if (!a) {
      const rows = await this.load(userId);
      // Another query of this account may have loaded it while this one read its rows: the first one stays.
      a = this.accounts.get(userId);
      if (a) return a;
      a = new AccountCodes(this.wordsPer);
      for (const row of rows) a.put(row.id, row.code);
      this.accounts.set(userId, a);
    }
    return a;
  }

  /** Our own writes: applied to a loaded account; an account not loaded yet will read them from the table. */
  put(userId: string, id: number, code: Uint8Array): void {
    this.accounts.get(userId)?.put(id, code);
  }

  delete(id: number): void {
    for (const a of this.accounts.values()) a.delete(id);
  }

  bytes(): number {
    let n = 0;
    for (const a of this.accounts.values()) n += a.bytes();
    return n;
  }
}
