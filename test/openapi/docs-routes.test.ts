// Every route README.md and docs/ name ("GET /ideas/:id", "`POST /api/v1/user/import`") is one the served OpenAPI
// document describes (it covers every /api/v1 route: openapi.test.ts), or one of the app's routes outside /api/v1;
// and every path of that document is named in them.
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeApp } from "../helpers";
import { ROOT } from "../cli";

const t = makeApp();
afterAll(() => t.close());

// Routes of other services that the docs quote as such (the payment provider's API, the Memos app's export).
const OUTSIDE = new Set(["GET /v1/subscriptions/:id", "GET /api/v1/memos"]);
// Not under /api/v1: the OAuth and MCP endpoints, the metrics scrape.
const ROOTED = /^\/(mcp|\.well-known|metrics)\b/;

type Route = { method: string; segments: string[] };

function served(): Promise<Route[]> {
  return t.handle(new Request("http://127.0.0.1/api/v1/openapi.json")).then(async (res) => {
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    const routes: Route[] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const method of Object.keys(ops)) routes.push({ method: method.toUpperCase(), segments: path.split("/") });
    // The routes outside /api/v1, as the app registers them.
    for (const r of (t.app as unknown as { routes: { method: string; path: string }[] }).routes)
      if (ROOTED.test(r.path)) routes.push({ method: r.method, segments: r.path.replace(/\/$/, "").split("/") });
    return routes;
  });
}

/** A documented segment matches itself, any parameter (`:id`, `{id}`, `<id>`) matches one, and a route's parameter takes a concrete value. */
function matches(route: Route, method: string, segments: string[]): boolean {
  if ((route.method !== method && route.method !== "ALL") || route.segments.length !== segments.length) return false;
  const param = (s: string) => /^(:\w+|\{\w+\}|<\w+>)$/.test(s);
  return route.segments.every((s, i) => s === segments[i] || param(s));
}

describe("routes named in README.md and docs/", () => {
  test("each is a route the app serves (in its OpenAPI document, or /mcp, /.well-known, /metrics)", async () => {
    const routes = await served();
    const files = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    const unknown: string[] = [];
    let seen = 0;
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const m of text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) `?(\/[\w/{}:<>.-]*)/g)) {
        const path = m[2].replace(/[.:]+$/, "");
        if (OUTSIDE.has(`${m[1]} ${path}`)) continue;
        const full = path.startsWith("/api/v1") || ROOTED.test(path) ? path : `/api/v1${path === "/" ? "" : path}`;
        seen++;
        if (!routes.some((r) => matches(r, m[1], full.replace(/\/$/, "").split("/")))) unknown.push(`${file}: ${m[1]} ${path}`);
      }
    }
    expect(seen).toBeGreaterThan(200);
    expect(unknown).toEqual([]);
  });

  test("each path of the OpenAPI document is named somewhere in README.md or docs/", async () => {
    const doc = (await (await t.handle(new Request("http://127.0.0.1/api/v1/openapi.json"))).json()) as { paths: Record<string, unknown> };
    const files = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    const text = files.map((f) => readFileSync(join(ROOT, f), "utf8")).join("\n");
    const missing = Object.keys(doc.paths).filter((path) => {
      const short = path.replace(/^\/api\/v1/, "");
      // `/ideas/:id/links`, `/ideas/{id}/links` or `/ideas/<id>/links`, not followed by more of a path.
      const pattern = short.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{\w+\\?\}|\{\w+\}/g, "(?::\\w+|\\{\\w+\\}|<\\w+>)");
      return !new RegExp(`${pattern}(?![\\w/])`).test(text);
    });
    expect(missing).toEqual([]);
  });
});
