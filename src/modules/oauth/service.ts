// OAuth 2.1 rules for MCP clients: dynamic registration, checking authorize requests, issuing codes, the token exchange.
import { createHash, timingSafeEqual } from "node:crypto";
import { Value } from "@sinclair/typebox/value";
import type { Deps } from "../../deps";
import { randomHex, sha256Hex } from "../../lib/crypto";
import { toStamp } from "../../lib/time";
import { createApiKeysService } from "../api-keys/service";
import { createOAuthRepo, type ClientRow } from "./repo";
import {
  CHALLENGE_RE, CODE_RETENTION_MS, CODE_TTL_MS, DEFAULT_CLIENT_NAME, MAX_CLIENT_NAME, MCP_SCOPES, RegisterBody,
  UNUSED_CLIENT_TTL_MS, VERIFIER_RE, oauthError, type McpScope,
} from "./model";

export type Params = Record<string, string | undefined>;

/** A checked authorize request: everything the consent page shows and the code will be bound to. */
export interface AuthorizeRequest {
  client: ClientRow;
  redirectUri: string;
  codeChallenge: string;
  scopes: McpScope[];
  state: string | null;
  resource: string | null;
}

export type AuthorizeCheck =
  | { kind: "ok"; request: AuthorizeRequest }
  /** client_id or redirect_uri is wrong: the user sees an error page; nothing is ever sent to that URI. */
  | { kind: "page"; message: string }
  /** Anything else is reported to the (registered) redirect_uri, as RFC 6749 §4.1.2.1 asks. */
  | { kind: "redirect"; location: string };

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** https anywhere, plain http only back to this machine; never a fragment (RFC 6749 §3.1.2). */
export function redirectUriProblem(raw: string): string | null {
  if (!URL.canParse(raw)) return `${raw} is not an absolute URL`;
  const u = new URL(raw);
  if (u.hash !== "" || raw.includes("#")) return `${raw} must not contain a fragment`;
  if (u.protocol === "https:") return null;
  if (u.protocol === "http:" && LOOPBACK_HOSTS.has(u.hostname)) return null;
  return `${raw} must use https, or http on localhost / 127.0.0.1 / [::1]`;
}

export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  return u.href;
}

/** Requested scopes we know, in canonical order; unknown ones are ignored. No scope parameter asks for all of them. */
export function parseScopes(raw: string | undefined): McpScope[] {
  if (raw === undefined || raw.trim() === "") return [...MCP_SCOPES];
  const asked = raw.split(/\s+/);
  return MCP_SCOPES.filter((s) => asked.includes(s));
}

function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

const cleanName = (raw: string | undefined) =>
  (raw ?? "").replace(/[\u0000-\u001f\u007f]/g, " ").replace(/\s+/g, " ").trim().slice(0, MAX_CLIENT_NAME) || DEFAULT_CLIENT_NAME;

export function createOAuthService(deps: Deps) {
  const repo = createOAuthRepo(deps.store);
  const keys = createApiKeysService(deps);
  const stampAt = (offsetMs = 0) => toStamp(new Date(deps.clock().getTime() + offsetMs));

  async function findClient(clientId: string | undefined): Promise<ClientRow | null> {
    return clientId ? repo.findClient(clientId) : null;
  }

  return {
    findClient,

    /** RFC 7591 registration of a public client. Values we do not support are replaced by ours, as the RFC allows. */
    async register(body: unknown) {
      if (!Value.Check(RegisterBody, body)) {
        const first = [...Value.Errors(RegisterBody, body)][0];
        const field = first?.path.replace(/^\//, "").split("/")[0] || "body";
        if (field === "redirect_uris") throw oauthError(400, "invalid_redirect_uri", "redirect_uris must be an array of 1 to 10 URLs");
        throw oauthError(400, "invalid_client_metadata", `${field}: ${first?.message ?? "invalid value"}`);
      }
      for (const uri of body.redirect_uris) {
        const problem = redirectUriProblem(uri);
        if (problem) throw oauthError(400, "invalid_redirect_uri", problem);
      }
      const now = deps.clock();
      await repo.pruneUnusedClients(stampAt(-UNUSED_CLIENT_TTL_MS));
      const row = { id: randomHex(16), client_name: cleanName(body.client_name), redirect_uris: JSON.stringify(body.redirect_uris), created_at: toStamp(now) };
      await repo.insertClient(row);
      return {
        client_id: row.id,
        client_id_issued_at: Math.floor(now.getTime() / 1000),
        client_name: row.client_name,
        redirect_uris: body.redirect_uris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        scope: MCP_SCOPES.join(" "),
      };
    },

    async checkAuthorize(p: Params): Promise<AuthorizeCheck> {
      const client = await findClient(p.client_id);
      if (!client) return { kind: "page", message: "This application is not registered with this server (unknown client_id)." };
      const redirectUri = p.redirect_uri ?? "";
      if (!(JSON.parse(client.redirect_uris) as string[]).includes(redirectUri)) {
        return { kind: "page", message: "The redirect_uri does not match any address this application registered." };
      }
      const state = p.state ?? null;
      const fail = (error: string, description: string): AuthorizeCheck =>
        ({ kind: "redirect", location: redirectWith(redirectUri, { error, error_description: description, state }) });
      if (p.response_type !== "code") return fail("unsupported_response_type", "response_type must be code");
      if (!p.code_challenge) return fail("invalid_request", "code_challenge is required (PKCE with S256)");
      if (p.code_challenge_method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
      if (!CHALLENGE_RE.test(p.code_challenge)) return fail("invalid_request", "code_challenge must be a base64url SHA-256 digest");
      const scopes = parseScopes(p.scope);
      if (scopes.length === 0) return fail("invalid_scope", `scope must name ${MCP_SCOPES.join(" and/or ")}`);
      return { kind: "ok", request: { client, redirectUri, codeChallenge: p.code_challenge, scopes, state, resource: p.resource ?? null } };
    },

    /** Issues a single-use code for the approved scopes; returns where to send the browser. */
    async issueCode(userId: string, req: AuthorizeRequest, approved: McpScope[]): Promise<string> {
      const code = randomHex(32);
      const now = stampAt();
      await deps.store.tx(async () => {
        await repo.pruneCodes(stampAt(-CODE_RETENTION_MS));
        await repo.insertCode({
          code_hash: sha256Hex(code),
          client_id: req.client.id,
          user_id: userId,
          redirect_uri: req.redirectUri,
          code_challenge: req.codeChallenge,
          scopes: approved.join(" "),
          expires_at: stampAt(CODE_TTL_MS),
          created_at: now,
        });
        await repo.markAuthorized(req.client.id, now);
      });
      return redirectWith(req.redirectUri, { code, state: req.state });
    },

    denied: (req: AuthorizeRequest) =>
      redirectWith(req.redirectUri, { error: "access_denied", error_description: "The user declined the request", state: req.state }),

    /** authorization_code grant: the code must be live, unused, and bound to this client, redirect_uri and verifier. */
    async exchange(p: Params) {
      if (!p.grant_type) throw oauthError(400, "invalid_request", "grant_type is required");
      if (p.grant_type !== "authorization_code") throw oauthError(400, "unsupported_grant_type", "Only authorization_code is supported");
      for (const name of ["code", "redirect_uri", "client_id", "code_verifier"] as const) {
        if (!p[name]) throw oauthError(400, "invalid_request", `${name} is required`);
      }
      const client = await findClient(p.client_id);
      if (!client) throw oauthError(401, "invalid_client", "Unknown client_id");
      if (!VERIFIER_RE.test(p.code_verifier!)) throw oauthError(400, "invalid_grant", "code_verifier must be 43-128 unreserved characters");

      const hash = sha256Hex(p.code!);
      const now = stampAt();
      const outcome = await deps.store.tx(async () => {
        const row = await repo.findCode(hash);
        if (!row) return { error: "Unknown authorization code" } as const;
        if (row.used_at !== null) return { replayOf: row.token_id } as const;
        if (row.expires_at <= now) return { error: "Authorization code expired" } as const;
        if (row.client_id !== client.id) return { error: "Authorization code was issued to another client" } as const;
        if (row.redirect_uri !== p.redirect_uri) return { error: "redirect_uri does not match the authorization request" } as const;
        if (!pkceMatches(p.code_verifier!, row.code_challenge)) return { error: "PKCE verification failed" } as const;
        if (!(await repo.consumeCode(hash, now))) return { replayOf: null } as const;
        const minted = await keys.mint(row.user_id, `MCP (${client.client_name})`, row.scopes, "mcp");
        await repo.setToken(hash, minted.id);
        return { token: { access_token: minted.key, token_type: "Bearer" as const, scope: row.scopes } };
        // Under the code's own lock: a second exchange of it waits, then finds it used (a replay), on any node.
      }, { immediate: true, lock: `oauth-code:${hash}` });

      if ("token" in outcome) return outcome.token;
      if ("replayOf" in outcome) {
        // OAuth 2.1 §4.1.3: a second use of a code suggests it leaked, so the token it produced is revoked too.
        if (outcome.replayOf) await keys.revokeAny(outcome.replayOf);
        deps.log.warn("oauth code replayed; token revoked", { client_id: client.id, token_id: outcome.replayOf ?? undefined });
        throw oauthError(400, "invalid_grant", "Authorization code was already used; the token issued for it has been revoked");
      }
      throw oauthError(400, "invalid_grant", outcome.error);
    },
  };
}
export type OAuthService = ReturnType<typeof createOAuthService>;
