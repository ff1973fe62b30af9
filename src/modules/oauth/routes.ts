// OAuth for MCP clients: discovery documents, dynamic client registration, the consent page and the token endpoint.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import type { AuthKit } from "../../auth/plugin";
import { AppError, json } from "../../errors";
import { baseUrl } from "./base-url";
import { createConsentFlow } from "./consent";
import { authorizationServerMetadata, protectedResourceMetadata, RESOURCE_METADATA_PATH } from "./metadata";
import { oauthError } from "./model";
import { queryParams, readJson, readParams } from "./params";
import { createOAuthService } from "./service";

type Ctx = { request: Request; server: { requestIP(r: Request): { address: string } | null } | null };
// Token answers must never be cached (RFC 6749 §5.1); errors keep the RFC's {error, error_description} shape.
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

async function oauthJson(status: number, work: () => unknown): Promise<Response> {
  try {
    return json(status, await work(), NO_STORE);
  } catch (e) {
    if (e instanceof AppError) return json(e.status, e.body, NO_STORE);
    throw e;
  }
}

export function oauthRoutes(deps: Deps, kit: AuthKit) {
  const oauth = createOAuthService(deps);
  const consent = createConsentFlow(deps, kit, oauth);
  const base = ({ request, server }: Ctx) => baseUrl(deps.config, request, server?.requestIP(request)?.address);

  return new Elysia()
    .get("/.well-known/oauth-authorization-server", (ctx) => authorizationServerMetadata(base(ctx)))
    .get(RESOURCE_METADATA_PATH, (ctx) => protectedResourceMetadata(base(ctx)))
    // RFC 9728 §3.1 path-suffixed form for the resource at /mcp, which clients try first.
    .get(`${RESOURCE_METADATA_PATH}/mcp`, (ctx) => protectedResourceMetadata(base(ctx)))
    .post("/mcp/register", async ({ request }) => {
      const body = await readJson(request);
      return oauthJson(201, () => {
        if (body === undefined) throw oauthError(400, "invalid_client_metadata", "The body must be a JSON object");
        return oauth.register(body);
      });
    }, { parse: "none" })
    .get("/mcp/authorize", async ({ request }) => consent.show(request, queryParams(request)))
    .post("/mcp/authorize", async ({ request }) => consent.submit(request, await readParams(request)), { parse: "none" })
    .post("/mcp/token", async ({ request }) => {
      const params = await readParams(request);
      return oauthJson(200, () => {
        if (params === null) throw oauthError(400, "invalid_request", "Send the parameters as application/x-www-form-urlencoded or JSON");
        return oauth.exchange(params);
      });
    }, { parse: "none" });
}
