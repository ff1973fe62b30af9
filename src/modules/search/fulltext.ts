// The keyword index as keyword.ts asks it: one of the places the stores differ (FTS5 on SQLite, plain tables on
// PostgreSQL), each behind this interface, both ranking with the same BM25 over the same tokens.
import type { IdeaRow } from "../ideas/repo";
import type { IndexTotals } from "./bm25";
import type { TextQuery } from "./tokenize";

/**
 * An idea as search reads it (repo.ts). `tags`: its tag names in code point order, when the statement that read the
 * row also read them (PostgreSQL's keywordRowsIndexed: no second round trip for them); otherwise the service reads them.
 */
export type SearchRow = Pick<IdeaRow, "id" | "number" | "title" | "body" | "status" | "source" | "source_url" | "is_archived" | "created_at" | "updated_at"> & {
  tags?: string[];
};

/** Which index: the main one (unicode61 tokens of title and body, plus the owner), or the bigram one (segment.ts). */
export type IndexName = "main" | "cjk";

/**
 * BM25 everywhere is FTS5's: k1 1.2, b 0.75, per-phrase IDF over the whole instance (every account's ideas, archived
 * ones too), a row's length counted over all its columns, phrase hits weighed by COLUMN_WEIGHTS. `bm25` values are
 * FTS5's sign (lower = better); "scores" are the negation (higher = better). Ties go to the lower id.
 */
export interface FullTextIndex {
  /**
   * Whether keywordIds and keywordScoresAmong cost what the caller's (or the given) matches cost, whatever else the
   * instance holds, in one statement (PostgreSQL's: BM25 summed in SQL over the account's postings). keyword.ts then
   * asks them directly; FTS5's bm25() over an account's common word is slow, so on SQLite it chooses a plan first.
   */
  readonly ranksInIndex: boolean;
  /**
   * An index that ranks in one statement (PostgreSQL's) may answer a whole keyword query there: whether any idea is
   * queued for the index, and if none the caller's best live ideas on the main index with their rows, best first, at
   * most `limit`, each with its tags (one round trip for what is otherwise four). Null when it cannot (ideas queued: keyword.ts indexes
   * them and asks again the usual way; a phrase that needs positions). Absent on SQLite.
   */
  keywordRowsIndexed?(q: TextQuery, userId: string, limit: number): Promise<SearchRow[] | null>;
  /** The caller's live ideas matching `q` on the main index, best first, at most `limit`. */
  keywordIds(q: TextQuery, userId: string, limit: number): Promise<number[]>;
  /** Ids of the caller's ideas (archived too) matching `q`, in id order, at most `limit`; unscored. */
  ownMatchIds(q: TextQuery, userId: string, limit: number): Promise<number[]>;
  /** Best matches over every account's ideas (the caller filters), best first. */
  keywordIdsAnyone(q: TextQuery, limit: number): Promise<number[]>;
  /** Scores of those of `ids` that match `q` on the main index. */
  keywordScoresAmong(q: TextQuery, ids: number[]): Promise<Map<number, number>>;
  /** Rows and tokens (all columns) of the main index. */
  indexTotals(): Promise<IndexTotals>;
  /** Rows of the main index holding `term` (one token as the index stores it) in a text column. */
  docsWithTerm(term: string): Promise<number>;
  /** Every occurrence of each of `terms` in the text columns of the rows among `ids`. */
  termHits(terms: string[], ids: number[]): Promise<Array<{ term: number; doc: number; col: string }>>;
  /** Tokens over all columns of each of `ids` that is in the main index. */
  tokenCounts(ids: number[]): Promise<Map<number, number>>;
  /** The caller's live ideas matching on either index, with bm25, best first. */
  keywordScored(index: IndexName, q: TextQuery, userId: string, limit: number): Promise<Array<{ id: number; bm25: number }>>;
  /** As keywordScoresAmong, on the bigram index. */
  cjkScoresAmong(q: TextQuery, ids: number[]): Promise<Map<number, number>>;
  /** Brings `index` up to date with the ideas written since it was last read (where the store does not keep it so). */
  indexPending(index: IndexName): Promise<void>;
}
