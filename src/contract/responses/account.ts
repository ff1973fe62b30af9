// What the account's routes answer: health and setup, sessions, the signed-in user, API keys and MCP tokens, provider
// keys (bring your own key), shortcuts, the support link, the test digest and develop's specs.
import { Type, type Static } from "@sinclair/typebox";
import { Bool, Int, ProviderField, Stamp, Str, list, literalOf, nullable, obj } from "./common";

// ——— health and setup ———
/** The embedding models and the reindex's progress (GET /health, GET /admin/instance). */
export const Embeddings = obj({
  model: nullable(Str),
  search_model: nullable(Str),
  reindexing: Bool,
  pending: Int,
  total: Int,
  rescoring: Int,
  subjects_fitting: Int,
  model_name: nullable(Str),
  languages: nullable(list(Str)),
  scripts: nullable(list(Str)),
  search_model_name: nullable(Str),
  search_languages: nullable(list(Str)),
});

export const Health = obj({
  status: Type.Literal("ok"),
  environment: Str,
  timestamp: Type.String({ description: "ISO 8601, the server's clock" }),
  database: literalOf("sqlite", "postgresql"),
  starting: Type.Optional(Type.Literal(true, { description: "Present while the server is still starting (its background work not yet running)." })),
  storage: Type.Optional(obj({ writable: Bool, error: nullable(Str), free_bytes: nullable(Int) })),
  mail_capture: Type.Optional(obj({ state: literalOf("off", "connecting", "connected", "failing"), error: Type.Optional(Str), last_read_at: Type.Optional(Str) })),
  embeddings: Type.Optional(Embeddings),
});
/** GET /health when the database probe fails: the spec's 503 body. */
export type Health = Static<typeof Health>;
export const HealthFailing = obj({ status: Type.Literal("error"), error: Str });
export const SetupStatus = obj({ needs_setup: Bool, registration_open: Bool });
export type SetupStatus = Static<typeof SetupStatus>;

// ——— the user and sessions ———
export const User = obj({
  id: Str,
  email: Str,
  display_name: Str,
  avatar_url: Str,
  plan: literalOf("free", "pro"),
  settings_json: Str,
  has_provider_a_key: Bool,
  has_provider_b_key: Bool,
  has_provider_c_key: Bool,
  trial_ends_at: nullable(Stamp),
  trial_used: Int,
  created_at: Stamp,
  updated_at: Stamp,
});
export type User = Static<typeof User>;
/** GET /user/me: the spec's User and what the web app's shell reads (is_operator is an addition: operator pages). */
export const Me = obj({ ...User.properties, active_idea_count: Int, is_operator: Bool, is_trialing: Bool, trial_days_remaining: nullable(Int) });
export type Me = Static<typeof Me>;
export const SignedIn = obj({ token: Str, expires_at: Stamp, user: User });
export type SignedIn = Static<typeof SignedIn>;
/** GET /auth/session: the body of GET /user/me, or null when no credential is valid (never a 401). */
export const WhoIsSignedIn = obj({ user: nullable(Me) });
export type WhoIsSignedIn = Static<typeof WhoIsSignedIn>;

// ——— keys ———
export const KeyRecord = obj({ id: Str, label: Str, scopes: nullable(Str), source: literalOf("manual", "mcp"), last_used_at: nullable(Stamp), created_at: Stamp });
export type KeyRecord = Static<typeof KeyRecord>;
export const ApiKeys = obj({ api_keys: list(KeyRecord) });
export type ApiKeys = Static<typeof ApiKeys>;
export const McpTokens = obj({ tokens: list(KeyRecord) });
export type McpTokens = Static<typeof McpTokens>;
export const CreatedApiKey = obj({
  id: Type.String({ pattern: "^[0-9a-f]{32}$" }),
  key: Type.String({ pattern: "^svc_[0-9a-f]{64}$", description: "Shown once; only its hash is kept." }),
  label: Str,
  created_at: Stamp,
});
export type CreatedApiKey = Static<typeof CreatedApiKey>;
export const ProviderKeyChanged = obj({ success: Type.Literal(true), provider: ProviderField });
export type ProviderKeyChanged = Static<typeof ProviderKeyChanged>;
export const ProviderKeyTest = obj({ ok: Bool, error: Type.Optional(Str) });
export type ProviderKeyTest = Static<typeof ProviderKeyTest>;
export const ProviderKeys = obj({ active_provider: nullable(ProviderField), has_provider_a_key: Bool, has_provider_b_key: Bool, has_provider_c_key: Bool });
export type ProviderKeys = Static<typeof ProviderKeys>;

// ——— the rest of /user ———
export const Shortcuts = obj({ quick_capture_url: Str, capture_email: nullable(Str), capture_email_can_authenticate: Bool, capture_email_can_reply: Bool });
export type Shortcuts = Static<typeof Shortcuts>;
export const CaptureEmail = obj({ capture_email: nullable(Str) });
export type CaptureEmail = Static<typeof CaptureEmail>;
export const SupportLink = obj({ url: Str });
export const TestDigest = obj({ success: Type.Literal(true), content: Str });
export type TestDigest = Static<typeof TestDigest>;

// ——— develop ———
/** Tokens a provider counted for a request (or, summed, a conversation). */
export const Usage = obj({ input_tokens: Int, output_tokens: Int });
export type Usage = Static<typeof Usage>;
export const DevelopedSpec = obj({ spec: Str, provider: ProviderField, model: Str, usage: Usage });
export type DevelopedSpec = Static<typeof DevelopedSpec>;
export const StoredSpec = obj({ ...DevelopedSpec.properties, created_at: Stamp });
export type StoredSpec = Static<typeof StoredSpec>;
/** Develop's 400: an invalid id, or no provider key to develop with (needs_byok: the web app offers to add one). */
export const DevelopRefused = obj({ error: Type.Union([Str, Type.Record(Str, list(Str))]), needs_byok: Type.Optional(Type.Literal(true)) });
export const SpecOrNone = obj({ spec: nullable(Str), provider: nullable(ProviderField), model: nullable(Str), usage: nullable(Usage), created_at: nullable(Stamp) });
export type SpecOrNone = Static<typeof SpecOrNone>;

// ——— billing ———
export const PaymentUrl = obj({ url: Type.String({ description: "Single-use Stripe-hosted page; treat it as a credential and open it at once." }) });
export type PaymentUrl = Static<typeof PaymentUrl>;
export const BillingStatus = obj({
  billing_enabled: Type.Boolean({ description: "false: this instance does not take payments (checkout and portal answer 501)." }),
  subscription_status: Type.Union([Str, Type.Null()], { description: "The subscription's last known status (active, past_due, canceled …); null when there never was one." }),
  can_manage: Type.Boolean({ description: "true when the account has a Stripe customer, so POST /user/billing/portal can open." }),
});
export type BillingStatus = Static<typeof BillingStatus>;
export const WebhookReceived = obj({ received: Bool, duplicate: Type.Optional(Bool) });
