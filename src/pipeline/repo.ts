// SQL the background pipeline reads: idea and tag rows, their tags, the reindex backlog and its figures. It writes
// through the owners' repos: vector ids and ideas filing/repo.ts, auto-tags and tag vector ids tags/repo.ts,
// detections duplicates/repo.ts, system relations relations/repo.ts, jobs jobs/queue.ts.
import type { Store } from "../db/store";
import { vectorIdRange } from "../vectors/generations";
import { countFullPassesOfLiveIdeas } from "../jobs/queue";

export interface PipelineIdea {
  id: number;
  user_id: string;
  title: string;
  body: string;
  parent_id: number | null;
  is_archived: number;
  vectorize_id: string | null;
  created_at: string;
  plan: "free" | "pro";
  trial_ends_at: string | null;
  subscription_id: string | null;
  settings_json: string;
}

export interface PipelineTag {
  id: number;
  user_id: string;
  name: string;
  vectorize_id: string | null;
}

export function createPipelineRepo(store: Store) {
  const idea = store.query<PipelineIdea, [number]>(
    `SELECT i.id, i.user_id, i.title, i.body, i.parent_id, i.is_archived, i.vectorize_id, i.created_at,
            u.plan, u.trial_ends_at, u.subscription_id, u.settings_json
     FROM ideas i JOIN users u ON u.id = i.user_id WHERE i.id = ?`,
  );
  const tag = store.query<PipelineTag, [number]>("SELECT id, user_id, name, vectorize_id FROM tags WHERE id = ?");
  const tagsOfIdea = store.query<PipelineTag, [number]>(
    "SELECT t.id, t.user_id, t.name, t.vectorize_id FROM idea_tags it JOIN tags t ON t.id = it.tag_id WHERE it.idea_id = ?",
  );
  const tagCount = store.query<{ n: number }, [number]>("SELECT count(*) AS n FROM idea_tags WHERE idea_id = ?");
  const tagIdsOf = store.query<{ idea_id: number; tag_id: number }, [string]>(
    "SELECT idea_id, tag_id FROM idea_tags WHERE idea_id IN (SELECT value FROM json_each(?))",
  );
  const texts = store.query<{ id: number; title: string; body: string }, [string]>(
    "SELECT id, title, body FROM ideas WHERE is_archived = 0 AND id IN (SELECT value FROM json_each(?))",
  );
  const ideaAges = store.query<{ id: number; created_at: string }, [string]>(
    "SELECT id, created_at FROM ideas WHERE is_archived = 0 AND id IN (SELECT value FROM json_each(?))",
  );
  // Two ranges of the partial index ideas_embedding_state, one per side of the generation's ids: written as one
  // `vectorize_id < ?1 OR vectorize_id >= ?2`, SQLite scanned the whole table (~200 ms at 200,000 ideas), and this
  // runs each time the job queue runs dry.
  const staleIdeas = store.query<{ id: number; user_id: string; title: string; body: string }, [string, string, number]>(
    `SELECT id, user_id, title, body FROM ideas WHERE is_archived = 0 AND vectorize_id < ?1
     UNION ALL
     SELECT id, user_id, title, body FROM ideas WHERE is_archived = 0 AND vectorize_id >= ?2
     LIMIT ?3`,
  );
  const staleTags = store.query<PipelineTag, [string, string, number]>(
    `SELECT id, user_id, name, vectorize_id FROM tags
     WHERE vectorize_id IS NULL OR vectorize_id < ?1 OR vectorize_id >= ?2 LIMIT ?3`,
  );
  const unembedded = store.query<{ id: number }, []>("SELECT id FROM ideas WHERE is_archived = 0 AND vectorize_id IS NULL");
  const liveIdeas = store.query<{ n: number }, []>("SELECT count(*) AS n FROM ideas WHERE is_archived = 0");
  // Counted as the three small ranges of ideas_embedding_state outside the generation (never embedded, older, newer)
  // rather than as every live idea minus those inside it: GET /health reads it, and the ideas inside are nearly all
  // of them (~110 ms at 200,000 ideas against ~0.05 ms).
  const liveIdeasOutsideGen = store.query<{ n: number }, [string, string]>(
    `SELECT (SELECT count(*) FROM ideas WHERE is_archived = 0 AND vectorize_id IS NULL)
          + (SELECT count(*) FROM ideas WHERE is_archived = 0 AND vectorize_id < ?1)
          + (SELECT count(*) FROM ideas WHERE is_archived = 0 AND vectorize_id >= ?2) AS n`,
  );

  return {
    idea: (id: number) => idea.get(id),
    tag: (id: number) => tag.get(id),
    tagsOfIdea: (ideaId: number) => tagsOfIdea.all(ideaId),
    tagCount: async (ideaId: number) => (await tagCount.get(ideaId))!.n,
    /** Tag ids per idea for the given ideas. */
    async tagIdsOf(ideaIds: number[]): Promise<Map<number, number[]>> {
      const out = new Map<number, number[]>(ideaIds.map((id) => [id, []]));
      if (ideaIds.length > 0) for (const r of await tagIdsOf.all(JSON.stringify(ideaIds))) out.get(r.idea_id)!.push(r.tag_id);
      return out;
    },
    /** Title and body of the live ideas among `ids` (archived and missing ones are absent). */
    liveTexts: async (ids: number[]) =>
      new Map(ids.length ? (await texts.all(JSON.stringify(ids))).map((r) => [r.id, r]) : []),
    /** created_at of the live ideas among `ids` (archived and missing ones are absent). */
    liveCreatedAt: async (ids: number[]) =>
      new Map(ids.length ? (await ideaAges.all(JSON.stringify(ids))).map((r) => [r.id, r.created_at]) : []),
    /** Live ideas whose vector is of another generation than `gen` (the reindex backlog). */
    ideasOutsideGen: (gen: number, limit: number) => staleIdeas.all(...vectorIdRange(gen), limit),
    /** Tags without a vector of generation `gen` (new, or of an older generation). */
    tagsOutsideGen: (gen: number, limit: number) => staleTags.all(...vectorIdRange(gen), limit),
    /** Live ideas never embedded (the recovery job keeps those with no full pass queued). */
    unembeddedIdeaIds: async () => (await unembedded.all()).map((r) => r.id),
    countLiveIdeas: async () => (await liveIdeas.get())!.n,
    /** Full passes queued for ideas that already have a vector of `gen`: re-scoring (or an edit not yet embedded). */
    countRescoring: (gen: number) => countFullPassesOfLiveIdeas(store, ...vectorIdRange(gen)),
    /** Live ideas without a vector of generation `gen` (never embedded, or of another generation). */
    countLiveIdeasOutsideGen: async (gen: number) => (await liveIdeasOutsideGen.get(...vectorIdRange(gen)))!.n,
  };
}
export type PipelineRepo = ReturnType<typeof createPipelineRepo>;
