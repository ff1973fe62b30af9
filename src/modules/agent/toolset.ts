// The agent's tools are the MCP tools (src/modules/mcp/tools.ts): same schemas, rules, scopes and services. Reads run
// at once; a write (ideas:write) becomes a proposal the person approves first.
import type { Deps } from "../../deps";
import type { AuthContext } from "../../auth/credentials";
import { hasScope, WRITE } from "../../auth/scopes";
import type { ToolDeclaration } from "../../ai/chat";
import { advertisedInput } from "../mcp/input";
import { createTools, type ToolSpec } from "../mcp/tools";

export const isWrite = (spec: ToolSpec) => spec.access.scope === WRITE;

export interface AgentTools {
  byName: Map<string, ToolSpec>;
  /** What the provider is told about, for this caller: a token without ideas:write is offered no write at all. */
  declarationsFor(auth: AuthContext): ToolDeclaration[];
}

export function createAgentTools(deps: Deps): AgentTools {
  // The code-mode batch (run_operations) is an MCP client setting and never part of the agent: every write is its own proposal.
  const specs = createTools(deps, "agent");
  const declarations = new Map(specs.map((s) => [s.name, { name: s.name, description: s.description, schema: advertisedInput(s.input) as Record<string, unknown> }]));
  return {
    byName: new Map(specs.map((s) => [s.name, s])),
    declarationsFor: (auth) => specs.filter((s) => !isWrite(s) || hasScope(auth.scopes, WRITE)).map((s) => declarations.get(s.name)!),
  };
}
