// /admin/* for the operator alone (anyone else gets the missing-route 404), and the public invitation acceptance.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { notFound } from "../../errors";
import type { AuthContext } from "../../auth/credentials";
import { sessionCookie } from "../sign-in/cookie";
import { createAdminService } from "./service";
import { createInstanceService } from "./instance";
import { createInvitationsService } from "./invitations";
import { AcceptInvitationBody, CreateUserBody, UpdateUserBody } from "./model";
import { responses } from "../../http/responses";
import { AccountHistory, AdminUsers, AUTH_ERRORS, BackupFile, CreatedAdminUser, DeletedAccount, ErrorBody, InstanceInfo, OneAdminUser, REFUSED, SignedIn, ValidationErrorBody } from "../../contract/responses";

/** Anyone but an operator: the missing-route 404 (so do absent accounts, on the routes naming one). */
const OPERATOR_ERRORS = { ...AUTH_ERRORS, 404: ErrorBody } as const;
const OPERATOR_REFUSED = { ...REFUSED, 404: ErrorBody } as const;

/** Non-operators get exactly the body a missing route gets, before validation, so the routes' existence is not revealed. */
const operatorsOnly = (auth: AuthContext) => {
  if (auth.user.is_operator !== 1) throw notFound("Not found");
};

export function adminRoutes(deps: Deps, kit: AuthKit) {
  const admin = createAdminService(deps);
  const instance = createInstanceService(deps);
  const invitations = createInvitationsService(deps);

  const operator = new Elysia({ prefix: "/admin" })
    // Elysia reads a body before any derive runs, and turns anything thrown there into 400 "Invalid JSON body". For
    // anyone but an operator the body is skipped (an empty one stands in), so the derive below answers the 401 or the
    // missing-route 404 whatever was sent. Returning nothing lets the normal parser read an operator's body.
    .onParse(async ({ request }) => {
      const auth = await kit.resolver.resolve(request.headers, deps.clock());
      if (!auth || auth.user.is_operator !== 1) return {};
    })
    .use(authPlugin(deps, kit, operatorsOnly))
    .get("/users", () => admin.listUsers(), { access: { scope: "account:admin" }, response: responses({ 200: AdminUsers, ...OPERATOR_ERRORS }) })
    .post("/users", async ({ auth, body, set }) => {
      const out = await admin.createUser(auth.user.id, body);
      set.status = 201;
      return out;
    }, { access: { scope: "account:admin" }, body: CreateUserBody, response: responses({ 201: CreatedAdminUser, ...OPERATOR_REFUSED }) })
    .patch("/users/:id", ({ auth, params, body }) => admin.updateUser(auth.user.id, params.id, body), { access: { scope: "account:admin" }, body: UpdateUserBody, response: responses({ 200: OneAdminUser, ...OPERATOR_REFUSED }) })
    .delete("/users/:id", ({ auth, params }) => admin.deleteUser(auth.user.id, params.id), { access: { scope: "account:admin" }, response: responses({ 200: DeletedAccount, 400: ErrorBody, ...OPERATOR_ERRORS, 409: ErrorBody }) })
    .get("/users/:id/history", ({ params }) => admin.history(params.id), { access: { scope: "account:admin" }, response: responses({ 200: AccountHistory, ...OPERATOR_ERRORS }) })
    .get("/instance", () => instance.info(), { access: { scope: "account:admin" }, response: responses({ 200: InstanceInfo, ...OPERATOR_ERRORS }) })
    .get("/backup", () => instance.backup(), { access: { scope: "account:admin" }, response: responses({ 200: BackupFile, ...OPERATOR_ERRORS, 501: ErrorBody }) });

  const accept = new Elysia({ prefix: "/auth" }).post("/accept-invitation", async ({ body, set }) => {
    const out = await invitations.accept(body);
    set.headers["set-cookie"] = sessionCookie(deps.config, out.token);
    return out;
  }, { body: AcceptInvitationBody, response: responses({ 200: SignedIn, 400: ValidationErrorBody }) });

  return new Elysia().use(operator).use(accept);
}
