// The API's resource shapes as the spec describes them (clients ignore unknown fields).
export const STATUSES = ["captured", "exploring", "building", "shipped", "shelved"] as const;
export type Status = (typeof STATUSES)[number];
export const RELATION_TYPES = ["related", "parent", "blocks", "inspires", "supersedes", "duplicate"] as const;
export type RelationType = (typeof RELATION_TYPES)[number];
/** Types a user may create (duplicate is made by the system only). */
export const USER_RELATION_TYPES = ["related", "parent", "blocks", "inspires", "supersedes"] as const;
export const LINK_TYPES = ["url", "assistant-chat", "code-repo", "code-issue", "attachment"] as const;
export type LinkType = (typeof LINK_TYPES)[number];
export const PROVIDERS = ["provider_a", "provider_b", "provider_c"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The spec's limits, shown before sending, in characters as `chars` counts them (the server counts the same way). */
export const LIMITS = { title: 200, body: 50_000, tags: 20, tagName: 50, url: 2_000, linkTitle: 200, displayName: 100, keyLabel: 100, query: 500, note: 500, bulk: 50 } as const;

/** Characters as people count them and the server limits them: code points (an emoji is one, not two). */
export function chars(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export interface Idea {
  id: number;
  number: number;
  title: string;
  body: string;
  status: Status;
  source: string;
  source_url: string | null;
  source_summary?: string | null;
  parent_id: number | null;
  vectorize_id: string | null;
  is_archived: number;
  tags: string[];
  processing?: boolean;
  links?: Link[];
  relations?: IdeaRelation[];
  created_at: string;
  updated_at: string;
}

export interface IdeaRelation {
  id: number;
  source_idea_id: number;
  target_idea_id: number;
  relation_type: RelationType;
  score: number | null;
  note: string | null;
  created_by: "user" | "system";
  created_at: string;
  related_idea_title: string;
  related_idea_number: number;
}

export interface RelationRow {
  id: number;
  relation_type: RelationType;
  score: number | null;
  note: string | null;
  created_by: "user" | "system";
  created_at: string;
  idea_id: number;
  idea_number: number;
  idea_title: string;
  idea_status: Status;
}

export interface Link {
  id: number;
  idea_id: number;
  url: string;
  title: string | null;
  link_type: LinkType;
  created_at: string;
}

export interface Tag {
  id: number;
  name: string;
  color: string | null;
  vectorize_id: string | null;
  created_at: string;
  idea_count?: number;
}

export interface User {
  id: string;
  email: string;
  display_name: string;
  avatar_url: string;
  plan: "free" | "pro";
  settings_json: string;
  has_provider_a_key: boolean;
  has_provider_b_key: boolean;
  has_provider_c_key: boolean;
  trial_ends_at: string | null;
  trial_used: number;
  active_idea_count?: number;
  is_trialing?: boolean;
  trial_days_remaining?: number | null;
  /** Not in the spec's User table: an addition this app reads when present (operator pages). */
  is_operator?: boolean;
  created_at: string;
  updated_at: string;
}

/** An idea as search lists it: the idea's own fields without parent, vector or detail lists, plus its score. */
export interface SearchResult
  extends Pick<Idea, "id" | "number" | "title" | "body" | "status" | "source" | "source_url" | "is_archived" | "tags" | "created_at" | "updated_at"> {
  score: number | null;
}

export interface Detection {
  id: number;
  idea_id: number;
  idea_number: number;
  idea_title: string;
  idea_body: string;
  idea_status: Status;
  idea_created_at: string;
  duplicate_of_id: number;
  duplicate_number: number;
  duplicate_title: string;
  duplicate_body: string;
  duplicate_status: Status;
  duplicate_created_at: string;
  similarity_score: number;
  status: "pending" | "dismissed" | "merged";
  created_at: string;
}
