// OAuth shapes and limits for the MCP integration: scopes, registration metadata, lifetimes, error bodies.
import { t } from "elysia";
import { AppError } from "../../errors";

export const MCP_SCOPES = ["ideas:read", "ideas:write"] as const;
export type McpScope = (typeof MCP_SCOPES)[number];
export const SCOPE_DESCRIPTIONS: Record<McpScope, string> = {
  "ideas:read": "Read your ideas, tags, links, relations and search results",
  "ideas:write": "Capture and edit ideas, their tags, links and relations",
};

export const CODE_TTL_MS = 10 * 60_000;
/** A consent page (and its CSRF token) stays usable this long. */
export const CONSENT_TTL_MS = 30 * 60_000;
/** Clients nobody approved within a day are leftovers of abandoned or drive-by registrations. */
export const UNUSED_CLIENT_TTL_MS = 86_400_000;
/** Used and expired codes are kept a day so a late replay still finds (and revokes) its token. */
export const CODE_RETENTION_MS = 86_400_000;
export const MAX_CLIENT_NAME = 80;
export const DEFAULT_CLIENT_NAME = "Unnamed client";

/** RFC 7591 client metadata; unknown members are allowed and ignored, as the RFC asks. */
export const RegisterBody = t.Object({
  redirect_uris: t.Array(t.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: 10 }),
  client_name: t.Optional(t.String({ maxLength: 1000 })),
  token_endpoint_auth_method: t.Optional(t.String()),
  grant_types: t.Optional(t.Array(t.String())),
  response_types: t.Optional(t.Array(t.String())),
  scope: t.Optional(t.String()),
});
export type RegisterBody = typeof RegisterBody.static;

/** PKCE: S256 challenges are base64url SHA-256 digests; verifiers are 43–128 unreserved characters (RFC 7636). */
export const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;
export const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;

/** An error in RFC 6749 / RFC 7591 shape: `{error, error_description}`. */
export const oauthError = (status: number, error: string, description: string) =>
  new AppError(status, { error, error_description: description });
