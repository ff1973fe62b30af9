// POST /user/export[/csv|/markdown]: every plan, no body; the answer streams so memory stays flat for 10,000 ideas.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { createExportService, type ExportFormat } from "./service";
import { toByteStream } from "./stream";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, CsvExport, ExportDocument, MarkdownExport } from "../../contract/responses";

export function exportRoutes(deps: Deps, kit: AuthKit) {
  const exports = createExportService(deps);
  const respond = async (userId: string, format: ExportFormat) => {
    const out = await exports.prepare(userId, format);
    const headers: Record<string, string> = { "content-type": out.contentType, "cache-control": "no-store" };
    if (out.filename) headers["content-disposition"] = `attachment; filename="${out.filename}"`;
    if (out.truncated) headers["x-export-truncated"] = "true";
    return new Response(toByteStream(out.chunks, deps.log, format), { status: 200, headers });
  };
  // parse: "none" — these take no body, and a stray Content-Type must not turn into a parse error.
  return new Elysia({ prefix: "/user/export" })
    .use(authPlugin(deps, kit))
    .post("", ({ auth }) => respond(auth.user.id, "json"), { access: { scope: "ideas:read" }, parse: "none", response: responses({ 200: ExportDocument, ...AUTH_ERRORS }) })
    .post("/csv", ({ auth }) => respond(auth.user.id, "csv"), { access: { scope: "ideas:read" }, parse: "none", response: responses({ 200: CsvExport, ...AUTH_ERRORS }) })
    .post("/markdown", ({ auth }) => respond(auth.user.id, "markdown"), { access: { scope: "ideas:read" }, parse: "none", response: responses({ 200: MarkdownExport, ...AUTH_ERRORS }) });
}
