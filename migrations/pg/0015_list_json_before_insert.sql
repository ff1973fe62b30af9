-- Why: a capture's list entry cost two extra writes of its idea row on PostgreSQL (issue 34). The AFTER INSERT trigger
-- updated the row it had just inserted (a second row version, every index entry of it again), and
-- refresh_list_json, a LANGUAGE sql function, was parsed and planned again on every call (PostgreSQL caches the plans
-- of PL/pgSQL functions per session, not those of SQL functions it cannot inline). Now one function writes an entry
-- from an idea's row, a new idea's entry is set on the row before it is inserted (no tags can point at it yet, so its
-- tags are []), and the refresh is PL/pgSQL. The entries are the same text as before (SQLite: migrations/0011).
-- PL/pgSQL, not SQL: a SQL function whose body holds a subquery is never inlined, so it was planned on every call.
CREATE FUNCTION idea_list_entry(i ideas) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN json_build_object(
    'id', i.id, 'number', i.number, 'title', i.title, 'body', i.body, 'status', i.status, 'source', i.source,
    'source_url', i.source_url, 'source_summary', i.source_summary, 'parent_id', i.parent_id,
    'vectorize_id', i.vectorize_id, 'is_archived', i.is_archived,
    'tags', COALESCE((SELECT json_agg(t.name ORDER BY t.name COLLATE "C") FROM idea_tags it JOIN tags t ON t.id = it.tag_id
                      WHERE it.idea_id = i.id), '[]'::json),
    'created_at', i.created_at, 'updated_at', i.updated_at)::text;
END $$;

CREATE OR REPLACE VIEW idea_list_entries AS SELECT i.id, idea_list_entry(i) AS entry FROM ideas i;

CREATE OR REPLACE FUNCTION refresh_list_json(idea bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ideas SET list_json = idea_list_entry(ideas) WHERE id = idea;
END $$;

CREATE FUNCTION ideas_list_json_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.list_json := idea_list_entry(NEW);
  RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS ideas_list_json_insert ON ideas;
CREATE TRIGGER ideas_list_json_insert BEFORE INSERT ON ideas FOR EACH ROW EXECUTE FUNCTION ideas_list_json_new();

CREATE OR REPLACE FUNCTION tags_list_json_rename() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ideas SET list_json = idea_list_entry(ideas) WHERE id IN (SELECT idea_id FROM idea_tags WHERE tag_id = NEW.id);
  RETURN NULL;
END $$;
