// GET /health: no auth; a real database probe decides between 200 and the spec's 503 body.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { storeName } from "../../db/store-name";
import { createHealthRepo } from "./repo";
import { responses } from "../../http/responses";
import { Health, HealthFailing } from "../../contract/responses";

export function healthRoutes(deps: Deps, extra: () => Record<string, unknown> | Promise<Record<string, unknown>> = () => ({})) {
  const repo = createHealthRepo(deps.store);
  // Beside the spec's fields: which store answered the probe (`sqlite` or `postgresql`), so a load balancer's log or
  // an operator can tell what a node runs on. The 503 body stays exactly the spec's.
  const database = storeName(deps.store);
  return new Elysia().get("/health", async ({ set }) => {
    try {
      await repo.probe();
    } catch {
      set.status = 503;
      return { status: "error" as const, error: "Database unavailable" };
    }
    return { status: "ok", environment: deps.config.env, timestamp: deps.clock().toISOString(), database, ...(await extra()) } as Health;
  }, { response: responses({ 200: Health, 503: HealthFailing }) });
}
