// GET /agent/ws (Pro: its access names the gate).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { AppError } from "../../errors";

export function agentRoutes(deps: Deps, kit: AuthKit) {
  return new Elysia()
    .use(authPlugin(deps, kit))
    // The agent channel is reserved: the spec shows no message shapes, so a Pro caller learns it is not offered here.
    .get("/agent/ws", () => {
      throw new AppError(501, { error: "The agent WebSocket is not available on this instance" });
    }, { access: { scope: "ideas:read", gate: "agent" } });
}
