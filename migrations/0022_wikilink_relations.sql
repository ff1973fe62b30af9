-- Why: a [[wikilink]] written in an idea's body makes a relation the person made (related, created_by user), kept in
-- step with the text: removing the link removes the relation it made, and only that one (issue 36). The flag marks
-- the relations a body's links made, so a relation the person made otherwise is never taken away with a link.
ALTER TABLE relations ADD COLUMN from_text INTEGER NOT NULL DEFAULT 0;
