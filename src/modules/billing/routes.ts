// POST /user/billing/checkout and /user/billing/portal: the payment routes (501 while the instance has no provider).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { AppError } from "../../errors";

export function billingRoutes(deps: Deps, kit: AuthKit) {
  return new Elysia()
    .use(authPlugin(deps, kit))
    // Self-hosted instances have no payment provider; plans are set by the operator (`idearepo users set-plan`).
    .post("/user/billing/checkout", () => {
      throw new AppError(501, { error: "Billing is not available on a self-hosted instance; ask your operator to change your plan" });
    }, { access: { scope: "account:admin" } })
    .post("/user/billing/portal", () => {
      throw new AppError(501, { error: "Billing is not available on a self-hosted instance; ask your operator to change your plan" });
    }, { access: { scope: "account:admin" } });
}
