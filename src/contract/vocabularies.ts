// The API's closed vocabularies, declared once: the route models, the export/import schemas, the OpenAPI document
// and the web app all import them from here. No imports: this file is part of the dependency-free contract.

export const IDEA_STATUSES = ["captured", "exploring", "building", "shipped", "shelved"] as const;
export type IdeaStatus = (typeof IDEA_STATUSES)[number];

export const IDEA_SOURCES = ["web", "cli", "assistant-mcp", "siri", "email", "api", "shortcut", "ios"] as const;
export type IdeaSource = (typeof IDEA_SOURCES)[number];

/** The types a user may give a relation. */
export const USER_RELATION_TYPES = ["related", "parent", "blocks", "inspires", "supersedes"] as const;
export type UserRelationType = (typeof USER_RELATION_TYPES)[number];
/** Every type a stored relation can have: the user's, and `duplicate`, which only the system sets. */
export const RELATION_TYPES = [...USER_RELATION_TYPES, "duplicate"] as const;
export type RelationType = (typeof RELATION_TYPES)[number];
/** Who made a relation. */
export const RELATION_CREATORS = ["user", "system"] as const;
export type RelationCreator = (typeof RELATION_CREATORS)[number];

export const LINK_TYPES = ["url", "assistant-chat", "code-repo", "code-issue", "attachment"] as const;
export type LinkType = (typeof LINK_TYPES)[number];

/** The AI providers a person can store a key for (vendor-neutral names are the product's real identifiers). */
export const PROVIDERS = ["provider_a", "provider_b", "provider_c"] as const;
export type Provider = (typeof PROVIDERS)[number];

export const SEARCH_MODES = ["semantic", "keyword"] as const;
export type FtsMode = "or" | "and" | "exact";
export const FTS_MODES: readonly FtsMode[] = ["or", "and", "exact"];
