// SQL for what develop sends (the idea, its tags, unarchived related ideas, links) and for the last spec it made.
import type { Store } from "../../db/store";
import type { Provider } from "../../contract";

export interface DevelopIdeaRow {
  id: number;
  number: number;
  title: string;
  body: string;
  status: string;
  is_archived: number;
}

export interface RelatedRow {
  relation_type: string;
  /** 'outgoing' when this idea is the relation's source. */
  direction: "outgoing" | "incoming";
  number: number;
  title: string;
  body: string;
  status: string;
}

export interface LinkRow {
  url: string;
  title: string | null;
  link_type: string;
}

/** The last spec develop produced for an idea (one per idea: a new one replaces it). */
export interface SpecRow {
  idea_id: number;
  user_id: string;
  spec: string;
  provider: Provider;
  model: string;
  input_tokens: number;
  output_tokens: number;
  created_at: string;
}

export function createDevelopRepo(store: Store) {
  const idea = store.query<DevelopIdeaRow, [number, string]>(
    "SELECT id, number, title, body, status, is_archived FROM ideas WHERE id = ? AND user_id = ?",
  );
  const tags = store.query<{ name: string }, [number]>(
    "SELECT t.name FROM idea_tags it JOIN tags t ON t.id = it.tag_id WHERE it.idea_id = ? ORDER BY t.name",
  );
  // Both directions, live relations only (both ends unarchived and the caller's); user-made ones first (deliberate),
  // then by score.
  const related = store.query<RelatedRow, [number, string, number]>(
    `SELECT r.relation_type, CASE WHEN r.source_idea_id = ?1 THEN 'outgoing' ELSE 'incoming' END AS direction,
            o.number, o.title, o.body, o.status
       FROM live_relations r
       JOIN ideas o ON o.id = CASE WHEN r.source_idea_id = ?1 THEN r.target_idea_id ELSE r.source_idea_id END
      WHERE (r.source_idea_id = ?1 OR r.target_idea_id = ?1) AND r.user_id = ?2
      ORDER BY r.created_by = 'user' DESC, r.score DESC, r.id
      LIMIT ?3`,
  );
  const links = store.query<LinkRow, [number, number]>(
    "SELECT url, title, link_type FROM links WHERE idea_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
  );
  const saveSpec = store.query(
    `INSERT INTO idea_specs (idea_id, user_id, spec, provider, model, input_tokens, output_tokens, created_at)
     VALUES ($idea_id, $user_id, $spec, $provider, $model, $input_tokens, $output_tokens, $created_at)
     ON CONFLICT (idea_id) DO UPDATE SET user_id = excluded.user_id, spec = excluded.spec, provider = excluded.provider,
       model = excluded.model, input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
       created_at = excluded.created_at`,
  );
  const findSpec = store.query<SpecRow, [number, string]>("SELECT * FROM idea_specs WHERE idea_id = ? AND user_id = ?");
  return {
    findIdea: (userId: string, id: number) => idea.get(id, userId),
    tagNames: async (ideaId: number) => (await tags.all(ideaId)).map((r) => r.name),
    related: (userId: string, ideaId: number, limit: number) => related.all(ideaId, userId, limit),
    links: (ideaId: number, limit: number) => links.all(ideaId, limit),
    saveSpec: (row: SpecRow) => saveSpec.run({ ...row }),
    findSpec: (userId: string, ideaId: number) => findSpec.get(ideaId, userId),
  };
}
