// The spec's keyword tokenising, and turning tokens into FTS5 queries no user input can break.
import { hasSegmentedScript, segmentPhrase } from "./segment";

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

export type FtsMode = "or" | "and" | "exact";
export const FTS_MODES: readonly FtsMode[] = ["or", "and", "exact"];

/**
 * Lowercase, punctuation stripped, split on whitespace, one-character tokens and stop words dropped.
 * Punctuation becomes a separator rather than vanishing ("don't" → "don", "e-mail" → "mail"), because that is
 * how the index's unicode61 tokenizer split the stored text: "dont" would match nothing. Combining marks are not
 * punctuation: they stay in their word (Thai "ที่" is a consonant and two marks; Hindi vowel signs are marks too).
 */
export function tokenize(q: string): string[] {
  return q
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s]+/gu, " ")
    .split(/\s+/)
    .filter((t) => [...t].length > 1 && !STOP_WORDS.has(t));
}

/**
 * The FTS5 MATCH expression for a query, or null when nothing is left to search for (results are then empty).
 * Every token is a double-quoted string, so FTS5 keywords (AND, NEAR, NOT), column filters (title:) and
 * operators (* ^ -) in user input are plain words; exact mode quotes the raw phrase with inner quotes doubled.
 */
export function ftsQuery(q: string, mode: FtsMode): string | null {
  if (mode === "exact") {
    // Stop words stay; a phrase with no word characters at all would be an empty phrase: nothing to find.
    const phrase = q.trim();
    if (!/[\p{L}\p{N}]/u.test(phrase)) return null;
    return `"${phrase.replace(/"/g, '""')}"`;
  }
  const tokens = [...new Set(tokenize(q))];
  if (tokens.length === 0) return null;
  return tokens.map((t) => `"${t}"`).join(mode === "and" ? " AND " : " OR ");
}

/**
 * The MATCH expressions for a query that contains a script written without spaces (null when it has none: the
 * main index alone answers, exactly as before). `cjk` runs against the bigram index, where each word is the phrase
 * of its tokens (segment.ts), so "自転車" finds "日本語のアイデア：自転車のライト". `main` is set in `or` mode only:
 * the query's other words, for ideas without such scripts (they are only in the main index, and in `and`/`exact`
 * they cannot match a CJK word anyway). The same words, stop words and one-character tokens are dropped as in the
 * main path; NFKC first, so full-width letters in the query match half-width ones in the text.
 */
export function segmentedQuery(q: string, mode: FtsMode): { cjk: string | null; main: string | null } | null {
  const folded = q.normalize("NFKC");
  if (mode === "exact") {
    if (!hasSegmentedScript(folded)) return null;
    return { cjk: segmentPhrase(folded.trim()), main: null };
  }
  const words = [...new Set(tokenize(folded))];
  if (!words.some(hasSegmentedScript)) return null;
  const phrases = [...new Set(words.map(segmentPhrase).filter((p): p is string => p !== null))];
  const others = words.filter((w) => !hasSegmentedScript(w));
  return {
    cjk: phrases.length === 0 ? null : phrases.join(mode === "and" ? " AND " : " OR "),
    main: mode === "or" && others.length > 0 ? others.map((t) => `"${t}"`).join(" OR ") : null,
  };
}
