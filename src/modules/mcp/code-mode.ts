// The code-mode tool surface (user setting code_mode): one tool that runs a list of tool calls in a single round trip.
import { z } from "zod";
import type { AuthContext } from "../../auth/credentials";
import type { ToolSpec } from "./tools";

export const MAX_OPERATIONS = 20;

export type Invoke = (spec: ToolSpec, auth: AuthContext, args: Record<string, unknown>) => Promise<{ ok: true; result: unknown } | { ok: false; error: unknown }>;

/**
 * Each operation is checked and run exactly like a direct call of that tool (its scope, the rate limit, plan rules,
 * validation); operations run in order and fail one by one, so later ones see what earlier ones created.
 */
export function runOperationsTool(tools: ToolSpec[], invoke: Invoke) {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const names = tools.map((t) => t.name) as [string, ...string[]];
  return {
    name: "run_operations",
    title: "Run several operations",
    description:
      `Runs up to ${MAX_OPERATIONS} calls of the other tools in one request, in order, and returns one result per call. ` +
      "Each entry is {tool, arguments} with the same arguments the tool takes; a failing entry does not stop the rest.",
    input: {
      operations: z
        .array(z.object({ tool: z.enum(names), arguments: z.record(z.string(), z.unknown()).nullish() }))
        .min(1)
        .max(MAX_OPERATIONS),
    },
    async run(auth: AuthContext, args: { operations: Array<{ tool: string; arguments?: Record<string, unknown> | null }> }) {
      const results = [];
      for (const op of args.operations) {
        const spec = byName.get(op.tool)!;
        const parsed = z.object(spec.input).safeParse(op.arguments ?? {});
        if (!parsed.success) {
          results.push({ tool: op.tool, ok: false, error: { error: z.prettifyError(parsed.error) } });
          continue;
        }
        results.push({ tool: op.tool, ...(await invoke(spec, auth, parsed.data as Record<string, unknown>)) });
      }
      const failed = results.filter((r) => !r.ok).length;
      return { succeeded: results.length - failed, failed, results };
    },
  };
}
