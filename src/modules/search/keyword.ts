// Keyword matching over the two FTS5 indexes: the main unicode61 one, and the bigram one for CJK and Thai text.
import { bm25Scores, type TermHit } from "./bm25";
import { COLUMN_WEIGHTS, type SearchRepo, type SearchRow } from "./repo";
import { segmentText } from "./segment";
import { countTerms } from "./term-count";
import { tokenize, type FtsMode } from "../../contract";
import { ftsQuery, segmentedQuery } from "./tokenize";

/** Instance-wide matches fetched per wanted row before falling back to the per-account query. */
const OVERFETCH = 2;
/** Tokens the index stores exactly as written: unicode61 folds nothing in them, so its vocabulary can be asked directly. */
const PLAIN_TOKEN = /^[a-z0-9]+$/;

/** The query's distinct words (as ftsQuery takes them) when every one is plain, else null. */
function plainTerms(q: string): string[] | null {
  const terms = [...new Set(tokenize(q))];
  return terms.every((t) => PLAIN_TOKEN.test(t)) ? terms : null;
}

/**
 * Accounts up to this size are scored directly when the instance-wide matches do not hold enough of theirs (see
 * mainRows): their BM25 over their own ids, from the index's counts, instead of FTS5 scoring and joining every match
 * of every account. Larger accounts own a large share of the matches, so the instance-wide pass serves them.
 */
const ACCOUNT_SCORING_MAX = 20_000;

/** Queued ideas written to the bigram index per transaction (a backfill of many does not hold the writer long). */
const DRAIN_BATCH = 500;

export function createKeywordSearch(repo: SearchRepo) {
  /**
   * Writes the bigram view of every idea the triggers queued. Read and write share one IMMEDIATE transaction, so an
   * edit cannot slip between reading a title and storing its view (the edit's trigger would be overwritten).
   * Runs before every query that reads the bigram index, so a search always sees the ideas as they are now.
   */
  const indexPending = () => {
    for (;;) {
      const n = repo.immediate(() => {
        const rows = repo.pendingCjk(DRAIN_BATCH);
        repo.writeCjk(rows.map((r) => ({
          id: r.id,
          view: r.title === null ? null : { title: segmentText(r.title), body: segmentText(r.body ?? "") },
        })));
        return rows.length;
      });
      if (n < DRAIN_BATCH) return;
    }
  };

  /**
   * The caller's best BM25 matches on the main index. Checking ownership of every match is what makes a filtered
   * FTS query slow (a lookup per matching row), so first take the instance-wide top OVERFETCH × wanted and keep the
   * caller's live ones: when they are enough, they are exactly the caller's top rows (any other match of theirs
   * ranks below all of these). Only when they are not (the caller owns a small share of a big instance) does the
   * filtered query run.
   */
  const mainRows = (userId: string, q: string, mode: FtsMode, match: string, wanted: number): SearchRow[] => {
    const top = repo.keywordIdsAnyone(match, OVERFETCH * wanted);
    const mine = repo.firstRowsInOrder(userId, top, wanted);
    if (mine.length >= wanted || top.length < OVERFETCH * wanted) return mine;
    const terms = mode === "exact" ? null : plainTerms(q);
    const scored = terms && terms.length > 0 ? ownScored(userId, terms, mode === "and", wanted) : null;
    return repo.rowsInOrder(userId, scored ?? repo.keywordIds(match, userId, wanted));
  };

  /**
   * A small account's best matches for plain `terms`, scored among its own ideas only (null when the account is
   * large). FTS5 alone would score and join every account's matches to keep the caller's: in a shared
   * instance that grows with everyone's ideas. A 2,000-idea account among 100,000 ideas: 6.3–6.7 ms per search
   * against 11.1 ms (same results on 60 queries). Same scores as bm25(); ties in id order.
   */
  const ownScored = (userId: string, terms: string[], all: boolean, wanted: number): number[] | null => {
    const ids = repo.liveIdeaIds(userId, ACCOUNT_SCORING_MAX);
    if (ids === null) return null;
    const scores = plainScoresAmong(terms, ids, all);
    return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, wanted).map(([id]) => id);
  };

  /**
   * A query in a script without spaces: the bigram index, plus (in `or` mode) the main index for its other words.
   * An idea found by both keeps its better BM25 (the bigram index holds all of such an idea's words, so its score
   * there covers the whole query). The union's top `wanted` is within each side's top `wanted`, so each side is cut.
   */
  const segmentedRows = (userId: string, q: { cjk: string | null; main: string | null }, wanted: number): SearchRow[] => {
    const best = new Map<number, number>();
    const add = (rows: Array<{ id: number; bm25: number }>) => {
      for (const r of rows) best.set(r.id, Math.min(r.bm25, best.get(r.id) ?? Infinity));
    };
    if (q.cjk) {
      indexPending();
      add(repo.keywordScored("cjk", q.cjk, userId, wanted));
    }
    if (q.main) add(repo.keywordScored("main", q.main, userId, wanted));
    const ids = [...best].sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, wanted).map(([id]) => id);
    return repo.rowsInOrder(userId, ids);
  };

  /**
   * BM25 of those of `ids` that contain any of `terms` (all plain), from the index's own counts (bm25.ts): the same
   * numbers as `bm25()` over `MATCH "a" OR "b" … AND rowid IN (ids)`, without its pass over every term per id. With
   * the ids' own text at hand (the second stage's candidates), their occurrences are counted in it (term-count.ts)
   * unless a token there could be read differently by the index.
   */
  const plainScoresAmong = (terms: string[], ids: number[], all = false, texts?: Map<number, SearchRow>): Map<number, number> => {
    const counted = texts ? countTerms(terms, ids.flatMap((id) => texts.get(id) ?? [])) : null;
    let hits: TermHit[] = (counted ?? repo.termHits(terms, ids)).map((h) => ({ term: h.term, doc: h.doc, weight: COLUMN_WEIGHTS[h.col] ?? 1 }));
    if (all) {
      // `and` mode: only rows holding every term match.
      const seen = new Map<number, Set<number>>();
      for (const h of hits) (seen.get(h.doc) ?? seen.set(h.doc, new Set()).get(h.doc)!).add(h.term);
      hits = hits.filter((h) => seen.get(h.doc)!.size === terms.length);
    }
    if (hits.length === 0) return new Map();
    const docs = [...new Set(hits.map((h) => h.doc))];
    return bm25Scores(repo.indexTotals(), terms.map(repo.docsWithTerm), hits, repo.tokenCounts(docs));
  };

  /** Main-index BM25 among `ids` for an `or` query: from the vocabulary when every word is plain, else bm25() itself. */
  const mainScoresAmong = (q: string, ids: number[], texts?: Map<number, SearchRow>): Map<number, number> => {
    const terms = plainTerms(q);
    if (terms === null) return repo.keywordScoresAmong(ftsQuery(q, "or")!, ids);
    return terms.length === 0 || ids.length === 0 ? new Map() : plainScoresAmong(terms, ids, false, texts);
  };

  return {
    /** The caller's live ideas matching `q` in `mode`, best BM25 first, at most `wanted`. */
    rows(userId: string, q: string, mode: FtsMode, wanted: number): SearchRow[] {
      const segmented = segmentedQuery(q, mode);
      if (segmented) return segmentedRows(userId, segmented, wanted);
      const match = ftsQuery(q, mode);
      return match ? mainRows(userId, q, mode, match, wanted) : [];
    },
    /** BM25 relevance (higher = better) of those of `ids` that match `q` in `or` mode: the second stage's evidence. */
    scoresAmong(q: string, ids: number[], texts?: Map<number, SearchRow>): Map<number, number> {
      const segmented = segmentedQuery(q, "or");
      if (!segmented) return mainScoresAmong(q, ids, texts);
      const scores = segmented.main ? repo.keywordScoresAmong(segmented.main, ids) : new Map<number, number>();
      if (segmented.cjk) {
        indexPending();
        for (const [id, s] of repo.cjkScoresAmong(segmented.cjk, ids)) scores.set(id, Math.max(s, scores.get(id) ?? -Infinity));
      }
      return scores;
    },
    indexPending,
  };
}
export type KeywordSearch = ReturnType<typeof createKeywordSearch>;
