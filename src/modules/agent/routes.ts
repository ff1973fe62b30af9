// GET /agent/ws (Pro: its access names the gate) and the billing routes a self-hosted instance has no provider for.
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
    }, { access: { scope: "ideas:read", gate: "agent" } })
    // Self-hosted instances have no payment provider; plans are set by the operator (`idearepo users set-plan`).
    .post("/user/billing/checkout", () => {
      throw new AppError(501, { error: "Billing is not available on a self-hosted instance; ask your operator to change your plan" });
    }, { access: { scope: "account:admin" } })
    .post("/user/billing/portal", () => {
      throw new AppError(501, { error: "Billing is not available on a self-hosted instance; ask your operator to change your plan" });
    }, { access: { scope: "account:admin" } });
}
