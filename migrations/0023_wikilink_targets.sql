-- Why: a [[link]] to a title no idea has yet becomes a link once an idea of that title is captured or renamed (issue
-- 36). Finding the bodies that link to a title by reading them all cost a capture 40 ms in an account of 10,000 ideas
-- (0.3 ms before); this table is the index: each idea's link targets as the parser folds them (a title's key, or
-- `#42`), written by the write path in the transaction of the body. Bodies written before it are read once per
-- account, at the first capture or rename that asks (users.wikilink_targets_ready), then never again.
CREATE TABLE wikilink_targets (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  target  TEXT NOT NULL,
  idea_id INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, target, idea_id)
) WITHOUT ROWID;
CREATE INDEX wikilink_targets_idea ON wikilink_targets(idea_id);
ALTER TABLE users ADD COLUMN wikilink_targets_ready INTEGER NOT NULL DEFAULT 0;
