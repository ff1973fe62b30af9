// The text side of "is this a near-copy": the cosine of two ideas' word-count vectors (search's tokenizer, stop words
// dropped), over the same text the embedding sees. Order-free, so a note pasted again with its paragraphs moved
// still scores as the copy it is, where the embedding of a reshuffled text drifts. Also how specific a text is: how
// much of its subject the duplicate score's embedding side removes (subjects.ts).
import { STOP_WORDS, tokenize } from "../contract";
import { readsText } from "../ml/languages";
import { segmentTokens } from "../modules/search/segment";
import { ideaText } from "./embed";

export function wordCounts(title: string, body: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of tokenize(ideaText(title, body))) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Cosine of two word-count vectors, in 0–1 (0 when either text has no words). */
export function wordCosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [w, c] of a) {
    na += c * c;
    dot += c * (b.get(w) ?? 0);
  }
  for (const c of b.values()) nb += c * c;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Words (stop words dropped, repeats counted) at which a text counts as half specific: specificity t / (t + 5).
 * Chosen on STS-B and Git's manual in a 2,000-idea account (scripts/bench/local-centre.ts --specific; docs/search.md,
 * *STS-B at recall 0.95*): 3, 5 and 8 kept Git's false detections where they were and 5 was best on STS-B.
 */
export const SPECIFIC_WORDS = 5;

/**
 * How specific a text is, in 0–1: t / (t + SPECIFIC_WORDS), t its words. A short generic sentence ("A boy is playing a
 * keyboard.", 3 words: 0.38) is mostly its subject, and removing the subject's mean leaves little of what it says; a
 * manual page (hundreds of words: ~0.99) has plenty left. The duplicate score removes a subject in this proportion.
 */
export function specificity(words: Map<string, number>): number {
  let t = 0;
  for (const c of words.values()) t += c;
  return t / (t + SPECIFIC_WORDS);
}

/**
 * The text side for a text the model does not read (src/ml/languages.ts): counts of its two-character pieces in
 * unspaced scripts (the keyword index's bigrams) and of its other words. A Chinese run is one "word" to tokenize(),
 * so two notes that share most of their sentences would share no word there.
 */
export function gramCounts(title: string, body: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of segmentTokens(ideaText(title, body))) if ([...t].length > 1 && !STOP_WORDS.has(t)) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** What the duplicate score needs of one idea's text: its words, whether the model reads it, and its grams. */
export interface TextSide {
  words: Map<string, number>;
  /** False when the text is mostly in scripts the model does not read: its embedding cosines are noise. */
  reads: boolean;
  /** gramCounts, computed once when a pair needs them. */
  grams(): Map<string, number>;
}

export function textSide(title: string, body: string, scripts: readonly string[] | null): TextSide {
  let grams: Map<string, number> | null = null;
  return {
    words: wordCounts(title, body),
    reads: readsText(ideaText(title, body), scripts),
    grams: () => (grams ??= gramCounts(title, body)),
  };
}
