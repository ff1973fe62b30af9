-- Why: an edit must not destroy the text it replaces (issue 36). Every state of an idea's title and body is a row of
-- idea_versions, written by triggers on ideas, so every writer (web, REST, bulk, MCP, the agent, e-mail, imports,
-- merges, restores, and any writer to come) is covered without each remembering to. Version 1 is the capture; the
-- newest row is the current state. Full text per version, not deltas (docs/ideas.md "Versions": the cost measured).
-- ideas.last_writer names who made the idea's current text (web, api, mcp, agent, import, merge, restore); a writer
-- sets it in the same UPDATE as the text. A capture leaves it NULL and its version names the idea's source instead.
ALTER TABLE ideas ADD COLUMN last_writer TEXT;

CREATE TABLE idea_versions (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  idea_id    INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  version    INTEGER NOT NULL,
  title      TEXT NOT NULL,
  body       TEXT NOT NULL,
  writer     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (idea_id, version)
);

-- The idea's own timestamps, not datetime('now'): the service's clock wrote them (tests inject time).
CREATE TRIGGER idea_versions_insert AFTER INSERT ON ideas BEGIN
  INSERT INTO idea_versions (idea_id, version, title, body, writer, created_at)
  VALUES (new.id, 1, new.title, new.body, COALESCE(new.last_writer, new.source), new.created_at);
END;

-- Only a real change of the text is a version: an UPDATE writing the same title and body adds none.
CREATE TRIGGER idea_versions_update AFTER UPDATE OF title, body ON ideas
  WHEN old.title IS NOT new.title OR old.body IS NOT new.body BEGIN
  INSERT INTO idea_versions (idea_id, version, title, body, writer, created_at)
  VALUES (new.id, COALESCE((SELECT max(version) FROM idea_versions WHERE idea_id = new.id), 0) + 1,
          new.title, new.body, COALESCE(new.last_writer, 'api'), new.updated_at);
END;

-- Ideas captured before this migration start their history at their current text, dated by their last change.
INSERT INTO idea_versions (idea_id, version, title, body, writer, created_at)
SELECT id, 1, title, body, source, updated_at FROM ideas ORDER BY id;
