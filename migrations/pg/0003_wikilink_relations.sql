-- Why: SQLite's migration 0022 (issue 36, where the why is): relations.from_text marks the relations a body's
-- [[wikilinks]] made, so only they are removed with a link. Here as there.
ALTER TABLE relations ADD COLUMN from_text bigint NOT NULL DEFAULT 0;
