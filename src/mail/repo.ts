// SQL for scheduled mail: what a user's digest or nudge contains, and the log that keeps mail from repeating.
import type { Store } from "../db/store";

export interface MailUserRow {
  id: string;
  email: string;
  display_name: string;
  plan: "free" | "pro";
  trial_ends_at: string | null;
  subscription_id: string | null;
  settings_json: string;
}

export interface IdeaLine { id: number; number: number; title: string; status: string; created_at: string; updated_at: string }
export interface ConnectionLine {
  relation_type: string;
  created_by: string;
  source_number: number;
  source_title: string;
  target_number: number;
  target_title: string;
}
export interface DuplicateLine { idea_number: number; idea_title: string; duplicate_number: number; duplicate_title: string; similarity_score: number }

export function createMailRepo(store: Store) {
  const users = store.query<MailUserRow, []>(
    "SELECT id, email, display_name, plan, trial_ends_at, subscription_id, settings_json FROM users ORDER BY created_at, id",
  );
  const user = store.query<MailUserRow, [string]>(
    "SELECT id, email, display_name, plan, trial_ends_at, subscription_id, settings_json FROM users WHERE id = ?",
  );
  const captured = store.query<IdeaLine, [string, string]>(
    `SELECT id, number, title, status, created_at, updated_at FROM ideas
      WHERE user_id = ? AND is_archived = 0 AND created_at >= ? ORDER BY created_at DESC, id DESC`,
  );
  const stale = store.query<IdeaLine, [string, string]>(
    `SELECT id, number, title, status, created_at, updated_at FROM ideas
      WHERE user_id = ? AND is_archived = 0 AND status = 'captured' AND updated_at < ? ORDER BY updated_at, id`,
  );
  const connections = store.query<ConnectionLine, [string, string]>(
    `SELECT r.relation_type, r.created_by, s.number AS source_number, s.title AS source_title,
            t.number AS target_number, t.title AS target_title
       FROM live_relations r JOIN ideas s ON s.id = r.source_idea_id JOIN ideas t ON t.id = r.target_idea_id
      WHERE r.user_id = ?1 AND r.created_at >= ?2 AND r.imported = 0
      ORDER BY r.created_at DESC, r.id DESC`,
  );
  const duplicates = store.query<DuplicateLine, [string]>(
    `SELECT i.number AS idea_number, i.title AS idea_title, o.number AS duplicate_number, o.title AS duplicate_title,
            d.similarity_score
       FROM duplicate_detections d JOIN ideas i ON i.id = d.idea_id JOIN ideas o ON o.id = d.duplicate_of_id
      WHERE d.user_id = ?1 AND d.status = 'pending' AND i.user_id = ?1 AND o.user_id = ?1
        AND i.is_archived = 0 AND o.is_archived = 0
      ORDER BY d.similarity_score DESC, d.id`,
  );
  const activeCount = store.query<{ n: number }, [string]>("SELECT count(*) AS n FROM ideas WHERE user_id = ? AND is_archived = 0");
  const dueNudge = store.query<IdeaLine & { nudged_at: string | null }, [string, string, string]>(
    `SELECT i.id, i.number, i.title, i.status, i.created_at, i.updated_at, n.nudged_at FROM ideas i
       LEFT JOIN idea_nudges n ON n.idea_id = i.id
      WHERE i.user_id = ?1 AND i.is_archived = 0 AND i.status = 'captured' AND i.updated_at < ?2
        AND (n.nudged_at IS NULL OR n.nudged_at <= ?3)
      ORDER BY i.updated_at, i.id`,
  );
  const nudged = store.query("INSERT INTO idea_nudges (idea_id, nudged_at) VALUES (?1, ?2) ON CONFLICT (idea_id) DO UPDATE SET nudged_at = ?2");
  const unnudged = store.query("DELETE FROM idea_nudges WHERE idea_id = ?");
  const claimSlot = store.query(
    "INSERT INTO mail_log (user_id, kind, period_key, status, sent_at) VALUES (?, ?, ?, 'sending', ?) ON CONFLICT DO NOTHING",
  );
  const sent = store.query("UPDATE mail_log SET status = 'sent', sent_at = ? WHERE user_id = ? AND kind = ? AND period_key = ?");
  const releaseSlot = store.query("DELETE FROM mail_log WHERE user_id = ? AND kind = ? AND period_key = ?");

  return {
    listUsers: () => users.all(),
    findUser: (id: string) => user.get(id),

    /** Unarchived ideas captured at or after `since`, newest first. */
    capturedSince: (userId: string, since: string) => captured.all(userId, since),

    /** The review's stale rule: captured, unarchived, untouched since before `before`; oldest first. */
    staleBefore: (userId: string, before: string) => stale.all(userId, before),

    /** Relations made at or after `since` between two unarchived ideas, newest first; an import's are not new. */
    connectionsSince: (userId: string, since: string) => connections.all(userId, since),

    /** The GET /ideas/duplicates rows: pending, both ideas unarchived, most similar first. */
    pendingDuplicates: (userId: string) => duplicates.all(userId),

    activeIdeaCount: async (userId: string) => (await activeCount.get(userId))!.n,

    /** Stale ideas not nudged since `nudgedBefore` (never nudged, or nudged a full threshold period ago). */
    dueForNudge: (userId: string, staleBefore: string, nudgedBefore: string) => dueNudge.all(userId, staleBefore, nudgedBefore),
    setNudged: async (ideaId: number, at: string) => void (await nudged.run(ideaId, at)),
    clearNudged: async (ideaId: number) => void (await unnudged.run(ideaId)),

    /** Claims a (user, kind, period) slot; false when some run already claimed it. */
    claim: async (userId: string, kind: "digest" | "nudge", period: string, at: string) =>
      (await claimSlot.run(userId, kind, period, at)).changes > 0,
    markSent: async (userId: string, kind: "digest" | "nudge", period: string, at: string) =>
      void (await sent.run(at, userId, kind, period)),
    release: async (userId: string, kind: "digest" | "nudge", period: string) => void (await releaseSlot.run(userId, kind, period)),
  };
}
export type MailRepo = ReturnType<typeof createMailRepo>;
