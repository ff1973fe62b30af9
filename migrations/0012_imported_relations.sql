-- Why: links an author made in another tool, carried over by an import, are the person's own relations, not news.
-- They keep the date of the note that made them, and this flag keeps them out of the review queue's 7-day
-- "connections" group and the digest's new connections even when that date is recent (a freshly cloned or unzipped
-- folder dates every file today). Issue 25; docs/export-import.md.
ALTER TABLE relations ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
