// Success bodies of the API as JSON Schema, from the interface spec; the routes declare only what they accept.
//
// Required fields are the ones the spec promises; objects stay open (clients must ignore unknown fields). The fuzzer
// (scripts/fuzz.ts) checks every answer against these, so a drift between server and document shows up there.
import type { JsonSchema } from "./schema";

const str: JsonSchema = { type: "string" };
const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({ type: "object", required, properties });

/** Success body per "METHOD /path" (relative to /api/v1). */
export const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
  "POST /user/export": obj({ exported_at: str }, ["exported_at"]),
};
