// Keyword matching over the two keyword indexes (fulltext.ts: FTS5 on SQLite, plain tables on PostgreSQL): the main
// unicode61 one, and the bigram one for CJK and Thai text. The rules here are the same on both stores.
import { bm25Scores, type TermHit } from "./bm25";
import type { SearchRepo, SearchRow } from "./repo";
import { COLUMN_WEIGHTS } from "./weights";
import { hasSegmentedScript, segmentTokens } from "./segment";
import { countTerms } from "./term-count";
import { STOP_WORDS, tokenize, type FtsMode } from "../../contract";
import { ftsQuery, segmentedQuery, type TextQuery } from "./tokenize";
import { OWNER_LIKE } from "./owner";

/** Instance-wide matches fetched per wanted row before falling back to the per-account query. */
const OVERFETCH = 2;
/** Tokens the index stores exactly as written: unicode61 folds nothing in them, so its vocabulary can be asked directly. */
const PLAIN_TOKEN = /^[a-z0-9]+$/;

/**
 * The query's distinct words (as ftsQuery takes them) when every one is plain, else null. A word that could be an
 * owner token is not plain: the vocabulary's counts (bm25.ts) would count the owner column's rows too.
 */
function plainTerms(q: string): string[] | null {
  const terms = [...new Set(tokenize(q))];
  return terms.every((t) => PLAIN_TOKEN.test(t) && !OWNER_LIKE.test(t)) ? terms : null;
}

/** The caller's matches read from the index (restricted to the account inside it, unscored) before choosing a plan. */
const OWN_MATCHES_MAX = 1_000;
/** Up to this many matches of plain words, the caller's rows are scored here from the index's counts (bm25.ts). */
const OWN_SCORING_MAX = 200;

/** Terms of a loose query (looseScores) at most: a 500-character query has up to ~500 bigrams. */
const LOOSE_TERMS_MAX = 100;

export function createKeywordSearch(repo: SearchRepo) {
  /** Rows of the main index holding each term, in the order of `terms`. */
  const docsWithTerms = async (terms: string[]) => {
    const out: number[] = [];
    for (const t of terms) out.push(await repo.docsWithTerm(t));
    return out;
  };

  /**
   * Brings an index up to date with the ideas written since it was last read (what the store does not do in the
   * writing transaction), before every query that reads it: a search always sees the ideas as they are now.
   */
  const indexPending = (index: "main" | "cjk") => repo.indexPending(index);

  /**
   * The caller's best BM25 matches on the main index. The index holds each idea's account (migrations/0018), so the
   * caller's matches come out of FTS5 already restricted, at what they cost in one account whatever the instance
   * holds. When they are few (OWN_MATCHES_MAX) they are ranked here: plain words from the index's counts (bm25.ts,
   * the same numbers as bm25()), anything else by bm25() over the restricted match. When they are many (a common
   * word in a large account), the instance-wide top OVERFETCH × wanted is tried first: the caller then owns a large
   * share of the matches, and when that top holds enough of theirs it is exactly their top (any other match of
   * theirs ranks below all of these); only when it does not does the restricted bm25() query run.
   */
  const mainRows = async (userId: string, q: string, mode: FtsMode, match: TextQuery, wanted: number): Promise<SearchRow[]> => {
    // An index that ranks the caller's matches at what they cost (fulltext.ts) needs no plan.
    if (repo.ranksInIndex) return repo.rowsInOrder(userId, await repo.keywordIds(match, userId, wanted));
    const own = await repo.ownMatchIds(match, userId, OWN_MATCHES_MAX + 1);
    if (own.length === 0) return [];
    const terms = mode === "exact" ? null : plainTerms(q);
    if (own.length <= OWN_MATCHES_MAX) {
      if (terms && terms.length > 0 && own.length <= OWN_SCORING_MAX) return ownScored(userId, terms, mode === "and", own, wanted);
      // The instance's matches (at most): when the caller owns most of them, the instance-wide top is as cheap and
      // holds theirs (one account alone on its instance); otherwise bm25() over the restricted match.
      const dfs = terms ? await docsWithTerms(terms) : [];
      const instance = dfs.length === 0 ? Infinity : mode === "and" ? Math.min(...dfs) : dfs.reduce((a, b) => a + b, 0);
      if (2 * own.length < instance) return repo.rowsInOrder(userId, await repo.keywordIds(match, userId, wanted));
    }
    const top = await repo.keywordIdsAnyone(match, OVERFETCH * wanted);
    const mine = await repo.firstRowsInOrder(userId, top, wanted);
    if (mine.length >= wanted || top.length < OVERFETCH * wanted) return mine;
    return repo.rowsInOrder(userId, await repo.keywordIds(match, userId, wanted));
  };

  /**
   * The caller's best rows among `ids` (their matches for plain `terms`, archived ones included) by BM25 from the
   * index's counts, occurrences counted in the rows' own text: the same scores as bm25(), ties in id order.
   */
  const ownScored = async (userId: string, terms: string[], all: boolean, ids: number[], wanted: number): Promise<SearchRow[]> => {
    const rows = new Map((await repo.rowsInOrder(userId, ids)).map((r) => [r.id, r]));
    const scores = await plainScoresAmong(terms, [...rows.keys()], all, rows);
    return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, wanted).map(([id]) => rows.get(id)!);
  };

  /**
   * A query in a script without spaces: the bigram index, plus (in `or` mode) the main index for its other words.
   * An idea found by both keeps its better BM25 (the bigram index holds all of such an idea's words, so its score
   * there covers the whole query). The union's top `wanted` is within each side's top `wanted`, so each side is cut.
   */
  const segmentedRows = async (userId: string, q: { cjk: TextQuery | null; main: TextQuery | null }, wanted: number): Promise<SearchRow[]> => {
    const best = new Map<number, number>();
    const add = (rows: Array<{ id: number; bm25: number }>) => {
      for (const r of rows) best.set(r.id, Math.min(r.bm25, best.get(r.id) ?? Infinity));
    };
    if (q.cjk) {
      await indexPending("cjk");
      add(await repo.keywordScored("cjk", q.cjk, userId, wanted));
    }
    if (q.main) await indexPending("main");
    if (q.main) add(await repo.keywordScored("main", q.main, userId, wanted));
    const ids = [...best].sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, wanted).map(([id]) => id);
    return repo.rowsInOrder(userId, ids);
  };

  /**
   * BM25 of those of `ids` that contain any of `terms` (all plain), from the index's own counts (bm25.ts): the same
   * numbers as `bm25()` over `MATCH "a" OR "b" … AND rowid IN (ids)`, without its pass over every term per id. With
   * the ids' own text at hand (the second stage's candidates), their occurrences are counted in it (term-count.ts)
   * unless a token there could be read differently by the index.
   */
  const plainScoresAmong = async (terms: string[], ids: number[], all = false, texts?: Map<number, SearchRow>): Promise<Map<number, number>> => {
    const counted = texts ? countTerms(terms, ids.flatMap((id) => texts.get(id) ?? [])) : null;
    let hits: TermHit[] = (counted ?? (await repo.termHits(terms, ids))).map((h) => ({ term: h.term, doc: h.doc, weight: COLUMN_WEIGHTS[h.col] ?? 1 }));
    if (all) {
      // `and` mode: only rows holding every term match.
      const seen = new Map<number, Set<number>>();
      for (const h of hits) (seen.get(h.doc) ?? seen.set(h.doc, new Set()).get(h.doc)!).add(h.term);
      hits = hits.filter((h) => seen.get(h.doc)!.size === terms.length);
    }
    if (hits.length === 0) return new Map();
    const docs = [...new Set(hits.map((h) => h.doc))];
    return bm25Scores(await repo.indexTotals(), await docsWithTerms(terms), hits, await repo.tokenCounts(docs));
  };

  /**
   * Main-index BM25 among `ids` for an `or` query: from the vocabulary when every word is plain, else bm25() itself
   * (and always from an index that ranks in one statement: fewer round trips than the vocabulary's reads).
   */
  const mainScoresAmong = async (q: string, ids: number[], texts?: Map<number, SearchRow>): Promise<Map<number, number>> => {
    const terms = plainTerms(q);
    if (terms === null || (repo.ranksInIndex && terms.length > 0 && ids.length > 0)) return repo.keywordScoresAmong(ftsQuery(q, "or")!, ids);
    return terms.length === 0 || ids.length === 0 ? new Map() : plainScoresAmong(terms, ids, false, texts);
  };

  return {
    /** The caller's live ideas matching `q` in `mode`, best BM25 first, at most `wanted`. */
    async rows(userId: string, q: string, mode: FtsMode, wanted: number): Promise<SearchRow[]> {
      const segmented = segmentedQuery(q, mode);
      if (segmented) return segmentedRows(userId, segmented, wanted);
      const match = ftsQuery(q, mode);
      if (!match) return [];
      // One statement when the index can (PostgreSQL, nothing queued); else indexed first, then asked.
      const indexed = repo.keywordRowsIndexed ? await repo.keywordRowsIndexed(match, userId, wanted) : null;
      if (indexed) return indexed;
      await indexPending("main");
      return mainRows(userId, q, mode, match, wanted);
    },
    /** BM25 relevance (higher = better) of those of `ids` that match `q` in `or` mode: the second stage's evidence. */
    async scoresAmong(q: string, ids: number[], texts?: Map<number, SearchRow>): Promise<Map<number, number>> {
      const segmented = segmentedQuery(q, "or");
      await indexPending("main");
      if (!segmented) return mainScoresAmong(q, ids, texts);
      const scores = segmented.main ? await repo.keywordScoresAmong(segmented.main, ids) : new Map<number, number>();
      if (segmented.cjk) {
        await indexPending("cjk");
        for (const [id, s] of await repo.cjkScoresAmong(segmented.cjk, ids)) scores.set(id, Math.max(s, scores.get(id) ?? -Infinity));
      }
      return scores;
    },
    /**
     * Keyword evidence for a query the embedding model cannot read (semantic.ts): every two-character piece of its
     * runs in unspaced scripts and every other word, as OR terms (not the phrase keyword mode asks for: a sentence
     * without spaces is one word there, and a person rarely recalls it verbatim). The caller's best `wanted` ideas
     * by BM25, higher = better; an idea found on both indexes keeps its better score.
     */
    async looseScores(userId: string, q: string, wanted: number): Promise<Map<number, number>> {
      const anyOf = (ts: string[]): TextQuery | null => (ts.length === 0 ? null : { op: "or", phrases: [...new Set(ts)].slice(0, LOOSE_TERMS_MAX) });
      const out = new Map<number, number>();
      const add = (rows: Array<{ id: number; bm25: number }>) => {
        for (const r of rows) out.set(r.id, Math.max(-r.bm25, out.get(r.id) ?? -Infinity));
      };
      const folded = q.normalize("NFKC");
      if (hasSegmentedScript(folded)) {
        const cjk = anyOf(segmentTokens(folded).filter((t) => [...t].length > 1 && !STOP_WORDS.has(t)));
        if (cjk) {
          await indexPending("cjk");
          add(await repo.keywordScored("cjk", cjk, userId, wanted));
        }
      }
      const main = anyOf(tokenize(folded).filter((w) => !hasSegmentedScript(w)));
      if (main) {
        await indexPending("main");
        add(await repo.keywordScored("main", main, userId, wanted));
      }
      return new Map([...out].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, wanted));
    },
    indexPending,
  };
}
export type KeywordSearch = ReturnType<typeof createKeywordSearch>;
