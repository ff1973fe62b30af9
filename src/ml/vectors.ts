// Vector helpers and the backend interfaces the worker drives; pure, so the main thread can use them too.

/** A loaded embedding model, inside the worker. Returns count × dim floats, each row L2-normalised. */
export interface Embedder {
  id: string;
  runtime: string;
  dim: number;
  embed(texts: string[]): Promise<Float32Array>;
  dispose(): void | Promise<void>;
  /**
   * Run by the worker after each reply, before the next request: finishes one-off work that lowered the model's memory
   * during the last call. Bytes freed, or null when there was nothing new; throws if the model failed its check.
   */
  settle?(): Promise<number | null>;
}

/** A loaded cross-encoder: one relevance score per doc, higher = more relevant. */
export interface Reranker {
  score(query: string, docs: string[]): Promise<number[]>;
  dispose(): void | Promise<void>;
}

/** Scales each row of a flat count × dim matrix to unit length, in place; an all-zero row stays zero. */
export function normalizeRows(data: Float32Array, count: number, dim: number): Float32Array {
  if (data.length !== count * dim) throw new Error(`model returned ${data.length} floats for ${count} texts of dim ${dim}`);
  for (let r = 0; r < count; r++) {
    let sum = 0;
    for (let i = r * dim; i < (r + 1) * dim; i++) sum += data[i] * data[i];
    if (sum === 0) continue;
    const inv = 1 / Math.sqrt(sum);
    for (let i = r * dim; i < (r + 1) * dim; i++) data[i] *= inv;
  }
  return data;
}

/** Cosine similarity; equals the dot product for the unit vectors this layer returns. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`cosine of vectors with different lengths (${a.length} vs ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
