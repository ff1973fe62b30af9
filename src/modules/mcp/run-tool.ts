// Runs one tool for a caller exactly as its REST route would answer: access, the tool's plan rule, then its arguments.
import type { Deps } from "../../deps";
import type { AuthContext } from "../../auth/credentials";
import { checkAccess } from "../../auth/access";
import { AppError } from "../../errors";
import { checkedArgs } from "./input";
import type { ToolSpec } from "./tools";

export type ToolOutcome = { ok: true; result: unknown } | { ok: false; error: unknown };

/** Everything short of running it: what a proposal checks before the person is asked (so they never approve a bad call). */
export async function checkToolCall(deps: Deps, spec: ToolSpec, auth: AuthContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  checkAccess(auth, spec.access, deps.config.upgrade_url);
  await spec.planRule?.(auth);
  return checkedArgs(spec.input, args);
}

/** The tool's answer, or the REST error body for it; an unexpected failure is logged and answered as the generic 500 body. */
export async function runToolCall(deps: Deps, spec: ToolSpec, auth: AuthContext, args: Record<string, unknown>): Promise<ToolOutcome> {
  try {
    return { ok: true, result: await spec.run(auth, await checkToolCall(deps, spec, auth, args)) };
  } catch (e) {
    return { ok: false, error: toolError(deps, spec, e) };
  }
}

export function toolError(deps: Deps, spec: ToolSpec, e: unknown): unknown {
  if (e instanceof AppError) return e.body;
  deps.log.error("tool failed", { tool: spec.name, error: e instanceof Error ? e.message : String(e), stack: e instanceof Error ? e.stack : undefined });
  return { error: "Internal server error" };
}
