// Closed vocabularies the services check themselves (for a readable message) and the route schemas type as plain
// strings: the document names their values, so a client (and the fuzzer) knows what else is a 400.
import { IDEA_SOURCES, IDEA_STATUSES, LINK_TYPES, SEARCH_MODES, USER_RELATION_TYPES } from "../../contract";
import { API_KEY_MAX, API_KEY_MIN } from "../byok/model";
import type { JsonSchema } from "./schema";

const BODY_FIELDS: Record<string, readonly string[]> = {
  status: IDEA_STATUSES,
  source: IDEA_SOURCES,
  link_type: LINK_TYPES,
  relation_type: USER_RELATION_TYPES,
};
// Bodies a route takes loosely (to answer with the spec's own message) but whose rules the service enforces.
const ROUTE_FIELDS: Record<string, { required?: string[]; properties: Record<string, JsonSchema> }> = {
  "PUT /user/byok/:provider": {
    required: ["api_key"],
    properties: {
      api_key: { type: "string", minLength: API_KEY_MIN, maxLength: API_KEY_MAX, description: "Trimmed before the length check; no control characters or line breaks." },
    },
  },
};

// Query parameters a route's schema leaves optional, so that a missing one gets the spec's own message (`Missing "tag"
// query parameter`) or the same 400 body as a bad one, but which the service requires: the document says required.
const REQUIRED_QUERY: Record<string, readonly string[]> = {
  "GET /ideas/duplicates/summary": ["idea_ids"],
  "GET /tags/similar": ["tag"],
};

export const requiredByService = (route: string): readonly string[] => REQUIRED_QUERY[route] ?? [];

// Query parameters whose other values the spec answers with 400 (GET /ideas/search: "anything else is 400").
const QUERY_FIELDS: Record<string, readonly string[]> = { mode: SEARCH_MODES };

const isPlainString = (s: unknown): s is JsonSchema => typeof s === "object" && s !== null && (s as JsonSchema).type === "string" && !("enum" in s) && !("const" in s);

/**
 * The body schema with enums on its top-level vocabulary fields. Not inside bulk relation links: an unknown type there
 * is a per-link error row in a 201, as the spec says, so any string is accepted.
 */
export function withBodyVocabularies(schema: JsonSchema, route: string): JsonSchema {
  const extra = ROUTE_FIELDS[route];
  if (extra) {
    const required = [...new Set([...((schema.required as string[] | undefined) ?? []), ...(extra.required ?? [])])];
    schema = { ...schema, required, properties: { ...(schema.properties as Record<string, JsonSchema>), ...extra.properties } };
  }
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props) return schema;
  const out: Record<string, JsonSchema> = {};
  for (const [name, s] of Object.entries(props)) {
    if (isPlainString(s) && BODY_FIELDS[name]) out[name] = { ...s, enum: [...BODY_FIELDS[name]] };
    else out[name] = s;
  }
  return { ...schema, properties: out };
}

export function withQueryVocabulary(name: string, schema: JsonSchema): JsonSchema {
  return isPlainString(schema) && QUERY_FIELDS[name] ? { ...schema, enum: [...QUERY_FIELDS[name]] } : schema;
}
