-- Why: the duplicate score's embedding side now removes each idea's subject in proportion to how specific its text is
-- (src/pipeline/text-overlap.ts, specificity; src/vectors/subjects.ts), so pairs scored before were judged by another
-- score. Every embedded live idea gets the full pass again, as the re-scoring pass queues it (src/pipeline/rescore.ts):
-- its vector is current so nothing is embedded, and the steps judge every pair again, withdrawing detections that no
-- longer score above the threshold (dismissed pairs keep their key and stay dismissed). Progress: embeddings.rescoring
-- in GET /health. A fresh database has no ideas: nothing is queued.
INSERT INTO jobs (kind, idea_id, payload, run_after, created_at)
SELECT 'full', id, NULL, datetime('now'), datetime('now') FROM ideas WHERE is_archived = 0 AND vectorize_id IS NOT NULL ORDER BY id
ON CONFLICT (kind, idea_id) WHERE locked_at IS NULL DO NOTHING;
