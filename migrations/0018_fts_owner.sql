-- Why: the keyword index was one FTS5 index over every account's ideas, filtered by owner after matching, so a common
-- word cost what it costs across the whole instance (a 200-idea account's search among 200,000 ideas: up to 263 ms,
-- docs/scaling.md), not in the caller's account. A third column now holds one token per idea naming its account, and
-- searches match `owner:"<token>" AND {title body}:(…)`: FTS5 intersects the two lists inside the index.
-- The token is 'o' and the account id's UTF-8 bytes in hex (one unicode61 token whatever the id holds); the code
-- computes it the same way (modules/search/owner.ts). Queries always restrict words to {title body}, so no search
-- matches an owner token. BM25 is computed over the index as before; each idea's length now counts its owner token.
-- The content stays the ideas table, read through a view that adds the token (for 'rebuild' and FTS5's own reads).

DROP TRIGGER ideas_fts_insert;
DROP TRIGGER ideas_fts_delete;
DROP TRIGGER ideas_fts_update;
DROP TABLE ideas_fts;

CREATE VIEW ideas_fts_content AS
SELECT id, title, body, 'o' || lower(hex(user_id)) AS owner FROM ideas;

CREATE VIRTUAL TABLE ideas_fts USING fts5(
  title, body, owner,
  content = 'ideas_fts_content', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO ideas_fts(ideas_fts) VALUES ('rebuild');

CREATE TRIGGER ideas_fts_insert AFTER INSERT ON ideas BEGIN
  INSERT INTO ideas_fts(rowid, title, body, owner) VALUES (new.id, new.title, new.body, 'o' || lower(hex(new.user_id)));
END;
CREATE TRIGGER ideas_fts_delete AFTER DELETE ON ideas BEGIN
  INSERT INTO ideas_fts(ideas_fts, rowid, title, body, owner)
  VALUES ('delete', old.id, old.title, old.body, 'o' || lower(hex(old.user_id)));
END;
-- An idea moved to another account (user_id written) is re-indexed under its new owner.
CREATE TRIGGER ideas_fts_update AFTER UPDATE OF title, body, user_id ON ideas BEGIN
  INSERT INTO ideas_fts(ideas_fts, rowid, title, body, owner)
  VALUES ('delete', old.id, old.title, old.body, 'o' || lower(hex(old.user_id)));
  INSERT INTO ideas_fts(rowid, title, body, owner) VALUES (new.id, new.title, new.body, 'o' || lower(hex(new.user_id)));
END;
