-- Why: the background pipeline and search ask "which live ideas / tags still lack a vector of the current model?"
-- on every batch, every recovery run and every health probe; these indexes make that a range scan, not a table scan.
-- The vec0 tables themselves are created at run time, one pair per embedding generation (their width depends on
-- the model), and recorded in app_state under 'embeddings' (see src/vectors/generations.ts).

CREATE INDEX ideas_embedding_state ON ideas(vectorize_id) WHERE is_archived = 0;
CREATE INDEX tags_embedding_state ON tags(vectorize_id);
-- The recovery job skips ideas that already have a job waiting.
CREATE INDEX jobs_idea ON jobs(idea_id);
