// POST /user/test-digest: sends the weekly digest to the caller's own address at once.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createDigestService } from "./service";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, ErrorBody, TestDigest } from "../../contract/responses";

export function digestRoutes(deps: Deps, kit: AuthKit) {
  const digest = createDigestService(deps);
  return new Elysia({ prefix: "/user" })
    .use(authPlugin(deps, kit))
    .post("/test-digest", ({ auth }) => digest.sendTest(auth.user.id), { access: { scope: "account:admin" }, response: responses({ 200: TestDigest, ...AUTH_ERRORS, 500: ErrorBody }) });
}
