// POST /user/import: our JSON export as the body, or the Markdown vault ZIP with Content-Type: application/zip.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createImportService } from "./service";

export function importRoutes(deps: Deps, kit: AuthKit) {
  const imports = createImportService(deps);
  // parse: "none" — the body is read raw so a ZIP and a large JSON document take the same path.
  return new Elysia({ prefix: "/user" })
    .use(authPlugin(deps, kit))
    .post("/import", async ({ auth, request, set }) => {
      const bytes = new Uint8Array(await request.arrayBuffer());
      set.status = 201;
      return imports.importBytes(auth.user.id, auth.plan, bytes, request.headers.get("content-type"));
    }, { parse: "none" });
}
