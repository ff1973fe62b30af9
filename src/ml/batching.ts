// How embed() splits a list of texts into worker requests: similar lengths together, bounded by count and size.

/** Texts per request: enough to amortise per-call overhead (USE-lite peaks near 32), small enough to interleave callers. */
export const MAX_BATCH_TEXTS = 32;
/** Characters per request, so a batch of long paragraphs does not hold a waiting search query for seconds. */
export const MAX_BATCH_CHARS = 8_000;
/**
 * Characters per background request (pipeline, reindex, import). A search query jumps the queued requests but waits
 * for the one running (src/ml/lanes.ts), so this bounds that wait. USE-lite's cost is ~9 ms a request plus ~0.45 ms
 * a word: 2,000 characters (~330 words, one idea's whole embedding text) is ~150 ms on a quiet machine where 8,000
 * were ~600 ms. Smaller requests cost no throughput on idea-like texts (scripts/bench/chunk-budget.ts, load 15–17:
 * 2,000 characters 3.3 texts/s, request p50 1.3 s; 8,000 characters 2.1 texts/s, p50 9.2 s); 1,000 was no faster.
 */
export const BACKGROUND_BATCH_CHARS = 2_000;
/**
 * Longer texts are cut to this many characters before embedding. USE-lite's cost grows with length and ONNX models
 * truncate at 512 tokens (~2,000 characters) anyway; the cap keeps one huge text from stalling the worker.
 */
export const MAX_TEXT_CHARS = 20_000;

/**
 * Returns batches of indices into `texts`. Sorting by length first means little padding for ONNX models
 * (a batch is padded to its longest text); USE-lite takes unpadded sparse input and does not care.
 */
export function planBatches(texts: string[], maxTexts = MAX_BATCH_TEXTS, maxChars = MAX_BATCH_CHARS): number[][] {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
  const batches: number[][] = [];
  let current: number[] = [];
  let chars = 0;
  for (const i of order) {
    const length = Math.min(texts[i].length, MAX_TEXT_CHARS);
    if (current.length > 0 && (current.length >= maxTexts || chars + length > maxChars)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(i);
    chars += length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export function clipText(text: string): string {
  return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
}
