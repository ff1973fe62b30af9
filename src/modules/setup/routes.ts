// Public onboarding routes: first-run setup (GET/POST /setup) and open registration (POST /auth/register).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { sessionCookie } from "../sign-in/cookie";
import { createSetupService } from "./service";
import { RegisterBody, SetupBody } from "./model";
import { responses } from "../../http/responses";
import { ErrorBody, SetupStatus, SignedIn, ValidationErrorBody } from "../../contract/responses";

export function setupRoutes(deps: Deps) {
  const setup = createSetupService(deps);
  return new Elysia()
    .get("/setup", () => setup.status(), { response: responses({ 200: SetupStatus }) })
    .post("/setup", async ({ body, set }) => {
      const out = await setup.complete(body);
      set.headers["set-cookie"] = sessionCookie(deps.config, out.token);
      set.status = 201;
      return out;
    }, { body: SetupBody, response: responses({ 201: SignedIn, 400: ValidationErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody }) })
    .post("/auth/register", async ({ body, set }) => {
      const out = await setup.register(body);
      set.headers["set-cookie"] = sessionCookie(deps.config, out.token);
      set.status = 201;
      return out;
    }, { body: RegisterBody, response: responses({ 201: SignedIn, 400: ValidationErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody }) });
}
