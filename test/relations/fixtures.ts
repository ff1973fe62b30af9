// Fixture rows the relation, map, export and import tests need, written with direct SQL (no public route makes
// system relations, archived rows with chosen timestamps, or ideas in bulk this fast).
import type { TestApp, TestUser } from "../helpers";

export interface IdeaFixture {
  title?: string;
  body?: string;
  status?: string;
  source?: string;
  source_url?: string | null;
  source_summary?: string | null;
  parent_id?: number | null;
  created_at?: string;
  updated_at?: string;
  archived?: boolean;
  tags?: string[];
}

let stampSeq = 0;
/** Distinct, increasing timestamps so "newest first" is deterministic. */
export function nextStamp(): string {
  const d = new Date(Date.UTC(2026, 0, 1) + ++stampSeq * 60_000);
  return d.toISOString().slice(0, 19).replace("T", " ");
}

export function insertIdea(t: TestApp, user: TestUser | string, f: IdeaFixture = {}): number {
  const userId = typeof user === "string" ? user : user.id;
  const db = t.deps.db;
  return db.transaction(() => {
    const { idea_seq } = db.query<{ idea_seq: number }, [string]>(
      "UPDATE users SET idea_seq = idea_seq + 1 WHERE id = ? RETURNING idea_seq",
    ).get(userId)!;
    const created = f.created_at ?? nextStamp();
    const { id } = db.query<{ id: number }, any[]>(
      `INSERT INTO ideas (user_id, number, title, body, status, source, source_url, source_summary, parent_id, is_archived, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      userId, idea_seq, f.title ?? `Idea ${idea_seq}`, f.body ?? "", f.status ?? "captured", f.source ?? "api",
      f.source_url ?? null, f.source_summary ?? null, f.parent_id ?? null, f.archived ? 1 : 0, created, f.updated_at ?? created,
    )!;
    for (const name of f.tags ?? []) tagIdea(t, userId, id, name);
    return id;
  })();
}

export function tagIdea(t: TestApp, userId: string, ideaId: number, name: string, color: string | null = null): number {
  const db = t.deps.db;
  db.query("INSERT INTO tags (user_id, name, color, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, name) DO NOTHING").run(
    userId, name, color, "2026-01-01 00:00:00",
  );
  const tag = db.query<{ id: number }, [string, string]>("SELECT id FROM tags WHERE user_id = ? AND name = ?").get(userId, name)!;
  db.query("INSERT OR IGNORE INTO idea_tags (idea_id, tag_id) VALUES (?, ?)").run(ideaId, tag.id);
  return tag.id;
}

export function insertRelation(
  t: TestApp,
  user: TestUser | string,
  r: { source: number; target: number; type?: string; score?: number | null; note?: string | null; by?: "user" | "system"; created_at?: string },
): number {
  const userId = typeof user === "string" ? user : user.id;
  return t.deps.db.query<{ id: number }, any[]>(
    `INSERT INTO relations (user_id, source_idea_id, target_idea_id, relation_type, score, note, created_by, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  ).get(userId, r.source, r.target, r.type ?? "related", r.score ?? null, r.note ?? null, r.by ?? "user", r.created_at ?? nextStamp())!.id;
}

export function insertLink(t: TestApp, ideaId: number, l: { url: string; title?: string | null; link_type?: string; created_at?: string }): number {
  return t.deps.db.query<{ id: number }, any[]>(
    "INSERT INTO links (idea_id, url, title, link_type, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
  ).get(ideaId, l.url, l.title ?? null, l.link_type ?? "url", l.created_at ?? nextStamp())!.id;
}

export function archive(t: TestApp, ideaId: number): void {
  t.deps.db.query("UPDATE ideas SET is_archived = 1 WHERE id = ?").run(ideaId);
}

export function relationCount(t: TestApp, where = "1 = 1", ...args: any[]): number {
  return t.deps.db.query<{ n: number }, any[]>(`SELECT count(*) AS n FROM relations WHERE ${where}`).get(...args)!.n;
}

/** Many plain ideas in one transaction (export caps, benchmarks); returns their ids in number order. */
export function insertManyIdeas(t: TestApp, user: TestUser | string, n: number, make: (i: number) => IdeaFixture = () => ({})): number[] {
  return t.deps.db.transaction(() => Array.from({ length: n }, (_, i) => insertIdea(t, user, make(i))))();
}
