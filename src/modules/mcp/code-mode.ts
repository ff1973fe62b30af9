// The code-mode tool surface (user setting code_mode): one tool that runs a list of tool calls in a single round trip.
import { Type } from "@sinclair/typebox";
import type { AuthContext } from "../../auth/credentials";
import { Enum } from "../../http/schema";
import { toolInput } from "./input";
import { defineTool, type ToolSpec } from "./tools";

export const MAX_OPERATIONS = 20;

export type Invoke = (spec: ToolSpec, auth: AuthContext, args: Record<string, unknown>) => Promise<{ ok: true; result: unknown } | { ok: false; error: unknown }>;

/**
 * Each operation is checked and run exactly like a direct call of that tool (the rate limit, its access, plan rules,
 * validation); operations run in order and fail one by one, so later ones see what earlier ones created.
 */
export function runOperationsTool(tools: ToolSpec[], invoke: Invoke): ToolSpec {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const Operation = Type.Object({
    tool: Enum("tool", tools.map((t) => t.name)),
    arguments: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  });
  return defineTool({
    name: "run_operations",
    title: "Run several operations",
    description:
      `Runs up to ${MAX_OPERATIONS} calls of the other tools in one request, in order, and returns one result per call. ` +
      "Each entry is {tool, arguments} with the same arguments the tool takes; a failing entry does not stop the rest.",
    // The batch itself asks nothing and counts nothing: each operation is checked and counted as its own tool call.
    access: { scope: null },
    uncounted: true,
    input: toolInput({ operations: Type.Array(Operation, { minItems: 1, maxItems: MAX_OPERATIONS }) }),
    async run(auth, args) {
      const results = [];
      for (const op of args.operations) {
        results.push({ tool: op.tool, ...(await invoke(byName.get(op.tool)!, auth, op.arguments ?? {})) });
      }
      const failed = results.filter((r) => !r.ok).length;
      return { succeeded: results.length - failed, failed, results };
    },
  });
}
