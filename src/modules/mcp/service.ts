// The MCP endpoint: token check, a stateless MCP server per request (Streamable HTTP, JSON answers), tool invocation.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Deps } from "../../deps";
import type { AuthKit } from "../../auth/plugin";
import type { AuthContext } from "../../auth/credentials";
import { DAILY_REQUEST_LIMIT } from "../../auth/plans";
import { hasScope } from "../../auth/scopes";
import { AppError, json, rateLimited, scopeError } from "../../errors";
import { parseSettings } from "../users/settings";
import { RESOURCE_METADATA_PATH } from "../oauth/metadata";
import { runOperationsTool, type Invoke } from "./code-mode";
import { createTools, type ToolSpec } from "./tools";
import pkg from "../../../package.json" with { type: "json" };

const INSTRUCTIONS =
  "idearepo is the user's personal idea repository. Use capture_idea to save an idea the user wants to keep " +
  "(search_ideas first when it may already exist), search_ideas / list_ideas / get_idea to look ideas up, and " +
  "update_idea, add_link and relate_ideas to develop them. Ids are the numeric `id` field, never the display `number`.";

type ToolResult = { content: Array<{ type: "text"; text: string }>; isError?: boolean };
const text = (value: unknown, isError = false): ToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  ...(isError ? { isError: true } : {}),
});

export function createMcpService(deps: Deps, kit: AuthKit) {
  const tools = createTools(deps);

  /** Keys and MCP tokens only (Bearer or X-API-Key): sessions belong to the web app, and a cookie could be ridden cross-site. */
  function authenticate(request: Request): AuthContext | null {
    const who = kit.resolver.resolve(request.headers, deps.clock());
    return who && (who.via === "api-key-bearer" || who.via === "api-key-header") ? who : null;
  }

  /** One tool call is one request of the user's daily quota; then the REST order: scope, then the tool's own rules. */
  const invoke: Invoke = async (spec, auth, args) => {
    try {
      if (!kit.limiter.hit(auth.user.id, DAILY_REQUEST_LIMIT[auth.plan], deps.clock())) throw rateLimited();
      if (!hasScope(auth.scopes, spec.scope)) throw scopeError(spec.scope);
      return { ok: true, result: await spec.run(auth, args) };
    } catch (e) {
      if (e instanceof AppError) return { ok: false, error: e.body };
      deps.log.error("mcp tool failed", { tool: spec.name, error: e instanceof Error ? e.message : String(e), stack: e instanceof Error ? e.stack : undefined });
      return { ok: false, error: { error: "Internal server error" } };
    }
  };

  function register(server: McpServer, spec: Pick<ToolSpec, "name" | "title" | "description" | "input">, readOnly: boolean, call: (args: Record<string, unknown>) => Promise<ToolResult>) {
    server.registerTool(spec.name, {
      title: spec.title,
      description: spec.description,
      inputSchema: spec.input,
      annotations: { readOnlyHint: readOnly, destructiveHint: false, openWorldHint: false },
    }, (args: Record<string, unknown>) => call(args));
  }

  function buildServer(auth: AuthContext): McpServer {
    const server = new McpServer({ name: "idearepo", version: pkg.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    for (const spec of tools) {
      register(server, spec, spec.scope === "ideas:read", async (args) => {
        const out = await invoke(spec, auth, args);
        return out.ok ? text(out.result) : text(out.error, true);
      });
    }
    if (parseSettings(auth.user.settings_json).code_mode) {
      const batch = runOperationsTool(tools, invoke);
      register(server, batch, false, async (args) => text(await batch.run(auth, args as Parameters<typeof batch.run>[1])));
    }
    return server;
  }

  return {
    async handle(request: Request, base: string): Promise<Response> {
      const auth = authenticate(request);
      if (!auth) {
        const presented = request.headers.has("authorization") || request.headers.has("x-api-key");
        const params = `${presented ? 'error="invalid_token", ' : ""}resource_metadata="${base}${RESOURCE_METADATA_PATH}"`;
        return json(401, { error: "Unauthorized" }, { "www-authenticate": `Bearer ${params}` });
      }
      // Stateless: no session to resume and nothing to push, so there is no GET stream and no session to DELETE.
      if (request.method !== "POST") return json(405, { error: "Method not allowed: send JSON-RPC with POST" }, { allow: "POST" });
      const server = buildServer(auth);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: deps.config.body_limit_bytes,
      });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request);
      } finally {
        await server.close();
      }
    },
  };
}
