// The response models are the contract: every route declares its answers (response:, status by status), and what a
// route really answers carries no field and no status its model does not declare (objects read closed here).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { validate, type Schema } from "../../scripts/fuzz/json-schema";
import { call, makeApp, makeUser, type TestUser } from "../helpers";

const t = makeApp();
afterAll(() => t.close());

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const routes = () =>
  createApp(t.deps).app.routes.filter((r) => r.path.startsWith("/api/v1/") && METHODS.includes(r.method));
const rel = (path: string) => path.slice("/api/v1".length).replace(/(.)\/$/, "$1");

// Routes whose module has not declared its answers yet: this list only shrinks (issue 39).
const PENDING = new Set<string>([
  "GET /health", "GET /setup", "POST /setup", "POST /auth/register", "POST /auth/login", "POST /auth/logout", "GET /auth/session",
  "GET /user/me", "PATCH /user/me", "DELETE /user", "GET /user/shortcuts", "GET /user/api-keys", "POST /user/api-keys",
  "DELETE /user/api-keys/:id", "GET /user/mcp-tokens", "GET /user/support-link", "GET /openapi.json", "GET /docs",
  "GET /user/byok/status", "PUT /user/byok/:provider", "DELETE /user/byok/:provider", "POST /user/byok/:provider/test",
  "POST /ideas/:id/develop", "GET /ideas/:id/develop", "GET /ideas/:id/spec", "POST /user/test-digest", "GET /agent/ws",
  "GET /agent/conversations", "GET /agent/conversations/:id", "DELETE /agent/conversations/:id", "GET /user/billing",
  "POST /user/billing/checkout", "POST /user/billing/portal", "POST /billing/webhook", "GET /ideas/:id/relations",
  "POST /map/relations", "PATCH /map/relations/:id", "DELETE /map/relations/:id", "GET /ideas/search", "GET /map",
  "GET /map/positions", "PUT /map/positions", "DELETE /map/positions", "POST /user/export", "POST /user/export/csv",
  "POST /user/export/markdown", "GET /tags", "GET /tags/similar", "POST /tags", "PATCH /tags/:id", "DELETE /tags/:id",
  "GET /ideas/:id/links", "POST /ideas/:id/links", "DELETE /ideas/:id/links/:linkId", "GET /ideas/:id/versions",
  "GET /ideas/:id/versions/:version", "POST /ideas/:id/versions/:version/restore", "GET /ideas/:id/wikilinks", "GET /review",
  "GET /review/counts", "POST /review/:ideaId/keep", "GET /ideas/duplicates", "GET /ideas/duplicates/summary",
  "POST /ideas/duplicates/:id/dismiss", "POST /ideas/duplicates/:id/merge", "POST /user/import", "GET /admin/users",
  "POST /admin/users", "PATCH /admin/users/:id", "DELETE /admin/users/:id", "GET /admin/users/:id/history",
  "GET /admin/instance", "GET /admin/backup", "POST /auth/accept-invitation", "POST /user/capture-email/regenerate",
]);

/** The statuses a route declares, from its registration (Elysia keeps `response` as given: a map of status → model). */
function declared(hooks: Record<string, unknown> | undefined): string[] {
  const response = hooks?.response;
  if (!response || typeof response !== "object") return [];
  return Object.keys(response).filter((k) => /^\d{3}$/.test(k));
}

describe("every route declares its answers", () => {
  test("each /api/v1 route has a model for its success and for the errors it answers", () => {
    const missing: string[] = [];
    const stale: string[] = [];
    for (const r of routes()) {
      const key = `${r.method} ${rel(r.path)}`;
      const statuses = declared(r.hooks as Record<string, unknown>);
      const complete = statuses.some((s) => s.startsWith("2")) && statuses.some((s) => s.startsWith("4"));
      if (PENDING.has(key)) {
        if (complete) stale.push(key);
      } else if (!complete) missing.push(`${key}: declares ${statuses.join(", ") || "nothing"}`);
    }
    expect(missing).toEqual([]);
    // A route that now declares its answers leaves the pending list.
    expect(stale).toEqual([]);
  });
});

// ——— What routes really answer, against the document made from their models (closed objects). ———

let doc: Schema;
let pro: TestUser;
let free: TestUser;
beforeAll(async () => {
  doc = (await call(t, "GET", "/openapi.json")).body;
  pro = await makeUser(t, { plan: "pro" });
  free = await makeUser(t, { plan: "free" });
});

// Statuses the document adds for every route: answered by the transport before any route code runs.
const TRANSPORT = new Set(["413", "431", "500"]);

/** Problems of an answer against the model its route declares for that status; every answer read is counted. */
const checked: string[] = [];
function problems(method: string, template: string, res: { status: number; body: unknown }): string[] {
  const op = doc.paths[`/api/v1${template.replace(/:(\w+)/g, "{$1}")}`]?.[method.toLowerCase()];
  if (!op) return [`${method} ${template}: not in the document`];
  const status = String(res.status);
  const entry = op.responses[status];
  if (!entry || TRANSPORT.has(status)) return [`${method} ${template}: answered ${status}, which its model does not declare`];
  const schema = entry.content?.["application/json"]?.schema;
  checked.push(`${method} ${template} ${status}`);
  return validate(schema, res.body, doc, "$", true).map((p) => `${method} ${template} ${status}: ${p}`);
}

async function expectDeclared(method: string, template: string, path: string, opts: Parameters<typeof call>[3] = {}) {
  const res = await call(t, method, path, opts);
  expect(problems(method, template, res)).toEqual([]);
  return res;
}

describe("answers carry only what their models declare", () => {
  test("the check finds a field a model does not declare, a wrong type and an undeclared status", async () => {
    const res = await call(t, "GET", "/ideas", { key: pro.key });
    expect(problems("GET", "/ideas", { status: 200, body: { ...res.body, page: 1 } })).toEqual(["GET /ideas 200: $.page: not declared"]);
    expect(problems("GET", "/ideas", { status: 200, body: { ideas: [{ id: "1" }], has_more: false } }).length).toBeGreaterThan(1);
    expect(problems("GET", "/ideas", { status: 418, body: {} })).toEqual(["GET /ideas: answered 418, which its model does not declare"]);
  });

  test("/ideas: list (kept JSON entries), capture, detail with links and relations, update, bulk, merge, archive", async () => {
    const key = pro.key;
    const a = await expectDeclared("POST", "/ideas", "/ideas", { key, body: { title: "Contract A", body: "first", tags: ["b", "a"], source_url: "https://example.com/a" } });
    expect(a.status).toBe(201);
    const b = await expectDeclared("POST", "/ideas", "/ideas", { key, body: { title: "Contract B" } });
    await call(t, "POST", `/ideas/${a.body.id}/links`, { key, body: { url: "https://example.com/l", title: "L" } });
    await call(t, "POST", "/map/relations", { key, body: { source_idea_id: a.body.id, target_idea_id: b.body.id, relation_type: "inspires", note: "n" } });

    const list = await expectDeclared("GET", "/ideas", "/ideas", { key });
    expect(list.body.ideas.length).toBe(2);
    await expectDeclared("GET", "/ideas", "/ideas?status=captured&limit=1", { key });
    await expectDeclared("GET", "/ideas", "/ideas?status=nonsense", { key });
    await expectDeclared("GET", "/ideas", "/ideas");

    const detail = await expectDeclared("GET", "/ideas/:id", `/ideas/${a.body.id}`, { key });
    expect(detail.body.links.length).toBe(1);
    expect(detail.body.relations.length).toBe(1);
    await expectDeclared("GET", "/ideas/:id", "/ideas/999999", { key });
    await expectDeclared("GET", "/ideas/:id", "/ideas/abc", { key });

    await expectDeclared("PATCH", "/ideas/:id", `/ideas/${a.body.id}`, { key, body: { status: "exploring", tags: ["c"] } });
    await expectDeclared("PATCH", "/ideas/:id", `/ideas/${a.body.id}`, { key, body: { status: "nonsense" } });
    await expectDeclared("PATCH", "/ideas/bulk", "/ideas/bulk", { key, body: { ids: [a.body.id, 999999], add_tags: ["d"] } });
    await expectDeclared("PATCH", "/ideas/bulk", "/ideas/bulk", { key, body: { ids: [] } });
    const c = await call(t, "POST", "/ideas", { key, body: { title: "Contract C" } });
    await expectDeclared("POST", "/ideas/:id/merge", `/ideas/${a.body.id}/merge`, { key, body: { absorb_id: c.body.id } });
    await expectDeclared("POST", "/ideas/:id/merge", `/ideas/${a.body.id}/merge`, { key, body: { absorb_id: a.body.id } });
    await expectDeclared("DELETE", "/ideas/:id", `/ideas/${b.body.id}`, { key });
    await expectDeclared("DELETE", "/ideas/:id", "/ideas/999999", { key });
  });

  test("/ideas: the Free plan's cap answers the plan-gate body", async () => {
    for (let i = 0; i < 50; i++) await call(t, "POST", "/ideas", { key: free.key, body: { title: `Free ${i}` } });
    const capped = await expectDeclared("POST", "/ideas", "/ideas", { key: free.key, body: { title: "One too many" } });
    expect(capped.status).toBe(403);
  });

  test("answers of every status were read", () => {
    const statuses = new Set(checked.map((c) => c.split(" ").at(-1)));
    for (const s of ["200", "201", "400", "401", "403", "404"]) expect(statuses.has(s)).toBe(true);
  });
});
