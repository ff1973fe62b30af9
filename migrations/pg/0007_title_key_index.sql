-- Why: SQLite's migration 0024 (issue 36, where the why is): ideas by their title folded to lower case, so a
-- [[Title]] link is resolved without reading the account's rows. Here as there.
CREATE INDEX ideas_title_key ON ideas(user_id, lower(trim(title)));
