// SQL for tags and the idea↔tag join: rows in, rows out; names are exact (case-sensitive) per account.
import type { Store } from "../../db/store";
import { compareCodePoints } from "../../lib/code-point-order";

export interface TagRow {
  id: number;
  user_id: string;
  name: string;
  color: string | null;
  vectorize_id: string | null;
  created_at: string;
}
export type TagWithCount = TagRow & { idea_count: number };

export function createTagsRepo(store: Store) {
  const listWithCounts = store.query<TagWithCount, [string]>(
    `SELECT t.*, (SELECT count(*) FROM idea_tags it JOIN ideas i ON i.id = it.idea_id
                  WHERE it.tag_id = t.id AND i.is_archived = 0) AS idea_count
     FROM tags t WHERE t.user_id = ? ORDER BY idea_count DESC, t.name ASC, t.id ASC`,
  );
  const byId = store.query<TagRow, [string, number]>("SELECT * FROM tags WHERE user_id = ? AND id = ?");
  const byName = store.query<TagRow, [string, string]>("SELECT * FROM tags WHERE user_id = ? AND name = ?");
  const insertTag = store.query<{ id: number }, [string, string, string | null, string]>(
    "INSERT INTO tags (user_id, name, color, created_at) VALUES (?, ?, ?, ?) RETURNING id",
  );
  // No row back when the name is taken, including by a transaction that committed while this one waited for it.
  const insertIfAbsent = store.query<{ id: number }, [string, string, string | null, string]>(
    "INSERT INTO tags (user_id, name, color, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, name) DO NOTHING RETURNING id",
  );
  // Unsorted on purpose: ORDER BY here needs a temp B-tree that doubles the cost of every list page; each idea's few
  // names are sorted in JS below, in the same (binary, code point) order SQLite used. The name is read by rowid in a
  // scalar subquery, not a join: with statistics taken while the tags table was small, the planner scanned every tag
  // for each requested idea (20 ideas with 3 of 300 tags each: 1.7 ms; see docs/performance.md, the list hot path).
  const namesOf = store.query<{ idea_id: number; name: string }, [string]>(
    `SELECT it.idea_id, (SELECT t.name FROM tags t WHERE t.id = it.tag_id) AS name FROM idea_tags it
     WHERE it.idea_id IN (SELECT value FROM json_each(?))`,
  );
  const attach = store.query("INSERT INTO idea_tags (idea_id, tag_id) VALUES (?, ?) ON CONFLICT DO NOTHING");
  const detachAll = store.query("DELETE FROM idea_tags WHERE idea_id = ?");
  const ideasOfTag = store.query<{ idea_id: number; is_archived: number }, [number]>(
    "SELECT it.idea_id, i.is_archived FROM idea_tags it JOIN ideas i ON i.id = it.idea_id WHERE it.tag_id = ?",
  );
  const deleteTag = store.query("DELETE FROM tags WHERE user_id = ? AND id = ?");
  const setVectorizeId = store.query("UPDATE tags SET vectorize_id = ? WHERE id = ?");
  const fillColor = store.query("UPDATE tags SET color = ? WHERE id = ? AND color IS NULL");
  const embeddedWithCounts = store.query<{ id: number; name: string; idea_count: number }, [string, string]>(
    `SELECT t.id, t.name, (SELECT count(*) FROM idea_tags it JOIN ideas i ON i.id = it.idea_id
                           WHERE it.tag_id = t.id AND i.is_archived = 0) AS idea_count
     FROM tags t WHERE t.user_id = ?1 AND t.vectorize_id IS NOT NULL AND t.id IN (SELECT value FROM json_each(?2))`,
  );

  return {
    listWithCounts: (userId: string) => listWithCounts.all(userId),
    findById: (userId: string, id: number) => byId.get(userId, id),
    findByName: (userId: string, name: string) => byName.get(userId, name),
    insert: async (userId: string, name: string, color: string | null, now: string) => (await insertTag.get(userId, name, color, now))!.id,
    /**
     * The new tag's id, or null when the account has a tag of that name: on PostgreSQL another transaction (an import,
     * a capture) may have created it after this one looked, and a plain INSERT would fail on the unique name.
     */
    insertIfAbsent: async (userId: string, name: string, color: string | null, now: string) => (await insertIfAbsent.get(userId, name, color, now))?.id ?? null,
    async update(userId: string, id: number, fields: { name?: string; color?: string | null }): Promise<void> {
      const keys = Object.keys(fields) as Array<keyof typeof fields>;
      if (keys.length === 0) return;
      const sets = keys.map((k) => `${k} = $${k}`).join(", ");
      await store.query(`UPDATE tags SET ${sets} WHERE user_id = $user_id AND id = $id`).run({ ...fields, user_id: userId, id });
    },
    delete: async (userId: string, id: number) => (await deleteTag.run(userId, id)).changes > 0,
    /** An imported colour for a tag that has none (a colour the account chose is kept). */
    fillColor: async (tagId: number, color: string) => void (await fillColor.run(color, tagId)),
    /** Records (or clears) the tag's embedding id; written by the background embedding pass. */
    setVectorizeId: (id: number, vectorizeId: string | null) => setVectorizeId.run(vectorizeId, id),
    /** Ideas carrying the tag (archived ones too), so callers can queue metadata updates for the live ones. */
    ideasOfTag: (tagId: number) => ideasOfTag.all(tagId),

    /** Tag names per idea, alphabetical; every requested id has an entry. */
    async namesForIdeas(ideaIds: number[]): Promise<Map<number, string[]>> {
      const out = new Map<number, string[]>(ideaIds.map((id) => [id, []]));
      if (ideaIds.length === 0) return out;
      for (const r of await namesOf.all(JSON.stringify(ideaIds))) out.get(r.idea_id)!.push(r.name);
      for (const names of out.values()) if (names.length > 1) names.sort(compareCodePoints);
      return out;
    },
    /** The account's tags among `ids` that have a vector, with their live idea counts (unordered; similar tags). */
    embeddedWithCounts: (userId: string, ids: number[]) => embeddedWithCounts.all(userId, JSON.stringify(ids)),
    attach: (ideaId: number, tagId: number) => attach.run(ideaId, tagId),
    detachAll: (ideaId: number) => detachAll.run(ideaId),
  };
}
export type TagsRepo = ReturnType<typeof createTagsRepo>;
