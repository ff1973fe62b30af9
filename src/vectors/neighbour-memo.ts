// The answers of the calibrated neighbour query (store.ts nearestCalibrated) while an account's vectors stay as they
// are: a re-scoring pass asks for each idea's neighbours about four times (its own pass, and once for each idea
// that has it among its relation candidates; steps.ts candidatesOf), and nothing it does changes a vector.
//
// Why: profiled on a 2,000-idea re-scoring pass (scripts/bench/suggestions-scale.ts under `bun --cpu-prof-md`),
// the exact pass's SQL was over half of the pass's time. An answer is kept under the account's running sum and
// count of vectors (store.ts's shared row): any write to the account's vectors moves them, a rolled-back one moves
// them back, so a kept answer is one the query would give again. A commit by another process (PRAGMA data_version,
// as codes.ts's cache) drops every answer: it may have changed vectors without this process's running sums. On
// PostgreSQL (no such counter) the key alone decides: another process's writes move the stored sum the key holds.

/** Answers kept, over all accounts (the oldest dropped first): a 10,000-idea account's whole pass, ~4 MB of lists. */
export const MEMO_LISTS = 20_000;

export interface MemoNeighbour {
  id: number;
  score: number;
}

export class NeighbourMemo {
  private readonly lists = new Map<string, { ids: Int32Array; scores: Float64Array }>();
  private version = -1;
  private on = true;

  constructor(private readonly dataVersion: (() => number) | null) {}

  enable(on: boolean): void {
    this.on = on;
    if (!on) this.lists.clear();
  }

  /** The key of a query: the account, its count and sum of vectors, k and the query vector (64-bit hashes); null when off. */
  key(userId: string, n: number, sum: Float64Array | null, vector: Float32Array, k: number): string | null {
    if (!this.on) return null;
    const hash = (a: Float32Array | Float64Array) => Bun.hash(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).toString(36);
    return `${userId}\u0000${n}\u0000${sum ? hash(sum) : "-"}\u0000${k}\u0000${hash(vector)}`;
  }

  get(key: string): MemoNeighbour[] | null {
    const v = this.dataVersion?.() ?? 0;
    if (v !== this.version) {
      this.lists.clear();
      this.version = v;
      return null;
    }
    const hit = this.lists.get(key);
    return hit ? Array.from(hit.ids, (id, i) => ({ id, score: hit.scores[i] })) : null;
  }

  put(key: string, answer: MemoNeighbour[]): void {
    this.lists.delete(key);
    this.lists.set(key, { ids: Int32Array.from(answer, (n) => n.id), scores: Float64Array.from(answer, (n) => n.score) });
    if (this.lists.size > MEMO_LISTS) this.lists.delete(this.lists.keys().next().value!);
  }
}
