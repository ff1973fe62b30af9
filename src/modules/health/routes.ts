// GET /health: no auth; a real database probe decides between 200 and the spec's 503 body.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { createHealthRepo } from "./repo";

export function healthRoutes(deps: Deps, extra: () => Record<string, unknown> | Promise<Record<string, unknown>> = () => ({})) {
  const repo = createHealthRepo(deps.db);
  return new Elysia().get("/health", async ({ set }) => {
    try {
      repo.probe();
    } catch {
      set.status = 503;
      return { status: "error", error: "Database unavailable" };
    }
    return { status: "ok", environment: deps.config.env, timestamp: deps.clock().toISOString(), ...(await extra()) };
  });
}
