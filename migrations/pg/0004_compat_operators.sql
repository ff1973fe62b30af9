-- Why: 0001 declared the SQLite-style comparisons one way round (bigint = jsonb, text = jsonb, bigint = text), and
-- their COMMUTATOR clauses left the other way round as shells, which PostgreSQL refuses to run ("operator is only a
-- shell: text = bigint"): `json_extract(payload, '$.tag_id') IN (SELECT id …)` puts the text on the left. Filling the
-- shells in makes both orders work (scripts/pg-statements.ts found it on the job queue's statements).
CREATE OPERATOR = (LEFTARG = jsonb, RIGHTARG = bigint, FUNCTION = sqlite_eq, COMMUTATOR = =);
CREATE OPERATOR = (LEFTARG = jsonb, RIGHTARG = text, FUNCTION = sqlite_eq, COMMUTATOR = =);
CREATE OPERATOR = (LEFTARG = text, RIGHTARG = bigint, FUNCTION = sqlite_eq, COMMUTATOR = =);
