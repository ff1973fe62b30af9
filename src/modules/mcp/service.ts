// The MCP endpoint: token check, a stateless MCP server per request (Streamable HTTP, JSON answers), tool invocation.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Deps } from "../../deps";
import type { AuthKit } from "../../auth/plugin";
import type { AuthContext } from "../../auth/credentials";
import { DAILY_REQUEST_LIMIT } from "../../auth/plans";
import { json, rateLimited } from "../../errors";
import { parseSettings } from "../../contract";
import { RESOURCE_METADATA_PATH } from "../oauth/metadata";
import { runOperationsTool, type Invoke } from "./code-mode";
import { advertisedInput } from "./input";
import { runToolCall } from "./run-tool";
import { createTools, type ToolSpec } from "./tools";
import pkg from "../../../package.json" with { type: "json" };

const INSTRUCTIONS =
  "idearepo is the user's personal idea repository. Use capture_idea to save an idea the user wants to keep " +
  "(search_ideas first when it may already exist), search_ideas / list_ideas / get_idea to look ideas up, and " +
  "update_idea, add_link and relate_ideas to develop them. Ids are the numeric `id` field, never the display `number`.";

/**
 * The SDK, loaded with the first MCP request: its zod schemas are ~3.5 MB of heap that a server nobody connects an
 * agent to should not hold at idle (docs/performance.md, "Server footprint").
 */
let sdk: Promise<typeof import("@modelcontextprotocol/sdk/server/index.js") & typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js") & typeof import("@modelcontextprotocol/sdk/types.js")> | null = null;
const loadSdk = () =>
  (sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([server, transport, types]) => ({ ...server, ...transport, ...types })));

type ToolResult = { content: Array<{ type: "text"; text: string }>; isError?: boolean };
const text = (value: unknown, isError = false): ToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  ...(isError ? { isError: true } : {}),
});

export function createMcpService(deps: Deps, kit: AuthKit) {
  const tools = createTools(deps);

  /** Keys and MCP tokens only (Bearer or X-API-Key): sessions belong to the web app, and a cookie could be ridden cross-site. */
  async function authenticate(request: Request): Promise<AuthContext | null> {
    const who = await kit.resolver.resolve(request.headers, deps.clock());
    return who && (who.via === "api-key-bearer" || who.via === "api-key-header") ? who : null;
  }

  /** REST order: the daily quota (one tool call is one request), access, the tool's plan rule, then its arguments. */
  const invoke: Invoke = async (spec, auth, args) => {
    if (!spec.uncounted && !(await kit.limiter.hit(auth.user.id, DAILY_REQUEST_LIMIT[auth.plan], deps.clock()))) return { ok: false, error: rateLimited().body };
    return runToolCall(deps, spec, auth, args);
  };

  // A tool's listing never changes, so its JSON Schema is made once (the code-mode tool is made per request).
  const listings = new WeakMap<ToolSpec, Tool>();
  const listed = (spec: ToolSpec): Tool => {
    let tool = listings.get(spec);
    if (!tool) {
      tool = {
        name: spec.name,
        title: spec.title,
        description: spec.description,
        inputSchema: advertisedInput(spec.input) as Tool["inputSchema"],
        annotations: { readOnlyHint: spec.access.scope === "ideas:read", destructiveHint: false, openWorldHint: false },
      };
      listings.set(spec, tool);
    }
    return tool;
  };

  /**
   * The SDK's low-level server, because its high-level one takes tool arguments only as zod shapes: ours are the REST
   * models' TypeBox schemas, which are JSON Schema already (src/modules/mcp/input.ts).
   */
  async function buildServer(auth: AuthContext): Promise<Server> {
    const { Server, CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } = await loadSdk();
    const offered = parseSettings(auth.user.settings_json).code_mode ? [...tools, runOperationsTool(tools, invoke)] : tools;
    const byName = new Map(offered.map((spec) => [spec.name, spec]));
    const server = new Server({ name: "idearepo", version: pkg.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: offered.map(listed) }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const spec = byName.get(request.params.name);
      if (!spec) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
      const out = await invoke(spec, auth, request.params.arguments ?? {});
      return out.ok ? text(out.result) : text(out.error, true);
    });
    return server;
  }

  return {
    async handle(request: Request, base: string): Promise<Response> {
      const auth = await authenticate(request);
      if (!auth) {
        const presented = request.headers.has("authorization") || request.headers.has("x-api-key");
        const params = `${presented ? 'error="invalid_token", ' : ""}resource_metadata="${base}${RESOURCE_METADATA_PATH}"`;
        return json(401, { error: "Unauthorized" }, { "www-authenticate": `Bearer ${params}` });
      }
      // Stateless: no session to resume and nothing to push, so there is no GET stream and no session to DELETE.
      if (request.method !== "POST") return json(405, { error: "Method not allowed: send JSON-RPC with POST" }, { allow: "POST" });
      const server = await buildServer(auth);
      const { WebStandardStreamableHTTPServerTransport } = await loadSdk();
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
