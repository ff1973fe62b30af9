-- Why: keyword search on PostgreSQL (issue 34) summed FTS5's BM25 in TypeScript over every posting of a common word,
-- and counted a phrase's rows over the whole instance from positions. src/modules/search/fulltext-pg-repo.ts now sums
-- it in SQL and returns only the top rows; for that each posting carries its row's length (no join per hit), the
-- indexes carry what BM25 reads of a posting (index-only scans), and the main index also holds each
-- pair of adjacent tokens in a column as a term of its own ("a b": no token holds a space), so a two-token phrase is
-- one posting and its row count is kept in keyword_terms like a word's. Terms past 512 characters are stored as a
-- prefix and a hash (a btree entry holds ~2.7 KB). The index is emptied and every idea queued again: the next search
-- indexes them (as after migrations/pg/0008).

DELETE FROM keyword_postings;
DELETE FROM keyword_docs;
DELETE FROM keyword_terms;
UPDATE keyword_totals SET docs = 0, tokens = 0;

ALTER TABLE keyword_postings ADD COLUMN tokens integer NOT NULL;
ALTER TABLE keyword_postings DROP CONSTRAINT keyword_postings_pkey;
ALTER TABLE keyword_postings ADD PRIMARY KEY (ix, term, user_id, idea_id) INCLUDE (title_n, body_n, tokens);
DROP INDEX keyword_postings_idea;
CREATE INDEX keyword_postings_idea ON keyword_postings (idea_id, ix, term) INCLUDE (title_n, body_n, tokens);

INSERT INTO keyword_pending (idea_id, user_id) SELECT id, user_id FROM ideas ON CONFLICT (idea_id) DO NOTHING;
