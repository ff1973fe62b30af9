-- Why: keyword search on PostgreSQL (issue 34) ranks as FTS5 does on SQLite, with the same BM25 over the same
-- tokens, so it needs an index that keeps what BM25 reads: per row its account and length, per term and row its hits
-- by column (with positions, for phrases), per term its row count, and per index its row and token totals.
-- ts_rank is not BM25 and to_tsvector does not cut text as FTS5's unicode61 does, so this is a plain inverted index
-- written by the application (src/modules/search/fulltext-pg-repo.ts) with the same tokenizer as FTS5 (unicode61.ts).
-- SQL cannot run that tokenizer, so the triggers only queue the idea, as migrations/0008 does for SQLite's bigram
-- index: the search service indexes the queued ideas before it queries, in the same store. `ix` 0 is the main index
-- (title, body and the account: its length counts one owner token, as FTS5's owner column does), 1 the bigram one.
-- keyword_terms and keyword_totals are instance-wide figures (BM25's IDF and average length are the instance's, as
-- FTS5's are), not an account's rows; every other table carries user_id.

CREATE TABLE keyword_pending (
  idea_id bigint PRIMARY KEY,
  user_id text NOT NULL
);

CREATE TABLE keyword_docs (
  ix      smallint NOT NULL,
  idea_id bigint NOT NULL,
  user_id text NOT NULL,
  tokens  integer NOT NULL,
  PRIMARY KEY (idea_id, ix)
);

-- Positions are the token offsets in the column, space-separated (read only for phrases of several tokens).
CREATE TABLE keyword_postings (
  ix        smallint NOT NULL,
  term      text NOT NULL,
  user_id   text NOT NULL,
  idea_id   bigint NOT NULL,
  title_n   integer NOT NULL,
  body_n    integer NOT NULL,
  title_pos text NOT NULL,
  body_pos  text NOT NULL,
  PRIMARY KEY (ix, term, user_id, idea_id)
);
CREATE INDEX keyword_postings_idea ON keyword_postings (idea_id, ix, term);

CREATE TABLE keyword_terms (
  ix   smallint NOT NULL,
  term text NOT NULL,
  docs bigint NOT NULL,
  PRIMARY KEY (ix, term)
);

CREATE TABLE keyword_totals (
  ix     smallint PRIMARY KEY,
  docs   bigint NOT NULL,
  tokens bigint NOT NULL
);
INSERT INTO keyword_totals (ix, docs, tokens) VALUES (0, 0, 0), (1, 0, 0);

-- The upsert takes the queued row's lock, so an indexer that claimed it (and read the idea before this write
-- committed) is waited for, and the row is queued again after it: no edit is ever left unindexed.
CREATE FUNCTION keyword_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO keyword_pending (idea_id, user_id) VALUES (OLD.id, OLD.user_id)
    ON CONFLICT (idea_id) DO UPDATE SET user_id = EXCLUDED.user_id;
    RETURN OLD;
  END IF;
  INSERT INTO keyword_pending (idea_id, user_id) VALUES (NEW.id, NEW.user_id)
  ON CONFLICT (idea_id) DO UPDATE SET user_id = EXCLUDED.user_id;
  RETURN NEW;
END $$;

CREATE TRIGGER ideas_keyword_insert AFTER INSERT ON ideas FOR EACH ROW EXECUTE FUNCTION keyword_queue();
CREATE TRIGGER ideas_keyword_update AFTER UPDATE OF title, body, user_id ON ideas FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.body IS DISTINCT FROM NEW.body OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION keyword_queue();
CREATE TRIGGER ideas_keyword_delete AFTER DELETE ON ideas FOR EACH ROW EXECUTE FUNCTION keyword_queue();

-- Ideas already here are indexed by the first search.
INSERT INTO keyword_pending (idea_id, user_id) SELECT id, user_id FROM ideas;
