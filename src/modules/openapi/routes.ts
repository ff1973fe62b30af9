// GET /openapi.json and GET /docs: the API described from the live route table; public, like /health.
//
// A function plugin on purpose: it receives the /api/v1 instance itself, so it can read that instance's route table
// (`app.routes`) at request time and every module registered after it is described too.
import type { AnyElysia } from "elysia";
import { createHash } from "node:crypto";
import pkg from "../../../package.json" with { type: "json" };
import { CONTENT_SECURITY_POLICY, PAGE_HEADERS } from "../../http/security-headers";
import { buildOpenApiDocument } from "./document";
import { renderDocsPage } from "./docs-page";
import { responses } from "../../http/responses";
import { OpenApiDocument, ReferencePage } from "../../contract/responses";

export function openapiRoutes() {
  return <App extends AnyElysia>(api: App) => {
    // Routes are fixed once the app is assembled; rebuild only if the table grew (tests add nothing later either).
    let cached: { count: number; json: string; html: string } | null = null;
    const current = () => {
      const routes = api.routes;
      if (cached?.count !== routes.length) {
        const doc = buildOpenApiDocument(routes, { version: pkg.version });
        cached = { count: routes.length, json: JSON.stringify(doc), html: renderDocsPage(doc) };
      }
      return cached;
    };
    return api
      .get("/openapi.json", () => new Response(current().json, { headers: { "content-type": "application/json" } }), { response: responses({ 200: OpenApiDocument }) })
      .get("/docs", () => new Response(current().html, { headers: { ...docsPageHeaders(current().html), "content-type": "text/html; charset=utf-8" } }), {
        response: responses({ 200: ReferencePage }),
      });
  };
}

/**
 * The web app's page headers for the reference page too (it had none: no CSP, framable). Its one inline <style> block
 * is allowed by hash, so the policy stays as strict as the app's: no inline script, nothing from another origin.
 */
function docsPageHeaders(html: string): Record<string, string> {
  const style = html.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? "";
  const hash = createHash("sha256").update(style).digest("base64");
  return { ...PAGE_HEADERS, "content-security-policy": CONTENT_SECURITY_POLICY.replace("style-src 'self'", `style-src 'self' 'sha256-${hash}'`) };
}
