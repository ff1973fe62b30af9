// What one node does among several on one PostgreSQL (config.role, `serve --role`): all, web or worker.
import type { Config } from "./config";
import { json } from "./errors";
import { API_PREFIX } from "./auth/plugin";
import { OperatorError } from "./lib/operator-error";

export const ROLES = ["all", "web", "worker"] as const;
export type Role = (typeof ROLES)[number];

/**
 * Refuses a role the store cannot have: one SQLite file is served by one process, which must then do everything, so
 * `web` and `worker` need database.url. Said at start, in one line, rather than serving without a pipeline.
 */
export function checkRole(config: Pick<Readonly<Config>, "role" | "database">): void {
  if (config.role !== "all" && config.database.url === null) {
    throw new OperatorError(
      `role ${config.role} (--role, IDEAREPO_ROLE) needs PostgreSQL (database.url, IDEAREPO_DATABASE_URL): one SQLite file is served by one process, which runs as role all`,
    );
  }
}

/** What a worker answers: its health (the probe a load balancer or orchestrator reads) and its metrics. */
const WORKER_PATHS = new Set([`${API_PREFIX}/health`, "/metrics"]);

/**
 * A worker answers no people: every other request gets the spec's JSON 404 with a line that says why, so a worker
 * put behind the load balancer by mistake is plain to see rather than half working.
 */
export function workerRefusal(role: Role, request: Request): Response | null {
  if (role !== "worker") return null;
  const path = new URL(request.url).pathname;
  if (WORKER_PATHS.has(path)) return null;
  return json(404, { error: "This node is a worker: it answers only /api/v1/health and /metrics" });
}
