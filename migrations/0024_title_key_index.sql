-- Why: a [[Title]] link is resolved by the title folded to lower case (issue 36). Reading the account's titles meant
-- reading its rows, bodies and all: 50 ms for a capture or an edit whose body holds a link in an account of 10,000
-- ideas, inside the write's transaction. This index answers an ASCII title's ideas at once (src/modules/wikilinks/
-- repo.ts, byTitleKeys, whose WHERE names the same expression); a title beyond ASCII is still folded in JS.
CREATE INDEX ideas_title_key ON ideas(user_id, lower(trim(title)));
