// Success bodies of the API as JSON Schema, from the interface spec; the routes declare only what they accept.
//
// Required fields are the ones the spec promises; objects stay open (clients must ignore unknown fields). The fuzzer
// (scripts/fuzz.ts) checks every answer against these, so a drift between server and document shows up there.
import { IDEA_STATUSES } from "../../contract";
import type { JsonSchema } from "./schema";

const str: JsonSchema = { type: "string" };
const int: JsonSchema = { type: "integer" };
const num: JsonSchema = { type: "number" };
const bool: JsonSchema = { type: "boolean" };
const stamp: JsonSchema = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$", description: "UTC, `YYYY-MM-DD HH:MM:SS`" };
const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: "null" }] });
const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({ type: "object", required, properties });
const list = (items: JsonSchema): JsonSchema => ({ type: "array", items });

const STATUS = { type: "string", enum: [...IDEA_STATUSES] };

const Success = obj({ success: { const: true } });
const User = obj(
  { id: str, email: str, display_name: nullable(str), avatar_url: nullable(str), plan: { type: "string", enum: ["free", "pro"] }, settings_json: nullable(str), has_provider_a_key: bool, has_provider_b_key: bool, has_provider_c_key: bool, created_at: stamp, updated_at: stamp },
  ["id", "email", "plan", "has_provider_a_key", "has_provider_b_key", "has_provider_c_key", "created_at"],
);
// GET /user/me: the spec's User plus what the web app's shell reads.
const Me = obj({ ...User.properties as Record<string, JsonSchema>, active_idea_count: int, is_trialing: bool, trial_days_remaining: nullable(int) }, [...(User.required as string[]), "active_idea_count", "is_trialing", "trial_days_remaining"]);
const Session = obj({ token: str }, ["token"]);

/** Success body per "METHOD /path" (relative to /api/v1). */
export const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
  "POST /auth/login": Session,
  "POST /auth/accept-invitation": Session,
  "POST /auth/logout": Success,


  "GET /auth/session": obj({ user: nullable(Me) }),
  "POST /user/export": obj({ exported_at: str }, ["exported_at"]),
};
