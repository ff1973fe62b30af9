-- Why: GET /ideas is the hottest route, and two thirds of its time went into reading 14 columns of 20 rows into
-- objects and encoding them again as JSON (docs/performance.md, the list hot path). Each idea now carries its list
-- entry as JSON text, the exact object the list sends (src/modules/ideas/views.ts, toIdea), kept by the triggers
-- below in the same transaction as every change it depends on: the idea's own columns, its tags, a tag's new name.
-- It cannot be stale (no write path can forget it: the triggers see every write), so a page is 20 texts joined.
-- The shape is defined once, in the view below; test/ideas/list-json.test.ts holds it to the detail route's.
ALTER TABLE ideas ADD COLUMN list_json TEXT;

CREATE VIEW idea_list_entries AS
SELECT i.id, json_object(
  'id', i.id, 'number', i.number, 'title', i.title, 'body', i.body, 'status', i.status, 'source', i.source,
  'source_url', i.source_url, 'source_summary', i.source_summary, 'parent_id', i.parent_id,
  'vectorize_id', i.vectorize_id, 'is_archived', i.is_archived,
  -- Sorted by code point (BINARY compares UTF-8 bytes, which order as code points do), as namesForIdeas sorts.
  'tags', json((SELECT json_group_array(t.name ORDER BY t.name COLLATE BINARY) FROM idea_tags it JOIN tags t ON t.id = it.tag_id
                WHERE it.idea_id = i.id)),
  'created_at', i.created_at, 'updated_at', i.updated_at) AS entry
FROM ideas i;

-- The entry's own UPDATE touches list_json only, which none of these triggers lists, so none fires again.
CREATE TRIGGER ideas_list_json_insert AFTER INSERT ON ideas BEGIN
  UPDATE ideas SET list_json = (SELECT entry FROM idea_list_entries WHERE id = new.id) WHERE id = new.id;
END;
CREATE TRIGGER ideas_list_json_update
AFTER UPDATE OF id, number, title, body, status, source, source_url, source_summary, parent_id, vectorize_id,
  is_archived, created_at, updated_at ON ideas BEGIN
  UPDATE ideas SET list_json = (SELECT entry FROM idea_list_entries WHERE id = new.id) WHERE id = new.id;
END;
CREATE TRIGGER idea_tags_list_json_insert AFTER INSERT ON idea_tags BEGIN
  UPDATE ideas SET list_json = (SELECT entry FROM idea_list_entries WHERE id = new.idea_id) WHERE id = new.idea_id;
END;
CREATE TRIGGER idea_tags_list_json_delete AFTER DELETE ON idea_tags BEGIN
  UPDATE ideas SET list_json = (SELECT entry FROM idea_list_entries WHERE id = old.idea_id) WHERE id = old.idea_id;
END;
CREATE TRIGGER idea_tags_list_json_update AFTER UPDATE ON idea_tags BEGIN
  UPDATE ideas SET list_json = (SELECT entry FROM idea_list_entries WHERE id = old.idea_id) WHERE id = old.idea_id;
  UPDATE ideas SET list_json = (SELECT entry FROM idea_list_entries WHERE id = new.idea_id) WHERE id = new.idea_id;
END;
CREATE TRIGGER tags_list_json_rename AFTER UPDATE OF name ON tags BEGIN
  UPDATE ideas SET list_json = (SELECT entry FROM idea_list_entries e WHERE e.id = ideas.id)
  WHERE id IN (SELECT idea_id FROM idea_tags WHERE tag_id = new.id);
END;

UPDATE ideas SET list_json = (SELECT entry FROM idea_list_entries e WHERE e.id = ideas.id);
