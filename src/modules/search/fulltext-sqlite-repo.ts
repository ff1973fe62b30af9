// The keyword index on SQLite: FTS5's ideas_fts (kept by triggers, migrations/0018) and the bigram ideas_fts_cjk
// (queued by triggers, written here before it is read: migrations/0008).
import type { Store } from "../../db/store";
import { readVarints, type IndexTotals } from "./bm25";
import type { FullTextIndex } from "./fulltext";
import { inText, ownMatch } from "./owner";
import { COLUMN_WEIGHTS } from "./weights";
import { segmentText } from "./segment";
import type { TextQuery } from "./tokenize";

const BM25 = `bm25(ideas_fts, ${COLUMN_WEIGHTS.title.toFixed(1)}, ${COLUMN_WEIGHTS.body.toFixed(1)}, ${COLUMN_WEIGHTS.owner.toFixed(1)})`;
/** The same weights on the bigram index (migrations/0008) for queries in scripts written without spaces. */
const BM25_CJK = `bm25(ideas_fts_cjk, ${COLUMN_WEIGHTS.title.toFixed(1)}, ${COLUMN_WEIGHTS.body.toFixed(1)})`;

/** Queued ideas written to the bigram index per transaction (a backfill of many does not hold the writer long). */
const DRAIN_BATCH = 500;

/**
 * The FTS5 MATCH expression of a query: every phrase double-quoted (inner quotes doubled), so FTS5 keywords (AND,
 * NEAR, NOT), column filters (title:) and operators (* ^ -) in user input are plain words.
 */
export const fts5Match = (q: TextQuery): string => q.phrases.map((p) => `"${p.replace(/"/g, '""')}"`).join(q.op === "and" ? " AND " : " OR ");

export function createFts5Index(store: Store): FullTextIndex {
  const sqlite = store.sqlite!;
  // FTS5's own views of the main index, per connection (temp): documents per term, and every occurrence of a term.
  // Made before the statements that read them.
  sqlite.run("CREATE VIRTUAL TABLE IF NOT EXISTS temp.ideas_fts_terms USING fts5vocab(main, ideas_fts, row)");
  sqlite.run("CREATE VIRTUAL TABLE IF NOT EXISTS temp.ideas_fts_occurrences USING fts5vocab(main, ideas_fts, instance)");
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
    `SELECT rowid AS id FROM ideas_fts WHERE ideas_fts MATCH ?1 ORDER BY ${BM25}, rowid LIMIT ?2`,
  );
  const keywordAmong = store.query<{ id: number; bm25: number }, [string, string]>(
    `SELECT rowid AS id, ${BM25} AS bm25 FROM ideas_fts WHERE ideas_fts MATCH ?1 AND rowid IN (SELECT value FROM json_each(?2))`,
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

  /**
   * Writes the bigram view of every idea the triggers queued. Read and write share one IMMEDIATE transaction, so an
   * edit cannot slip between reading a title and storing its view (the edit's trigger would be overwritten).
   */
  const drainCjk = async () => {
    for (;;) {
      const n = await store.tx(async () => {
        const rows = await pending.all(DRAIN_BATCH);
        for (const r of rows) {
          await unindex.run(r.id);
          if (r.title !== null) await index.run(r.id, segmentText(r.title), segmentText(r.body ?? ""));
          await unqueue.run(r.id);
        }
        return rows.length;
      }, { immediate: true });
      if (n < DRAIN_BATCH) return;
    }
  };

  return {
    ranksInIndex: false,
    keywordIds: async (q, userId, limit) => (await scoredMain.all(ownMatch(userId, fts5Match(q)), userId, limit)).map((r) => r.id),
    ownMatchIds: async (q, userId, limit) => (await ownIds.all(ownMatch(userId, fts5Match(q)), limit)).map((r) => r.id),
    keywordIdsAnyone: async (q, limit) => (await keywordAnyone.all(inText(fts5Match(q)), limit)).map((r) => r.id),
    keywordScoresAmong: async (q, ids) => new Map((await keywordAmong.all(inText(fts5Match(q)), JSON.stringify(ids))).map((r) => [r.id, -r.bm25])),
    async indexTotals(): Promise<IndexTotals> {
      const block = (await averages.get())?.block;
      if (!block) return { rows: 0, tokens: 0 };
      const [rows, ...perColumn] = readVarints(block);
      return { rows, tokens: perColumn.reduce((a, b) => a + b, 0) };
    },
    docsWithTerm: async (term) => (await termDocs.get(term))?.doc ?? 0,
    async termHits(terms, ids) {
      const among = JSON.stringify(ids);
      const out: Array<{ term: number; doc: number; col: string }> = [];
      for (const [i, term] of terms.entries()) for (const h of await termHits.all(term, among)) out.push({ term: i, doc: h.doc, col: h.col });
      return out;
    },
    tokenCounts: async (ids) =>
      new Map((await docSizes.all(JSON.stringify(ids))).map((r) => [r.id, readVarints(r.sz).reduce((a, b) => a + b, 0)])),
    keywordScored: (index, q, userId, limit) =>
      index === "main" ? scoredMain.all(ownMatch(userId, fts5Match(q)), userId, limit) : scoredCjk.all(fts5Match(q), userId, limit),
    cjkScoresAmong: async (q, ids) => new Map((await cjkAmong.all(fts5Match(q), JSON.stringify(ids))).map((r) => [r.id, -r.bm25])),
    // The main index is kept by triggers in the writing transaction itself; only the bigram view waits for a reader.
    indexPending: async (index) => (index === "cjk" ? drainCjk() : undefined),
  };
}
