// The text side of "is this a near-copy": the cosine of two ideas' word-count vectors (search's tokenizer, stop words
// dropped), over the same text the embedding sees. Order-free, so a note pasted again with its paragraphs moved
// still scores as the copy it is, where the embedding of a reshuffled text drifts.
import { tokenize } from "../contract";
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
