// Occurrences of plain query words in a few candidates' own text, counted exactly as the index's unicode61 tokenizer
// counts them, or no answer when a token could be cut or folded differently there.
//
// Why: the second stage needs each query word's occurrences among its ~50 candidates. FTS5's `instance` vocabulary
// can only list every occurrence of the word in the whole index and filter afterwards (3.5 ms a search at 100,000
// ideas, most of the second stage), while the candidates' title and body are already in hand.

/** One occurrence: which query word (index into the words), which candidate, which column. */
export interface TextHit {
  term: number;
  doc: number;
  col: "title" | "body";
}

const ASCII_TEXT = /^[\x00-\x7f]*$/;
/** Runs of ASCII letters and digits: the tokens unicode61 could cut out of a longer non-ASCII one. */
const ASCII_TOKEN = /[A-Za-z0-9]+/g;
/** Runs of what may be token characters (letters, digits, marks, private use); in ASCII, exactly unicode61's tokens. */
const TOKEN_RUN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/**
 * Hits of `terms` (distinct, each /^[a-z0-9]+$/) in the texts, or null when a token mixing in non-ASCII characters
 * could equal a term in the index: unicode61 folds case and diacritics character by character with Unicode tables
 * older than JavaScript's, so such a token might fold into the term (`café` → `cafe`) or hide an
 * ASCII token the index cuts out of it. Conservative: any token of a term's length whose ASCII characters all
 * agree with the term, or holding an ASCII run that is a term, gives up. Pure ASCII text is cut exactly as unicode61
 * cuts it.
 */
export function countTerms(
  terms: string[],
  texts: Array<{ id: number; title: string; body: string | null }>,
): TextHit[] | null {
  const index = new Map(terms.map((t, i) => [t, i]));
  const hits: TextHit[] = [];
  for (const { id, title, body } of texts) {
    for (const [col, text] of [["title", title], ["body", body ?? ""]] as const) {
      for (const [token] of text.matchAll(TOKEN_RUN)) {
        if (ASCII_TEXT.test(token)) {
          const term = index.get(token.toLowerCase());
          if (term !== undefined) hits.push({ term, doc: id, col });
        } else if (couldBeTerm(token, terms, index)) {
          return null;
        }
      }
    }
  }
  return hits;
}

function couldBeTerm(token: string, terms: string[], index: Map<string, number>): boolean {
  for (const [run] of token.matchAll(ASCII_TOKEN)) if (index.has(run.toLowerCase())) return true;
  const chars = [...token.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()];
  return terms.some((t) => t.length === chars.length && chars.every((c, i) => c === t[i] || c > "\x7f"));
}
