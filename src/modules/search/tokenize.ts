// Turning the spec's keyword tokens (contract/text.ts) into FTS5 queries no user input can break.
import { tokenize, type FtsMode } from "../../contract";
import { hasSegmentedScript, segmentPhrase } from "./segment";

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
