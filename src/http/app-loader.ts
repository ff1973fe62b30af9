// Loads and builds the app in slices with the event loop turned between them, so the early listener answers /health.
import type { Deps } from "../deps";
import type { BuiltApp } from "../app";

/**
 * The app's route modules, each loaded on its own. Loading a module graph is synchronous work: loaded as one import
 * (app.ts imports all of them), the listener opened before it could not answer a request until the whole graph had
 * run (100–600 ms, docs/performance.md). app.ts still imports them statically; one missing here is only a longer slice.
 * The ones that pull in large packages (the MCP SDK, the mail libraries, the importers) come last, alone.
 */
const MODULES: (() => Promise<unknown>)[] = [
  () => import("../modules/health/routes"),
  () => import("../auth/plugin"),
  () => import("../modules/sign-in/routes"),
  () => import("../modules/users/routes"),
  () => import("../modules/api-keys/routes"),
  () => import("../modules/setup/routes"),
  () => import("../modules/support/routes"),
  () => import("../modules/ideas/routes"),
  () => import("../modules/search/routes"),
  () => import("../modules/relations/routes"),
  () => import("../modules/map/routes"),
  () => import("../modules/map-positions/routes"),
  () => import("../modules/tags/routes"),
  () => import("../modules/links/routes"),
  () => import("../modules/versions/routes"),
  () => import("../modules/wikilinks/routes"),
  () => import("../modules/review/routes"),
  () => import("../modules/duplicates/routes"),
  () => import("../modules/byok/routes"),
  () => import("../modules/develop/routes"),
  () => import("../modules/digest/routes"),
  () => import("../modules/agent/routes"),
  () => import("../modules/billing/routes"),
  () => import("../modules/export/routes"),
  () => import("../modules/admin/routes"),
  () => import("../modules/vault/routes"),
  () => import("../modules/web/routes"),
  () => import("../modules/web/boot-data"),
  () => import("../modules/openapi/routes"),
  () => import("../modules/metrics/routes"),
  () => import("../modules/oauth/routes"),
  () => import("../modules/mcp/routes"),
  () => import("../mail/capture-reader"),
  () => import("../modules/mail-capture/routes"),
  () => import("../modules/import/routes"),
];

/**
 * One turn of the event loop: a request waiting on the listener's socket is read and answered before the next slice.
 * (A resolved promise would not do: microtasks run before the loop polls its sockets.)
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Imports the app module by module, then builds it step by step, turning the event loop in between. */
export async function loadApp(deps: Deps): Promise<BuiltApp> {
  for (const load of MODULES) {
    await load();
    await turn();
  }
  const { createAppInSteps } = await import("../app");
  return createAppInSteps(deps, turn);
}
