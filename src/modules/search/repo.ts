// SQL for search: BM25 keyword matches, result rows by id, and the monthly semantic-search counter.
import type { Store } from "../../db/store";
import type { IdeaRow } from "../ideas/repo";
import { readVarints, type IndexTotals } from "./bm25";
import { inText, ownMatch } from "./owner";

export type SearchRow = Pick<IdeaRow, "id" | "number" | "title" | "body" | "source" | "source_url" | "is_archived" | "created_at" | "updated_at"> & { status: string };

/**
 * Title hits weigh twice body hits: a word in the title says more about what the idea is. The owner column
 * (migrations/0018) weighs nothing: its token is in a query only to restrict it to the caller's ideas.
 */
export const COLUMN_WEIGHTS: Readonly<Record<string, number>> = { title: 2.0, body: 1.0, owner: 0.0 };
const BM25 = `bm25(ideas_fts, ${COLUMN_WEIGHTS.title.toFixed(1)}, ${COLUMN_WEIGHTS.body.toFixed(1)}, ${COLUMN_WEIGHTS.owner.toFixed(1)})`;
/** The same weights on the bigram index (migrations/0008) for queries in scripts written without spaces. */
const BM25_CJK = "bm25(ideas_fts_cjk, 2.0, 1.0)";

export function createSearchRepo(store: Store) {
  // Full-text search is one of the places the stores differ (FTS5 here). FTS5's own views of the main index, per
  // connection (temp): documents per term, and every occurrence of a term. Made before the statements that read them.
  // On PostgreSQL the statements below are made but fail when run, until its index lands (issue 34).
  store.sqlite?.run("CREATE VIRTUAL TABLE IF NOT EXISTS temp.ideas_fts_terms USING fts5vocab(main, ideas_fts, row)");
  store.sqlite?.run("CREATE VIRTUAL TABLE IF NOT EXISTS temp.ideas_fts_occurrences USING fts5vocab(main, ideas_fts, instance)");
  // FTS5's "averages" record (rowid 1 of its data table): row count, then total tokens per column.
  const averages = store.query<{ block: Uint8Array }, []>("SELECT block FROM ideas_fts_data WHERE id = 1");
  const termDocs = store.query<{ doc: number }, [string]>("SELECT doc FROM temp.ideas_fts_terms WHERE term = ?1");
  const termHits = store.query<{ doc: number; col: string }, [string, string]>(
    "SELECT doc, col FROM temp.ideas_fts_occurrences WHERE term = ?1 AND doc IN (SELECT value FROM json_each(?2)) AND col <> 'owner'",
  );
  // Every idea (live or archived) matching an owner-restricted expression, in id order: no scoring, so it stops at ?2.
  const ownIds = store.query<{ id: number }, [string, number]>("SELECT rowid AS id FROM ideas_fts WHERE ideas_fts MATCH ?1 LIMIT ?2");
  const docSizes = store.query<{ id: number; sz: Uint8Array }, [string]>(
    "SELECT id, sz FROM ideas_fts_docsize WHERE id IN (SELECT value FROM json_each(?1))",
  );
  const keywordAnyone = store.query<{ id: number }, [string, number]>(
    `SELECT rowid AS id FROM ideas_fts WHERE ideas_fts MATCH ?1 ORDER BY ${BM25} LIMIT ?2`,
  );
  const keywordAmong = store.query<{ id: number; bm25: number }, [string, string]>(
    `SELECT rowid AS id, ${BM25} AS bm25 FROM ideas_fts WHERE ideas_fts MATCH ?1 AND rowid IN (SELECT value FROM json_each(?2))`,
  );
  // CROSS JOIN fixes the order: one primary-key lookup per id. (Left to itself the planner may walk the account's
  // whole (user_id, is_archived) index and test each row against the list: 0.7 ms instead of 0.05 at 100k ideas.)
  const rows = store.query<SearchRow, [string, string]>(
    `SELECT i.id, i.number, i.title, i.body, i.status, i.source, i.source_url, i.is_archived, i.created_at, i.updated_at
     FROM json_each(?2) j CROSS JOIN ideas i ON i.id = j.value WHERE i.user_id = ?1 AND i.is_archived = 0`,
  );
  const firstRows = store.query<SearchRow, [string, string, number]>(
    `SELECT i.id, i.number, i.title, i.body, i.status, i.source, i.source_url, i.is_archived, i.created_at, i.updated_at
     FROM json_each(?2) j CROSS JOIN ideas i ON i.id = j.value WHERE i.user_id = ?1 AND i.is_archived = 0
     ORDER BY j.key LIMIT ?3`,
  );
  // ?1 is restricted to the caller's ideas in the main index (ownMatch); the bigram index still filters by join.
  const scored = (table: string, bm25: string) =>
    store.query<{ id: number; bm25: number }, [string, string, number]>(
      `SELECT f.rowid AS id, ${bm25} AS bm25 FROM ${table} f JOIN ideas i ON i.id = f.rowid
       WHERE ${table} MATCH ?1 AND i.user_id = ?2 AND i.is_archived = 0 ORDER BY ${bm25}, f.rowid LIMIT ?3`,
    );
  const scoredMain = scored("ideas_fts", BM25);
  const scoredCjk = scored("ideas_fts_cjk", BM25_CJK);
  const cjkAmong = store.query<{ id: number; bm25: number }, [string, string]>(
    `SELECT rowid AS id, ${BM25_CJK} AS bm25 FROM ideas_fts_cjk WHERE ideas_fts_cjk MATCH ?1 AND rowid IN (SELECT value FROM json_each(?2))`,
  );
  const pending = store.query<{ id: number; title: string | null; body: string | null }, [number]>(
    `SELECT p.idea_id AS id, i.title, i.body FROM ideas_fts_cjk_pending p LEFT JOIN ideas i ON i.id = p.idea_id LIMIT ?1`,
  );
  const unindex = store.query("DELETE FROM ideas_fts_cjk WHERE rowid = ?1");
  const index = store.query("INSERT INTO ideas_fts_cjk (rowid, title, body) VALUES (?1, ?2, ?3)");
  const unqueue = store.query("DELETE FROM ideas_fts_cjk_pending WHERE idea_id = ?1");
  const usage = store.query<{ count: number }, [string, string, string]>(
    "SELECT count FROM usage_counters WHERE user_id = ? AND kind = ? AND period = ?",
  );
  const bump = store.query(
    `INSERT INTO usage_counters (user_id, kind, period, count) VALUES (?1, ?2, ?3, 1)
     ON CONFLICT (user_id, kind, period) DO UPDATE SET count = count + 1`,
  );

  return {
    /** The caller's live ideas matching an FTS5 expression, best BM25 first (the match restricted inside the index). */
    keywordIds: async (match: string, userId: string, limit: number) =>
      (await scoredMain.all(ownMatch(userId, match), userId, limit)).map((r) => r.id),
    /** Ids of the caller's ideas (archived too) matching the expression, in id order, at most `limit`; unscored. */
    ownMatchIds: async (match: string, userId: string, limit: number) => (await ownIds.all(ownMatch(userId, match), limit)).map((r) => r.id),
    /** Best BM25 matches over every account's ideas: no per-match ownership lookup, the caller filters. */
    keywordIdsAnyone: async (match: string, limit: number) => (await keywordAnyone.all(inText(match), limit)).map((r) => r.id),
    /** BM25 relevance (higher = better) of those of `ids` that match the expression: the second stage's evidence. */
    keywordScoresAmong: async (match: string, ids: number[]) =>
      new Map((await keywordAmong.all(inText(match), JSON.stringify(ids))).map((r) => [r.id, -r.bm25])),
    /** Rows and tokens (all columns) in the main index, as bm25() sees them. */
    async indexTotals(): Promise<IndexTotals> {
      const block = (await averages.get())?.block;
      if (!block) return { rows: 0, tokens: 0 };
      const [rows, ...perColumn] = readVarints(block);
      return { rows, tokens: perColumn.reduce((a, b) => a + b, 0) };
    },
    /** How many rows of the main index contain `term` (a token exactly as the index stores it). */
    docsWithTerm: async (term: string) => (await termDocs.get(term))?.doc ?? 0,
    /** Every occurrence of each of `terms` in the rows among `ids`: which term (its index), which row, which column. */
    async termHits(terms: string[], ids: number[]): Promise<Array<{ term: number; doc: number; col: string }>> {
      const among = JSON.stringify(ids);
      const out: Array<{ term: number; doc: number; col: string }> = [];
      for (const [i, term] of terms.entries()) for (const h of await termHits.all(term, among)) out.push({ term: i, doc: h.doc, col: h.col });
      return out;
    },
    /** Tokens over all columns of each of `ids` that is in the main index. */
    tokenCounts: async (ids: number[]) =>
      new Map((await docSizes.all(JSON.stringify(ids))).map((r) => [r.id, readVarints(r.sz).reduce((a, b) => a + b, 0)])),
    /** The caller's live ideas among `ids`, in the order of `ids`; others' and archived ids drop out. */
    async rowsInOrder(userId: string, ids: number[]): Promise<SearchRow[]> {
      if (ids.length === 0) return [];
      const byId = new Map((await rows.all(userId, JSON.stringify(ids))).map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    /** The first `limit` of `ids` that are the caller's live ideas, in the order of `ids`. */
    firstRowsInOrder: async (userId: string, ids: number[], limit: number): Promise<SearchRow[]> =>
      ids.length === 0 ? [] : firstRows.all(userId, JSON.stringify(ids), limit),
    /** The caller's live ideas matching on the main or the bigram index, with BM25 (lower = better), best first. */
    keywordScored: (index: "main" | "cjk", match: string, userId: string, limit: number) =>
      index === "main" ? scoredMain.all(ownMatch(userId, match), userId, limit) : scoredCjk.all(match, userId, limit),
    /** As keywordScoresAmong, on the bigram index. */
    cjkScoresAmong: async (match: string, ids: number[]) =>
      new Map((await cjkAmong.all(match, JSON.stringify(ids))).map((r) => [r.id, -r.bm25])),
    /** Ideas the triggers queued for the bigram index (title null: the idea is gone). */
    pendingCjk: (limit: number) => pending.all(limit),
    /** Replaces an idea's row in the bigram index (or only dequeues it when `view` is null) in one transaction. */
    writeCjk: (rows: Array<{ id: number; view: { title: string; body: string } | null }>) =>
      store.tx(async () => {
        for (const r of rows) {
          await unindex.run(r.id);
          if (r.view) await index.run(r.id, r.view.title, r.view.body);
          await unqueue.run(r.id);
        }
      }),
    /** Runs `fn` in one IMMEDIATE transaction (reads and writes that must see the same rows). */
    immediate: <T>(fn: () => Promise<T>): Promise<T> => store.tx(fn, { immediate: true }),
    usageCount: async (userId: string, kind: string, period: string) => (await usage.get(userId, kind, period))?.count ?? 0,
    bumpUsage: async (userId: string, kind: string, period: string) => void (await bump.run(userId, kind, period)),
  };
}
export type SearchRepo = ReturnType<typeof createSearchRepo>;
