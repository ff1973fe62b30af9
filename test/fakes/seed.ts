// Fixture rows written with plain SQL, for states no public route can create directly (system relations,
// duplicate detections, back-dated ideas). Timestamps come from the test clock unless given.
import { toStamp } from "../../src/lib/time";
import type { TestApp } from "../helpers";

export interface SeedIdea {
  title: string;
  body?: string;
  status?: "captured" | "exploring" | "building" | "shipped" | "shelved";
  created_at?: string;
  updated_at?: string;
  is_archived?: 0 | 1;
  tags?: string[];
}

const stamp = (t: TestApp, s?: string) => s ?? toStamp(t.clock.now);

export function seedIdea(t: TestApp, userId: string, idea: SeedIdea): { id: number; number: number } {
  const db = t.deps.db;
  return db.transaction(() => {
    const { idea_seq } = db.query<{ idea_seq: number }, [string]>("UPDATE users SET idea_seq = idea_seq + 1 WHERE id = ? RETURNING idea_seq").get(userId)!;
    const created = stamp(t, idea.created_at);
    const { id } = db.query<{ id: number }, any[]>(
      `INSERT INTO ideas (user_id, number, title, body, status, is_archived, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(userId, idea_seq, idea.title, idea.body ?? "", idea.status ?? "captured", idea.is_archived ?? 0, created, idea.updated_at ?? created)!;
    for (const name of idea.tags ?? []) {
      db.query("INSERT INTO tags (user_id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id, name) DO NOTHING").run(userId, name, created);
      const tag = db.query<{ id: number }, [string, string]>("SELECT id FROM tags WHERE user_id = ? AND name = ?").get(userId, name)!;
      db.query("INSERT INTO idea_tags (idea_id, tag_id) VALUES (?, ?)").run(id, tag.id);
    }
    return { id, number: idea_seq };
  })();
}

export function seedLink(t: TestApp, ideaId: number, link: { url: string; title?: string; link_type?: string; created_at?: string }): void {
  t.deps.db.query("INSERT INTO links (idea_id, url, title, link_type, created_at) VALUES (?, ?, ?, ?, ?)")
    .run(ideaId, link.url, link.title ?? null, link.link_type ?? "url", stamp(t, link.created_at));
}

export function seedRelation(
  t: TestApp,
  userId: string,
  source: number,
  target: number,
  rel: { type?: string; created_by?: "user" | "system"; score?: number | null; note?: string; created_at?: string } = {},
): void {
  t.deps.db.query(
    `INSERT INTO relations (user_id, source_idea_id, target_idea_id, relation_type, score, note, created_by, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(userId, source, target, rel.type ?? "related", rel.score ?? null, rel.note ?? null, rel.created_by ?? "user", stamp(t, rel.created_at));
}

export function seedDuplicate(t: TestApp, userId: string, ideaId: number, duplicateOf: number, score: number, status = "pending"): void {
  t.deps.db.query(
    `INSERT INTO duplicate_detections (user_id, idea_id, duplicate_of_id, similarity_score, status, created_at, pair_lo, pair_hi)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(userId, ideaId, duplicateOf, score, status, toStamp(t.clock.now), Math.min(ideaId, duplicateOf), Math.max(ideaId, duplicateOf));
}

export function setSettings(t: TestApp, userId: string, settings: Record<string, unknown>): void {
  t.deps.db.query("UPDATE users SET settings_json = ? WHERE id = ?").run(JSON.stringify(settings), userId);
}
