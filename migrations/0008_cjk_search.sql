-- Why: unicode61 sees a run of Chinese, Japanese, Korean or Thai text (no spaces between words) as one token, so
-- no word inside it could be found. A second FTS5 index holds a "bigram view" of every idea whose title or body
-- contains such a script: each run becomes its overlapping two-character tokens, other words stay words; a query
-- word is then the phrase of its bigrams (see src/modules/search/segment.ts). SQL cannot cut text into bigrams,
-- so triggers only queue the idea (and drop its stale row); the search service writes the view before it queries.
-- Ideas without those scripts never enter this index: their only cost is the GLOB in the triggers' WHEN.

-- Contentless: the view text is derived, never read back; contentless_delete lets triggers drop a row by rowid.
CREATE VIRTUAL TABLE ideas_fts_cjk USING fts5(
  title, body,
  content = '', contentless_delete = 1,
  tokenize = 'ascii'
);

CREATE TABLE ideas_fts_cjk_pending (idea_id INTEGER PRIMARY KEY);

-- The character class is a superset of the scripts segment.ts cuts into bigrams (Thai, Lao, Myanmar, Hangul Jamo,
-- Khmer, CJK radicals to unified ideographs incl. kana and Hangul compatibility, Hangul Jamo ext. A, syllables and
-- ext. B, compatibility ideographs, half-width katakana and Hangul, ideograph extensions B and later): a false
-- positive only queues an idea that gets an empty view.
CREATE TRIGGER ideas_fts_cjk_insert AFTER INSERT ON ideas
WHEN new.title GLOB '*[฀-໿က-႟ᄀ-ᇿក-៿⺀-鿿ꥠ-꥿가-퟿豈-﫿ｦ-ￜ𠀀-𿿿]*'
  OR new.body GLOB '*[฀-໿က-႟ᄀ-ᇿក-៿⺀-鿿ꥠ-꥿가-퟿豈-﫿ｦ-ￜ𠀀-𿿿]*'
BEGIN
  INSERT OR IGNORE INTO ideas_fts_cjk_pending (idea_id) VALUES (new.id);
END;

CREATE TRIGGER ideas_fts_cjk_update AFTER UPDATE OF title, body ON ideas
WHEN old.title GLOB '*[฀-໿က-႟ᄀ-ᇿក-៿⺀-鿿ꥠ-꥿가-퟿豈-﫿ｦ-ￜ𠀀-𿿿]*'
  OR old.body GLOB '*[฀-໿က-႟ᄀ-ᇿក-៿⺀-鿿ꥠ-꥿가-퟿豈-﫿ｦ-ￜ𠀀-𿿿]*'
  OR new.title GLOB '*[฀-໿က-႟ᄀ-ᇿក-៿⺀-鿿ꥠ-꥿가-퟿豈-﫿ｦ-ￜ𠀀-𿿿]*'
  OR new.body GLOB '*[฀-໿က-႟ᄀ-ᇿក-៿⺀-鿿ꥠ-꥿가-퟿豈-﫿ｦ-ￜ𠀀-𿿿]*'
BEGIN
  DELETE FROM ideas_fts_cjk WHERE rowid = old.id;
  INSERT OR IGNORE INTO ideas_fts_cjk_pending (idea_id) VALUES (new.id);
END;

CREATE TRIGGER ideas_fts_cjk_delete AFTER DELETE ON ideas BEGIN
  DELETE FROM ideas_fts_cjk WHERE rowid = old.id;
  DELETE FROM ideas_fts_cjk_pending WHERE idea_id = old.id;
END;

-- Backfill: every existing idea in those scripts is queued; the first search that needs the index writes them.
INSERT INTO ideas_fts_cjk_pending (idea_id)
SELECT id FROM ideas
WHERE title GLOB '*[฀-໿က-႟ᄀ-ᇿក-៿⺀-鿿ꥠ-꥿가-퟿豈-﫿ｦ-ￜ𠀀-𿿿]*'
   OR body GLOB '*[฀-໿က-႟ᄀ-ᇿក-៿⺀-鿿ꥠ-꥿가-퟿豈-﫿ｦ-ￜ𠀀-𿿿]*';
