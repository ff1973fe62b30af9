// TypeBox schema of GET /ideas/search; enums and numbers stay strings so the service answers with readable messages.
import { t } from "elysia";

export const MAX_QUERY = 500;
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 100;
export const SEARCH_MODES = ["semantic", "keyword"] as const;

export const SearchQuery = t.Object({
  q: t.String({ minLength: 1, maxLength: MAX_QUERY }),
  mode: t.Optional(t.String()),
  limit: t.Optional(t.String()),
  fts_mode: t.Optional(t.String()),
  min_score: t.Optional(t.String()),
});
export type SearchQuery = typeof SearchQuery.static;
