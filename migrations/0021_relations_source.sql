-- Why: an idea's outgoing relations (`live_relations WHERE source_idea_id = ?`, the exports' per-idea read) were
-- planned through relations_user_created on a database SQLite has no statistics for yet (a new server, an import just
-- made, until PRAGMA optimize runs at a shutdown): the view's `s.user_id = r.user_id` made the account's whole list of
-- relations the candidate rows, read for every idea. relations_pair starts with source_idea_id too, but the planner
-- rated the two alike; this index also gives the relations in id order (the exports' ORDER BY), so it is chosen
-- with or without statistics. 5,000 ideas, 7,500 relations, no statistics: 21.9 s of outgoing reads → 1.5 s.
-- PostgreSQL needs no twin: its planner has the table's statistics (autovacuum's ANALYZE) and relations_pair.
CREATE INDEX relations_source ON relations(source_idea_id, id);
