// How embed() splits a list of texts into worker requests: similar lengths together, bounded by count and size.

/** Texts per request: enough to amortise per-call overhead (USE-lite peaks near 32), small enough to interleave callers. */
export const MAX_BATCH_TEXTS = 32;
/** Characters per request, so a batch of long paragraphs does not hold a waiting search query for seconds. */
export const MAX_BATCH_CHARS = 8_000;
/**
 * Characters per background request (pipeline, reindex, import). A search query jumps the queued requests but waits
 * for the one running (src/ml/lanes.ts), so this bounds that wait. USE-lite's cost is ~9 ms a request plus ~0.45 ms
 * a word: 2,000 characters (~330 words, one idea's whole embedding text) is ~150 ms on a quiet machine where 8,000
 * were ~600 ms. Measured on idea-like texts (scripts/bench/chunk-budget.ts, three runs at load 12–17): a request's
 * p50 1.3–3.1 s against 7.6–10.5 s, throughput 84–157% of 8,000's (noise, or up to ~15% of model time; a burst's
 * drain was not slower, search-beside-burst.ts); 1,000 lost more (63–82%) and would split one idea's text.
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
