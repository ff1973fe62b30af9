// BM25 of a few candidate ideas computed from FTS5's own statistics, the way FTS5's bm25() computes it.
//
// Why not bm25() itself: FTS5 recomputes a query's per-term document counts on every filter pass, and
// `MATCH … AND rowid IN (…)` is one pass per candidate, so scoring 200 candidates at 100,000 ideas walked every
// term's whole document list 200 times (~45 ms). Here each term's list is walked once for its count and once for its
// occurrences among the candidates, and the formula below is fts5_aux.c's: same inputs, same floating-point result.

/** FTS5's constants (fts5_aux.c, fts5Bm25Function); the PostgreSQL index computes with them in SQL too. */
export const K1 = 1.2;
export const B = 0.75;

/** Instance-wide figures of the index: rows and tokens over all columns (FTS5's "averages" record). */
export interface IndexTotals {
  rows: number;
  tokens: number;
}

/** One occurrence of a query term in a candidate: which term (index into the query's terms), where, which column. */
export interface TermHit {
  term: number;
  doc: number;
  weight: number;
}

/**
 * Scores (higher = better, i.e. −bm25()) of the candidates that contain at least one term. `docsWith[i]` is the
 * number of rows containing term i; `sizes` the token count of each hit row over all columns; `hits` every
 * occurrence, weighted by its column as bm25()'s arguments weigh it.
 */
export function bm25Scores(totals: IndexTotals, docsWith: number[], hits: TermHit[], sizes: Map<number, number>): Map<number, number> {
  const avgdl = totals.tokens / totals.rows;
  const idf = docsWith.map((n) => {
    const v = Math.log((totals.rows - n + 0.5) / (n + 0.5));
    return v <= 0 ? 1e-6 : v;
  });
  const freq = new Map<number, number[]>();
  for (const h of hits) {
    let f = freq.get(h.doc);
    if (!f) freq.set(h.doc, (f = new Array<number>(docsWith.length).fill(0)));
    f[h.term] += h.weight;
  }
  const scores = new Map<number, number>();
  for (const [doc, f] of freq) {
    const d = sizes.get(doc) ?? 0;
    let score = 0;
    for (let i = 0; i < f.length; i++) score += idf[i] * ((f[i] * (K1 + 1)) / (f[i] + K1 * (1 - B + (B * d) / avgdl)));
    scores.set(doc, score);
  }
  return scores;
}

/**
 * SQLite's varints, as FTS5 stores its averages record and each row's column sizes: big-endian, 7 bits a byte with
 * the high bit meaning "more", the ninth byte whole.
 */
export function readVarints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    let v = 0;
    for (let n = 0; ; n++) {
      const c = bytes[i++];
      if (n === 8) {
        v = v * 256 + c;
        break;
      }
      v = v * 128 + (c & 0x7f);
      if (!(c & 0x80)) break;
    }
    out.push(v);
  }
  return out;
}
