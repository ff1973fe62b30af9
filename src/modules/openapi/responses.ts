// Success bodies of the API as JSON Schema, from the interface spec; the routes declare only what they accept.
//
// Required fields are the ones the spec promises; objects stay open (clients must ignore unknown fields). The fuzzer
// (scripts/fuzz.ts) checks every answer against these, so a drift between server and document shows up there.
import { IDEA_STATUSES, PROVIDERS } from "../../contract";
import type { JsonSchema } from "./schema";

const str: JsonSchema = { type: "string" };
const int: JsonSchema = { type: "integer" };
const num: JsonSchema = { type: "number" };
const bool: JsonSchema = { type: "boolean" };
const stamp: JsonSchema = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$", description: "UTC, `YYYY-MM-DD HH:MM:SS`" };
const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: "null" }] });
const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({ type: "object", required, properties });
const list = (items: JsonSchema): JsonSchema => ({ type: "array", items });
const wrap = (name: string, s: JsonSchema) => obj({ [name]: s });

const STATUS = { type: "string", enum: [...IDEA_STATUSES] };
const PROVIDER = { type: "string", enum: [...PROVIDERS] };

const Success = obj({ success: { const: true } });
const VaultIssue = obj({ path: str, idea_id: nullable(int), message: str, at: stamp });
const VaultState = obj({
  can_choose: bool,
  connected: bool,
  folder: nullable(str),
  chosen_by: nullable({ type: "string", enum: ["person", "operator"] }),
  connected_at: nullable(stamp),
  initial_sync_at: nullable(stamp),
  last_sync_at: nullable(stamp),
  last_error: nullable(str),
  files: int,
  conflicts: list(VaultIssue),
  skipped: list(obj({ path: str, reason: str, at: stamp })),
  errors: list(VaultIssue),
});
const User = obj(
  { id: str, email: str, display_name: nullable(str), avatar_url: nullable(str), plan: { type: "string", enum: ["free", "pro"] }, settings_json: nullable(str), has_provider_a_key: bool, has_provider_b_key: bool, has_provider_c_key: bool, created_at: stamp, updated_at: stamp },
  ["id", "email", "plan", "has_provider_a_key", "has_provider_b_key", "has_provider_c_key", "created_at"],
);
// GET /user/me: the spec's User plus what the web app's shell reads.
const Me = obj({ ...User.properties as Record<string, JsonSchema>, active_idea_count: int, is_trialing: bool, trial_days_remaining: nullable(int) }, [...(User.required as string[]), "active_idea_count", "is_trialing", "trial_days_remaining"]);
const KeyRecord = obj({ id: str, label: str, scopes: nullable(str), source: str, last_used_at: nullable(stamp), created_at: stamp });
const Session = obj({ token: str }, ["token"]);
const SearchResult = obj({ id: int, number: int, title: str, body: str, status: STATUS, tags: list(str), score: nullable(num), created_at: stamp, updated_at: stamp });

/** Success body per "METHOD /path" (relative to /api/v1). */
export const RESPONSE_SCHEMAS: Record<string, JsonSchema> = {
  "GET /health": obj({
    status: str, environment: str, timestamp: str, database: { type: "string", enum: ["sqlite", "postgresql"] }, starting: { const: true },
    mail_capture: obj({ state: { type: "string", enum: ["off", "connecting", "connected", "failing"] }, error: str, last_read_at: str }, ["state"]),
    embeddings: obj({
      model: nullable(str), search_model: nullable(str), reindexing: bool, pending: int, total: int, rescoring: int, subjects_fitting: int,
      model_name: nullable(str), languages: nullable(list(str)), scripts: nullable(list(str)), search_model_name: nullable(str), search_languages: nullable(list(str)),
    }),
  }, ["status", "environment", "timestamp"]),
  "GET /setup": obj({ needs_setup: bool, registration_open: bool }),
  "POST /setup": Session,
  "POST /auth/login": Session,
  "POST /auth/register": Session,
  "POST /auth/accept-invitation": Session,
  "POST /auth/logout": Success,

  "POST /ideas/:id/develop": obj({ spec: str, provider: PROVIDER, model: str, usage: obj({ input_tokens: int, output_tokens: int }) }),
  "GET /ideas/:id/develop": obj({ spec: str, provider: PROVIDER, model: str, usage: obj({ input_tokens: int, output_tokens: int }), created_at: stamp }),
  "GET /ideas/:id/spec": obj({ spec: nullable(str), provider: nullable(PROVIDER), model: nullable(str), usage: nullable(obj({ input_tokens: int, output_tokens: int })), created_at: nullable(stamp) }),
  "GET /ideas/search": obj(
    { query: str, search_type: { enum: ["semantic", "fts"] }, fts_mode: str, results: list(SearchResult), semantic_limit_reached: { const: true }, semantic_limit_message: str },
    ["query", "search_type", "results"],
  ),

  "GET /user/me": Me,
  "GET /auth/session": obj({ user: nullable(Me) }),
  "PATCH /user/me": User,
  "DELETE /user": Success,
  "GET /user/api-keys": wrap("api_keys", list(KeyRecord)),
  "POST /user/api-keys": obj({ id: { type: "string", pattern: "^[0-9a-f]{32}$" }, key: { type: "string", pattern: "^svc_[0-9a-f]{64}$" }, label: str, created_at: stamp }),
  "DELETE /user/api-keys/:id": Success,
  "GET /user/mcp-tokens": wrap("tokens", list(KeyRecord)),
  "PUT /user/byok/:provider": obj({ success: { const: true }, provider: PROVIDER }),
  "DELETE /user/byok/:provider": obj({ success: { const: true }, provider: PROVIDER }),
  "POST /user/byok/:provider/test": obj({ ok: bool, error: str }, ["ok"]),
  "GET /user/byok/status": obj({ active_provider: nullable(PROVIDER), has_provider_a_key: bool, has_provider_b_key: bool, has_provider_c_key: bool }),
  "GET /user/shortcuts": obj({ quick_capture_url: str, capture_email: nullable(str), capture_email_can_authenticate: bool, capture_email_can_reply: bool }),
  "POST /user/capture-email/regenerate": obj({ capture_email: nullable(str) }),
  "GET /user/support-link": obj({ url: str }),
  "POST /user/test-digest": obj({ success: { const: true }, content: str }),
  "POST /user/export": obj({ exported_at: str }, ["exported_at"]),
  "GET /vault": VaultState,
  "PUT /vault": VaultState,
  "DELETE /vault": VaultState,
};
