-- Why: a row that points at an idea needs an index on that column, or every lookup by it, and every cascade when the
-- idea is deleted (a merge), scans the whole table. Found by a 10-minute soak: the background pass's "pending
-- detections of this idea" scanned every detection for every idea it processed, so with many near-duplicate ideas
-- each pass cost more than the last (35% of the server's CPU by minute five, p99 1.8× by minute ten).
CREATE INDEX duplicate_detections_idea ON duplicate_detections(idea_id);
CREATE INDEX duplicate_detections_of ON duplicate_detections(duplicate_of_id);
CREATE INDEX ideas_parent ON ideas(parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX rejected_pairs_hi ON rejected_pairs(pair_hi);
CREATE INDEX oauth_codes_client ON oauth_codes(client_id);
CREATE INDEX oauth_codes_user ON oauth_codes(user_id);
-- Deleting an account cascades through these.
CREATE INDEX rejected_pairs_user ON rejected_pairs(user_id);
CREATE INDEX idea_specs_user ON idea_specs(user_id);
CREATE INDEX invitations_created_by ON invitations(created_by) WHERE created_by IS NOT NULL;
