// /user/me routes: thin handlers over the users service.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createUsersService } from "./service";
import { DeleteAccountBody, UpdateMeBody } from "./model";
import { createAccountDeletion } from "./deletion";
import { sessionCookie } from "../sign-in/cookie";
import { baseUrl } from "../oauth/base-url";
import { createMailCaptureService } from "../mail-capture/service";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, ErrorBody, Me, REFUSED, Shortcuts, Success, User } from "../../contract/responses";

export function usersRoutes(deps: Deps, kit: AuthKit) {
  const users = createUsersService(deps);
  const mailCapture = createMailCaptureService(deps);
  const deletion = createAccountDeletion(deps);
  return new Elysia({ prefix: "/user" })
    .use(authPlugin(deps, kit))
    .get("/me", ({ auth }) => users.getMe(auth.user.id), { access: { scope: "ideas:read" }, response: responses({ 200: Me, ...AUTH_ERRORS, 404: ErrorBody }) })
    .patch("/me", ({ auth, body }) => users.updateMe(auth.user.id, body), { access: { scope: "account:admin" }, body: UpdateMeBody, response: responses({ 200: User, ...REFUSED, 404: ErrorBody }) })
    // An addition (docs/auth.md, "Deleting an account"): the person's own account, for good; the cookie goes with it.
    .delete("/", async ({ auth, body, set }) => {
      await deletion.deleteOwn(auth.user.id, body ?? {});
      set.headers["set-cookie"] = sessionCookie(deps.config, null);
      return { success: true as const };
    }, { access: { scope: "account:admin" }, body: t.Optional(DeleteAccountBody), response: responses({ 200: Success, ...REFUSED, 409: ErrorBody }) })
    // The web app's capture page pre-fills from ?title=&body=&url=, so bookmarklets, iOS Shortcuts and Android shares work.
    // capture_email: the account's personal address for capture by e-mail (docs/email.md), null when that is off;
    // capture_email_can_authenticate / _can_reply: what the instance can do for the account's capture options.
    .get("/shortcuts", async ({ auth, request, server }) => ({
      quick_capture_url: deps.config.quick_capture_url ?? `${baseUrl(deps.config, request, server?.requestIP(request)?.address)}/capture`,
      capture_email: await mailCapture.addressFor(auth.user.id),
      ...mailCapture.abilities(),
    }), { access: { scope: "account:admin" }, response: responses({ 200: Shortcuts, ...AUTH_ERRORS }) });
}
