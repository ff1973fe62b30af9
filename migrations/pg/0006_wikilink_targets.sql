-- Why: SQLite's migration 0023 (issue 36, where the why is): the index of each idea's [[link]] targets, so a capture or
-- a rename finds the bodies that link to its title without reading them all. Here as there.
CREATE TABLE wikilink_targets (
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  target  text NOT NULL,
  idea_id bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, target, idea_id)
);
CREATE INDEX wikilink_targets_idea ON wikilink_targets(idea_id);
ALTER TABLE users ADD COLUMN wikilink_targets_ready bigint NOT NULL DEFAULT 0;
