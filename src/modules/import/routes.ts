// POST /user/import: the file as the raw body (any source); ?from=SOURCE names it, ?dry_run=true only reports.
import { rmSync } from "node:fs";
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { fieldError } from "../../errors";
import { createImportService } from "./service";
import { SOURCE_IDS } from "./detect";
import { fileInput } from "./inputs";
import { spoolBody } from "./upload";
import { responses } from "../../http/responses";
import { ErrorBody, ImportReport, REFUSED } from "../../contract/responses";

// Plain strings for validation (the service answers an unknown source with the list); the enums document the values.
const Query = t.Object({
  from: t.Optional(t.String({ enum: SOURCE_IDS, description: "The app the file comes from; detected from the file when absent." })),
  dry_run: t.Optional(t.String({ enum: ["true", "false", "1", "0"], description: "true: report what would be imported, write nothing (200)." })),
  name: t.Optional(t.String({ description: "The uploaded file's name; its extension helps detection (.enex, memos_prod.db)." })),
});

function dryRunFlag(v: string | undefined): boolean {
  if (v === undefined || v === "false" || v === "0") return false;
  if (v === "true" || v === "1") return true;
  throw fieldError("dry_run", "dry_run must be true or false");
}

export function importRoutes(deps: Deps, kit: AuthKit) {
  const imports = createImportService(deps);
  // parse: "none" — the body is streamed to a temporary file; a ZIP's entries are then read one at a time.
  return new Elysia({ prefix: "/user" })
    .use(authPlugin(deps, kit))
    .post("/import", async ({ auth, request, query, set }) => {
      const dryRun = dryRunFlag(query.dry_run);
      const contentType = request.headers.get("content-type");
      const path = await spoolBody(request.body, deps.config.data_dir, deps.config.import_body_limit_bytes);
      try {
        // `name` is the uploaded file's name: a single file's extension helps detection (".enex", "memos_prod.db").
        const name = (query.name ?? "").replace(/^.*[\\/]/, "").slice(0, 255) || "upload";
        const input = fileInput(path, name, /^application\/(x-)?zip(-compressed)?\b/i.test(contentType ?? ""));
        const result = await imports.importInput(auth.user.id, auth.plan, input, { from: query.from || undefined, dryRun, contentType });
        set.status = dryRun ? 200 : 201;
        return result;
      } finally {
        rmSync(path, { force: true });
      }
    }, {
      access: { scope: "account:admin" }, parse: "none", query: Query,
      // Both successes, so the document (and the fuzzer) know a dry run's 200; 403 is also the Free plan's idea cap.
      response: responses({ 200: ImportReport, 201: ImportReport, ...REFUSED, 413: ErrorBody }),
    });
}
