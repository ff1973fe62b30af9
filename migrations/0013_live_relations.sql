-- Why: "relations touching an archived idea are hidden" (spec: archived ideas are excluded from every relation query,
-- both directions) was written into seven statements across six repos, with differing ownership filters. It is now
-- this one view: a relation whose two ends are unarchived ideas of the relation's own account. Every reader outside
-- the relations store reads it instead of the table; test/foundation/stores.test.ts keeps it so.
CREATE VIEW live_relations AS
SELECT r.id, r.user_id, r.source_idea_id, r.target_idea_id, r.relation_type, r.score, r.note, r.created_by, r.created_at,
  r.imported
FROM relations r
JOIN ideas s ON s.id = r.source_idea_id
JOIN ideas t ON t.id = r.target_idea_id
WHERE s.is_archived = 0 AND t.is_archived = 0 AND s.user_id = r.user_id AND t.user_id = r.user_id;
