// Turning the spec's keyword tokens (contract/text.ts) into the phrases each keyword index evaluates.
import { tokenize, type FtsMode } from "../../contract";
import { hasSegmentedScript, segmentPhrase } from "./segment";

/**
 * A keyword query as both stores' indexes evaluate it: phrases, each a text the index cuts into tokens with its own
 * tokenizer (matched as consecutive tokens in one column), of which a row must hold all (`and`) or any (`or`). BM25
 * sums over the phrases in this order. Nothing in a phrase is syntax: FTS5 gets each one double-quoted (fulltext-sqlite-repo.ts).
 */
export interface TextQuery {
  op: "and" | "or";
  phrases: string[];
}

/**
 * The query for the main index, or null when nothing is left to search for (results are then empty): the distinct
 * tokens, or in exact mode the raw text as one phrase.
 */
export function ftsQuery(q: string, mode: FtsMode): TextQuery | null {
  if (mode === "exact") {
    // Stop words stay; a phrase with no word characters at all would be an empty phrase: nothing to find.
    const phrase = q.trim();
    if (!/[\p{L}\p{N}]/u.test(phrase)) return null;
    return { op: "and", phrases: [phrase] };
  }
  const tokens = [...new Set(tokenize(q))];
  if (tokens.length === 0) return null;
  return { op: mode === "and" ? "and" : "or", phrases: tokens };
}

/**
 * The queries for a query that contains a script written without spaces (null when it has none: the
 * main index alone answers, exactly as before). `cjk` runs against the bigram index, where each word is the phrase
 * of its tokens (segment.ts), so "自転車" finds "日本語のアイデア：自転車のライト". `main` is set in `or` mode only:
 * the query's other words, for ideas without such scripts (they are only in the main index, and in `and`/`exact`
 * they cannot match a CJK word anyway). The same words, stop words and one-character tokens are dropped as in the
 * main path; NFKC first, so full-width letters in the query match half-width ones in the text.
 */
export function segmentedQuery(q: string, mode: FtsMode): { cjk: TextQuery | null; main: TextQuery | null } | null {
  const folded = q.normalize("NFKC");
  if (mode === "exact") {
    if (!hasSegmentedScript(folded)) return null;
    const phrase = segmentPhrase(folded.trim());
    return { cjk: phrase === null ? null : { op: "and", phrases: [phrase] }, main: null };
  }
  const words = [...new Set(tokenize(folded))];
  if (!words.some(hasSegmentedScript)) return null;
  const phrases = [...new Set(words.map(segmentPhrase).filter((p): p is string => p !== null))];
  const others = words.filter((w) => !hasSegmentedScript(w));
  return {
    cjk: phrases.length === 0 ? null : { op: mode === "and" ? "and" : "or", phrases },
    main: mode === "or" && others.length > 0 ? { op: "or", phrases: others } : null,
  };
}
