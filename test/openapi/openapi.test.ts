// GET /openapi.json and /docs: a valid OpenAPI 3.1 document of every registered /api/v1 route, public, offline page.
import { afterAll, describe, expect, test } from "bun:test";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createApp } from "../../src/app";
import { call, makeApp, makeUser } from "../helpers";

const t = makeApp();
afterAll(() => t.close());

const registered = () =>
  createApp(t.deps)
    .app.routes.filter((r) => r.path.startsWith("/api/v1/") && ["GET", "POST", "PUT", "PATCH", "DELETE"].includes(r.method))
    .map((r) => ({ method: r.method.toLowerCase(), path: r.path.replace(/(.)\/$/, "$1").replace(/:(\w+)/g, "{$1}") }));

async function getDoc() {
  const res = await call(t, "GET", "/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  return res.body;
}

describe("GET /openapi.json", () => {
  test("is public and a valid OpenAPI 3.1 document", async () => {
    const doc = await getDoc();
    expect(doc.openapi).toBe("3.1.0");
    // validate() dereferences in place, so give it a copy.
    await SwaggerParser.validate(structuredClone(doc));
  });

  test("describes every route the server registers, and nothing else", async () => {
    const doc = await getDoc();
    const routes = registered();
    expect(routes.length).toBeGreaterThan(10);
    for (const r of routes) expect(doc.paths[r.path]?.[r.method], `${r.method} ${r.path}`).toBeDefined();
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  test("security matches what each route really does without a credential", async () => {
    const doc = await getDoc();
    for (const [path, ops] of Object.entries<Record<string, { security: unknown[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const url = path.replace("/api/v1", "").replace(/\{\w+\}/g, "1");
        const res = await call(t, method.toUpperCase(), url, method === "get" ? {} : { body: {} });
        if (op.security.length > 0) expect(res.status, `${method} ${path}`).toBe(401);
        else expect(res.status, `${method} ${path}`).not.toBe(401);
      }
    }
  });

  test("schemas come from the routes' TypeBox definitions", async () => {
    const doc = await getDoc();
    const create = doc.paths["/api/v1/user/api-keys"].post;
    expect(create.requestBody.content["application/json"].schema.properties.label).toMatchObject({ type: "string", maxLength: 100 });
    expect(create.summary).toBe("Create an API key (Pro)");
    expect(create.responses["201"]).toBeDefined();
    expect(create.security.length).toBeGreaterThan(0);
    expect(doc.paths["/api/v1/health"].get.security).toEqual([]);
    // Path parameters are always declared, whether or not the route gave them a schema.
    const del = doc.paths["/api/v1/user/api-keys/{id}"].delete;
    expect(del.parameters).toContainEqual(expect.objectContaining({ name: "id", in: "path", required: true }));
    // No Elysia-only keywords leak into the document.
    expect(JSON.stringify(doc)).not.toMatch(/"(elysiaMeta|nullable)"|"type":"(Date|undefined)"/);
  });

  test("a query parameter is documented required exactly when the route refuses a request without it", async () => {
    const doc = await getDoc();
    const u = await makeUser(t, { plan: "pro" });
    const wrong: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries<Record<string, { parameters?: { name: string; in: string; required: boolean }[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const query = (op.parameters ?? []).filter((p) => p.in === "query");
        if (!query.length) continue;
        // No query string at all, an authorised Pro caller: a 400 names each missing parameter it requires, either as a
        // field of the error object or in the error's message (`Missing "tag" query parameter`).
        const url = path.replace("/api/v1", "").replace(/\{\w+\}/g, "1");
        const res = await call(t, method.toUpperCase(), url, { key: u.key, ...(method === "get" || method === "delete" ? {} : { body: {} }) });
        const error = res.status === 400 ? res.body?.error : undefined;
        const refusedFor = (name: string) =>
          error !== undefined && (typeof error === "string" ? new RegExp(`\\b${name}\\b`).test(error) : Object.hasOwn(error, name));
        for (const p of query) {
          checked++;
          if (p.required !== refusedFor(p.name)) wrong.push(`${method.toUpperCase()} ${path} ?${p.name}: documented ${p.required ? "required" : "optional"}, without it ${res.status} ${res.text}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(15);
    expect(wrong).toEqual([]);
  });

  test("a credential changes nothing: the same document for everyone", async () => {
    const u = await makeUser(t);
    const anon = await call(t, "GET", "/openapi.json");
    const authed = await call(t, "GET", "/openapi.json", { key: u.key });
    expect(authed.text).toBe(anon.text);
  });
});

describe("GET /docs", () => {
  test("renders a self-contained HTML reference listing every operation", async () => {
    const doc = await getDoc();
    const res = await call(t, "GET", "/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    for (const [path, ops] of Object.entries<Record<string, { operationId: string }>>(doc.paths)) {
      expect(res.text).toContain(`<code>${path}</code>`);
      for (const op of Object.values(ops)) expect(res.text).toContain(`id="${op.operationId}"`);
    }
    // Offline: no script, stylesheet or image fetched from anywhere.
    expect(res.text).not.toMatch(/<script|<link[^>]+href=|src=|https?:\/\/(?!idearepo\.local)/i);
    expect(res.text).toContain("label?: string (≤ 100)");
  });
});
