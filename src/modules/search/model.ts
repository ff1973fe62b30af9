// TypeBox schema of GET /ideas/search; limit stays a string because the spec clamps it instead of rejecting it.
import { t } from "elysia";
import { Enum, Text } from "../../http/schema";
import { FTS_MODES, LIMITS, SEARCH_MODES } from "../../contract";

export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 100;

export const SearchQuery = t.Object({
  q: Text({ minLength: 1, maxLength: LIMITS.query }),
  mode: t.Optional(Enum("mode", SEARCH_MODES)),
  limit: t.Optional(t.String()),
  fts_mode: t.Optional(Enum("fts_mode", FTS_MODES)),
  // A decimal from 0 to 1 ("0.35", ".5", "1"), in the schema so it is reported beside any other bad parameter.
  min_score: t.Optional(t.String({ pattern: "^\\s*(0*(\\.\\d*)?|0*1(\\.0*)?)\\s*$", error: "min_score must be a number from 0 to 1" })),
});
export type SearchQuery = typeof SearchQuery.static;
