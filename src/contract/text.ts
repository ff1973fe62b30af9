// Counting and splitting text the way the API does, so the web app's counters and highlights agree with the server.
// No imports: part of the dependency-free contract.

/** Characters as a person counts them: code points, so an emoji is one (JavaScript's `length` counts it as two). */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Common English function words dropped from keyword queries ("the, and, for, what, this, plus about sixty others").
 * They match nearly every idea, so keeping them would only push real matches down under OR.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
  "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "his", "how", "if",
  "in", "into", "is", "it", "its", "just", "me", "my", "no", "not", "of", "on", "or", "our", "she", "so",
  "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "too", "up", "us",
  "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with", "would", "you", "your",
]);

/**
 * The spec's keyword tokenising: lowercase, punctuation stripped, split on whitespace, one-character tokens and stop
 * words dropped. Punctuation becomes a separator rather than vanishing ("don't" → "don", "e-mail" → "mail"), because
 * that is how the index's unicode61 tokenizer split the stored text: "dont" would match nothing. Combining marks are
 * not punctuation: they stay in their word (Thai "ที่" is a consonant and two marks; Hindi vowel signs are marks too).
 */
export function tokenize(q: string): string[] {
  return q
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s]+/gu, " ")
    .split(/\s+/)
    .filter((t) => [...t].length > 1 && !STOP_WORDS.has(t));
}

/** What the API accepts as an e-mail address: something@something.something, no spaces. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
