// POST /user/capture-email/regenerate: a new personal capture address (documented addition, docs/email.md).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createMailCaptureService } from "./service";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, CaptureEmail } from "../../contract/responses";

export function mailCaptureRoutes(deps: Deps, kit: AuthKit) {
  const capture = createMailCaptureService(deps);
  return new Elysia({ prefix: "/user/capture-email" })
    .use(authPlugin(deps, kit))
    .post("/regenerate", async ({ auth }) => ({ capture_email: await capture.regenerate(auth.user.id) }), { access: { scope: "account:admin" }, response: responses({ 200: CaptureEmail, ...AUTH_ERRORS }) });
}
