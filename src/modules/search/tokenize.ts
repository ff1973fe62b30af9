// The spec's keyword tokenising, and turning tokens into an FTS5 query no user input can break.

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
 * how the index's unicode61 tokenizer split the stored text: "dont" would match nothing.
 */
export function tokenize(q: string): string[] {
  return q
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, " ")
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
