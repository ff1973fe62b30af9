// /mcp and /mcp/: the Streamable HTTP endpoint of the MCP integration (OAuth routes live in modules/oauth).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import type { AuthKit } from "../../auth/plugin";
import { baseUrl } from "../oauth/base-url";
import { createMcpService } from "./service";

export function mcpRoutes(deps: Deps, kit: AuthKit) {
  const mcp = createMcpService(deps, kit);
  // parse "none": the transport reads the JSON-RPC body itself.
  return new Elysia({ prefix: "/mcp" }).all("/", ({ request, server }) =>
    mcp.handle(request, baseUrl(deps.config, request, server?.requestIP(request)?.address)), { parse: "none" });
}
