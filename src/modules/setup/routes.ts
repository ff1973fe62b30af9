// Public onboarding routes: first-run setup (GET/POST /setup) and open registration (POST /auth/register).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { sessionCookie } from "../sign-in/cookie";
import { createSetupService } from "./service";
import { RegisterBody, SetupBody } from "./model";

export function setupRoutes(deps: Deps) {
  const setup = createSetupService(deps);
  return new Elysia()
    .get("/setup", () => setup.status())
    .post("/setup", async ({ body, set }) => {
      const out = await setup.complete(body);
      set.headers["set-cookie"] = sessionCookie(deps.config, out.token);
      set.status = 201;
      return out;
    }, { body: SetupBody })
    .post("/auth/register", async ({ body, set }) => {
      const out = await setup.register(body);
      set.headers["set-cookie"] = sessionCookie(deps.config, out.token);
      set.status = 201;
      return out;
    }, { body: RegisterBody });
}
