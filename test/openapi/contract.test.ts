// The response models are the contract: every route declares its answers (response:, status by status), and what a
// route really answers carries no field and no status its model does not declare (objects read closed here).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { requiresAuth } from "../../src/modules/openapi/document";
import { validate, type Schema } from "../../scripts/fuzz/json-schema";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createVaultProcess } from "../../src/modules/vault/process";
import { createUsersService } from "../../src/modules/users/service";
import { createConversations } from "../../src/modules/agent/conversations";
import { call, makeApp, makeUser, type TestUser } from "../helpers";

const t = makeApp();
afterAll(() => t.close());

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const routes = () =>
  createApp(t.deps).app.routes.filter((r) => r.path.startsWith("/api/v1/") && METHODS.includes(r.method));
const rel = (path: string) => path.slice("/api/v1".length).replace(/(.)\/$/, "$1");

/** The statuses a route declares, from its registration (Elysia keeps `response` as given: a map of status → model). */
function declared(hooks: Record<string, unknown> | undefined): string[] {
  const response = hooks?.response;
  if (!response || typeof response !== "object") return [];
  return Object.keys(response).filter((k) => /^\d{3}$/.test(k));
}

describe("every route declares its answers", () => {
  test("each /api/v1 route has a model for its success, and for the errors of its credential and its input", () => {
    const missing: string[] = [];
    for (const r of routes()) {
      const key = `${r.method} ${rel(r.path)}`;
      const hooks = r.hooks as Record<string, unknown>;
      const statuses = new Set(declared(hooks));
      const needs = [
        // A success: a 2xx, or the 101 of a WebSocket upgrade.
        ...(statuses.size && ![...statuses].some((s) => s.startsWith("2") || s === "101") ? ["a 2xx"] : []),
        ...(requiresAuth(r) ? ["401", "403", "429"] : []),
        ...(hooks.body || hooks.query ? ["400"] : []),
      ].filter((s) => !statuses.has(s));
      const complete = statuses.size > 0 && needs.length === 0;
      if (!complete) missing.push(`${key}: declares ${[...statuses].join(", ") || "nothing"}${needs.length ? `, lacks ${needs.join(", ")}` : ""}`);
    }
    expect(missing).toEqual([]);
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

// The statuses each route declares, by "METHOD /path" (relative to /api/v1).
const declaredByRoute = new Map(routes().map((r) => [`${r.method} ${rel(r.path)}`, new Set(declared(r.hooks as Record<string, unknown>))]));

/** Problems of an answer against the model its route declares for that status; every answer read is counted. */
const checked: string[] = [];
function problems(method: string, template: string, res: { status: number; body: unknown }): string[] {
  const op = doc.paths[`/api/v1${template.replace(/:(\w+)/g, "{$1}")}`]?.[method.toLowerCase()];
  if (!op) return [`${method} ${template}: not in the document`];
  const status = String(res.status);
  const entry = op.responses[status];
  // Only the statuses the route itself declares (the document adds the transport's 413, 431 and 500 everywhere).
  const own = declaredByRoute.get(`${method} ${template}`);
  if (!entry || (own && !own.has(status))) return [`${method} ${template}: answered ${status}, which its model does not declare`];
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

  test("tags, links, relations, the map and its positions", async () => {
    const key = pro.key;
    const a = await call(t, "POST", "/ideas", { key, body: { title: "Organise A", tags: ["org"] } });
    const b = await call(t, "POST", "/ideas", { key, body: { title: "Organise B" } });
    const c = await call(t, "POST", "/ideas", { key, body: { title: "Organise C" } });
    await expectDeclared("GET", "/tags", "/tags", { key });
    const tag = await expectDeclared("POST", "/tags", "/tags", { key, body: { name: "contract-tag", color: "#123456" } });
    await expectDeclared("POST", "/tags", "/tags", { key, body: { name: "contract-tag" } });
    await expectDeclared("POST", "/tags", "/tags", { key, body: { name: "" } });
    await expectDeclared("PATCH", "/tags/:id", `/tags/${tag.body.tag.id}`, { key, body: { color: "#654321" } });
    await expectDeclared("PATCH", "/tags/:id", "/tags/999999", { key, body: { color: "#654321" } });
    await expectDeclared("GET", "/tags/similar", "/tags/similar?tag=org", { key });
    await expectDeclared("GET", "/tags/similar", "/tags/similar?tag=nowhere", { key });
    await expectDeclared("GET", "/tags/similar", "/tags/similar", { key });
    await expectDeclared("DELETE", "/tags/:id", `/tags/${tag.body.tag.id}`, { key });

    const link = await expectDeclared("POST", "/ideas/:id/links", `/ideas/${a.body.id}/links`, { key, body: { url: "https://example.com/x", link_type: "code-repo" } });
    await expectDeclared("POST", "/ideas/:id/links", `/ideas/${a.body.id}/links`, { key, body: { url: "not a url" } });
    await expectDeclared("GET", "/ideas/:id/links", `/ideas/${a.body.id}/links`, { key });
    await expectDeclared("GET", "/ideas/:id/links", "/ideas/999999/links", { key });
    await expectDeclared("DELETE", "/ideas/:id/links/:linkId", `/ideas/${a.body.id}/links/${link.body.link.id}`, { key });

    const rel = await expectDeclared("POST", "/map/relations", "/map/relations", { key, body: { source_idea_id: a.body.id, target_idea_id: b.body.id, relation_type: "blocks" } });
    await expectDeclared("POST", "/map/relations", "/map/relations", { key, body: { source_idea_id: a.body.id, target_idea_id: b.body.id, relation_type: "blocks" } });
    await expectDeclared("POST", "/map/relations", "/map/relations", {
      key,
      body: { links: [{ source_idea_id: b.body.id, target_idea_id: c.body.id, relation_type: "related" }, { source_idea_id: b.body.id, target_idea_id: 999999, relation_type: "nonsense" }] },
    });
    await expectDeclared("POST", "/map/relations", "/map/relations", { key: free.key, body: { source_idea_id: a.body.id, target_idea_id: b.body.id, relation_type: "blocks" } });
    await expectDeclared("PATCH", "/map/relations/:id", `/map/relations/${rel.body.relation.id}`, { key, body: { note: "why" } });
    await expectDeclared("PATCH", "/map/relations/:id", "/map/relations/999999", { key, body: { note: "why" } });
    await expectDeclared("GET", "/ideas/:id/relations", `/ideas/${a.body.id}/relations`, { key });
    await expectDeclared("GET", "/ideas/:id/relations", `/ideas/${b.body.id}/relations`, { key });
    await expectDeclared("GET", "/map", "/map", { key });
    await expectDeclared("DELETE", "/map/relations/:id", `/map/relations/${rel.body.relation.id}`, { key });

    await expectDeclared("PUT", "/map/positions", "/map/positions", { key, body: { positions: [{ id: a.body.id, x: 1.5, y: -2 }, { id: 999999, x: 0, y: 0 }] } });
    await expectDeclared("PUT", "/map/positions", "/map/positions", { key, body: { positions: "no" } });
    await expectDeclared("GET", "/map/positions", "/map/positions", { key });
    await expectDeclared("DELETE", "/map/positions", "/map/positions", { key });
  });

  test("versions, wikilinks, duplicates and the review queue", async () => {
    const key = pro.key;
    const target = await call(t, "POST", "/ideas", { key, body: { title: "Wiki target" } });
    const a = await call(t, "POST", "/ideas", { key, body: { title: "Versioned", body: "See [[Wiki target]] and [[Nowhere]]" } });
    await call(t, "PATCH", `/ideas/${a.body.id}`, { key, body: { body: "See [[Wiki target]] again" } });
    await expectDeclared("GET", "/ideas/:id/versions", `/ideas/${a.body.id}/versions`, { key });
    await expectDeclared("GET", "/ideas/:id/versions/:version", `/ideas/${a.body.id}/versions/1`, { key });
    await expectDeclared("GET", "/ideas/:id/versions/:version", `/ideas/${a.body.id}/versions/99`, { key });
    await expectDeclared("GET", "/ideas/:id/versions/:version", `/ideas/${a.body.id}/versions/x`, { key });
    await expectDeclared("POST", "/ideas/:id/versions/:version/restore", `/ideas/${a.body.id}/versions/1/restore`, { key });
    await expectDeclared("GET", "/ideas/:id/wikilinks", `/ideas/${a.body.id}/wikilinks`, { key });
    await expectDeclared("GET", "/ideas/:id/wikilinks", `/ideas/${target.body.id}/wikilinks`, { key });
    await expectDeclared("GET", "/ideas/:id/wikilinks", "/ideas/999999/wikilinks", { key });

    await expectDeclared("GET", "/ideas/duplicates", "/ideas/duplicates", { key });
    await expectDeclared("GET", "/ideas/duplicates", `/ideas/duplicates?idea_ids=${a.body.id}`, { key });
    await expectDeclared("GET", "/ideas/duplicates/summary", `/ideas/duplicates/summary?idea_ids=${a.body.id}`, { key });
    await expectDeclared("GET", "/ideas/duplicates/summary", "/ideas/duplicates/summary?idea_ids=x", { key });
    await expectDeclared("POST", "/ideas/duplicates/:id/dismiss", "/ideas/duplicates/999999/dismiss", { key });
    await expectDeclared("POST", "/ideas/duplicates/:id/merge", "/ideas/duplicates/999999/merge", { key });

    // A stale idea: captured and untouched past the threshold.
    t.clock.advance(40 * 86_400_000);
    await expectDeclared("GET", "/review", "/review", { key });
    await expectDeclared("GET", "/review/counts", "/review/counts", { key });
    await expectDeclared("POST", "/review/:ideaId/keep", `/review/${a.body.id}/keep`, { key });
    await expectDeclared("POST", "/review/:ideaId/keep", "/review/999999/keep", { key });
  });

  test("health, setup, the account, its keys and provider keys, develop", async () => {
    const key = pro.key;
    await expectDeclared("GET", "/health", "/health");
    await expectDeclared("GET", "/openapi.json", "/openapi.json");
    await expectDeclared("GET", "/docs", "/docs");
    await expectDeclared("GET", "/setup", "/setup");
    await expectDeclared("POST", "/setup", "/setup", { body: { setup_code: "WRONG-CODE", email: "owner@example.com", password: "a long enough password" } });
    await expectDeclared("POST", "/auth/register", "/auth/register", { body: { email: "someone@example.com", password: "a long enough password" } });
    await expectDeclared("GET", "/user/me", "/user/me", { key });
    await expectDeclared("GET", "/user/me", "/user/me", { key: free.key });
    await expectDeclared("PATCH", "/user/me", "/user/me", { key, body: { display_name: "Contract" } });
    await expectDeclared("PATCH", "/user/me", "/user/me", { key, body: { display_name: "" } });
    await expectDeclared("GET", "/user/shortcuts", "/user/shortcuts", { key });
    await expectDeclared("POST", "/user/capture-email/regenerate", "/user/capture-email/regenerate", { key });
    await expectDeclared("GET", "/user/support-link", "/user/support-link", { key });
    await expectDeclared("POST", "/user/test-digest", "/user/test-digest", { key });

    const made = await expectDeclared("POST", "/user/api-keys", "/user/api-keys", { key, body: { label: "contract" } });
    await expectDeclared("POST", "/user/api-keys", "/user/api-keys", { key, body: { label: "x".repeat(101) } });
    await expectDeclared("POST", "/user/api-keys", "/user/api-keys", { key: free.key, body: { label: "contract" } });
    await expectDeclared("GET", "/user/api-keys", "/user/api-keys", { key });
    await expectDeclared("GET", "/user/mcp-tokens", "/user/mcp-tokens", { key });
    await expectDeclared("DELETE", "/user/api-keys/:id", `/user/api-keys/${made.body.id}`, { key });
    await expectDeclared("DELETE", "/user/api-keys/:id", "/user/api-keys/nothing", { key });

    await expectDeclared("GET", "/user/byok/status", "/user/byok/status", { key });
    await expectDeclared("PUT", "/user/byok/:provider", "/user/byok/provider_a", { key, body: { api_key: "sk-contract-test-key-0123456789" } });
    await expectDeclared("PUT", "/user/byok/:provider", "/user/byok/nobody", { key, body: { api_key: "sk-contract-test-key-0123456789" } });
    await expectDeclared("GET", "/user/byok/status", "/user/byok/status", { key });
    await expectDeclared("DELETE", "/user/byok/:provider", "/user/byok/provider_a", { key });
    await expectDeclared("POST", "/user/byok/:provider/test", "/user/byok/provider_a/test", { key });

    const idea = await call(t, "POST", "/ideas", { key, body: { title: "To develop" } });
    await expectDeclared("GET", "/ideas/:id/spec", `/ideas/${idea.body.id}/spec`, { key });
    await expectDeclared("GET", "/ideas/:id/develop", `/ideas/${idea.body.id}/develop`, { key });
    await expectDeclared("GET", "/ideas/:id/develop", "/ideas/999999/develop", { key });
    await expectDeclared("POST", "/ideas/:id/develop", `/ideas/${idea.body.id}/develop`, { key });

    await expectDeclared("GET", "/user/billing", "/user/billing", { key });
    await expectDeclared("POST", "/user/billing/checkout", "/user/billing/checkout", { key });
    await expectDeclared("POST", "/user/billing/portal", "/user/billing/portal", { key });
    await expectDeclared("POST", "/billing/webhook", "/billing/webhook", { raw: "{}", headers: { "stripe-signature": "t=1,v1=00" } });

    const gone = await makeUser(t, { plan: "free" });
    await expectDeclared("DELETE", "/user", "/user", { key: gone.key, body: {} });
  });

  test("the vault: its state, choosing and refusing a folder, a first sync's progress, disconnecting", async () => {
    const key = pro.key;
    await expectDeclared("GET", "/vault", "/vault", { key });
    await expectDeclared("PUT", "/vault", "/vault", { key, body: { folder: "notes" } });
    await expectDeclared("DELETE", "/vault", "/vault", { key });
    await expectDeclared("GET", "/vault", "/vault");

    // An instance with a vaults root, read against the same document.
    const root = mkdtempSync(join(tmpdir(), "idearepo-contract-vaults-"));
    const v = makeApp({ config: { vaults_dir: root } as never });
    v.deps.clock = () => new Date();
    const sync = createVaultProcess(v.deps, { tickMs: 1e9, bindingsMs: 0, fullScanMs: 1e9, retryMs: 0 });
    try {
      const u = await makeUser(v, { plan: "pro" });
      const read = async (method: string, body?: unknown) => {
        const res = await call(v, method, "/vault", { key: u.key, body });
        expect(problems(method, "/vault", res)).toEqual([]);
        return res;
      };
      await read("PUT", { folder: "../out" });
      mkdirSync(join(root, "notes"));
      for (let i = 0; i < 300; i++) writeFileSync(join(root, "notes", `Note ${i}.md`), `Note ${i}.\n`);
      expect((await read("PUT", { folder: "notes" })).status).toBe(200);
      expect((await read("PUT", { folder: "other" })).status).toBe(409);
      const running = sync.tick();
      let progress = null;
      for (let i = 0; i < 500 && !progress; i++) {
        progress = (await read("GET")).body.progress;
        await Bun.sleep(5);
      }
      await running;
      expect(progress).not.toBeNull();
      expect((await read("GET")).body.initial_sync_at).not.toBeNull();
      await read("DELETE");
    } finally {
      await sync.stop();
      await v.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  test("search: keyword, semantic, the Free month's semantic limit, refused input", async () => {
    const key = pro.key;
    await call(t, "POST", "/ideas", { key, body: { title: "Searchable harbour lights", tags: ["sea"] } });
    const kw = await expectDeclared("GET", "/ideas/search", "/ideas/search?q=harbour&mode=keyword", { key });
    expect(kw.body.results.length).toBeGreaterThan(0);
    await expectDeclared("GET", "/ideas/search", "/ideas/search?q=harbour", { key });
    await expectDeclared("GET", "/ideas/search", "/ideas/search?q=harbour&mode=nonsense", { key });
    await expectDeclared("GET", "/ideas/search", "/ideas/search", { key });
    const user = await makeUser(t, { plan: "free" });
    for (let i = 0; i < 10; i++) await call(t, "GET", "/ideas/search?q=lights", { key: user.key });
    const limited = await expectDeclared("GET", "/ideas/search", "/ideas/search?q=lights", { key: user.key });
    expect(limited.body.semantic_limit_reached).toBe(true);
  });

  test("sign-in, the session, sign-out and an accepted invitation", async () => {
    const person = await makeUser(t, { plan: "free", password: "a long enough password" });
    const signed = await expectDeclared("POST", "/auth/login", "/auth/login", { body: { email: person.email, password: "a long enough password" } });
    expect(signed.status).toBe(200);
    await expectDeclared("POST", "/auth/login", "/auth/login", { body: { email: person.email, password: "wrong password" } });
    await expectDeclared("POST", "/auth/login", "/auth/login", { body: { email: "nobody" } });
    const bearer = { authorization: `Bearer ${signed.body.token}` };
    const who = await expectDeclared("GET", "/auth/session", "/auth/session", { headers: bearer });
    expect(who.body.user.email).toBe(person.email);
    await expectDeclared("GET", "/auth/session", "/auth/session");
    await expectDeclared("POST", "/auth/logout", "/auth/logout", { headers: bearer });
    await expectDeclared("POST", "/auth/logout", "/auth/logout", { headers: bearer });

    const operator = await createUsersService(t.deps).createUser({ email: "contract-operator@example.com", plan: "pro", operator: true });
    const invited = await call(t, "POST", "/admin/users", { key: operator.api_key, body: { email: "invited@example.com" } });
    const token = invited.body.invitation.token;
    await expectDeclared("POST", "/auth/accept-invitation", "/auth/accept-invitation", { body: { token: "0".repeat(64), password: "a long enough password" } });
    const accepted = await expectDeclared("POST", "/auth/accept-invitation", "/auth/accept-invitation", { body: { token, password: "a long enough password" } });
    expect(accepted.status).toBe(200);
  });

  test("the operator's routes: accounts, invitations, history, the instance, the backup; anyone else's 404", async () => {
    const op = (await createUsersService(t.deps).createUser({ email: "contract-admin@example.com", plan: "pro", operator: true })).api_key;
    await expectDeclared("GET", "/admin/users", "/admin/users", { key: op });
    await expectDeclared("GET", "/admin/users", "/admin/users", { key: pro.key });
    await expectDeclared("GET", "/admin/users", "/admin/users");
    const invited = await expectDeclared("POST", "/admin/users", "/admin/users", { key: op, body: { email: "contract-invited@example.com", display_name: "Invited" } });
    expect(invited.body.invitation.token).toBeString();
    const made = await expectDeclared("POST", "/admin/users", "/admin/users", { key: op, body: { email: "contract-made@example.com", password: "a long enough password", plan: "pro" } });
    await expectDeclared("POST", "/admin/users", "/admin/users", { key: op, body: { email: "not an address" } });
    const id = made.body.user.id;
    await expectDeclared("PATCH", "/admin/users/:id", `/admin/users/${id}`, { key: op, body: { plan: "free" } });
    await expectDeclared("PATCH", "/admin/users/:id", `/admin/users/${id}`, { key: op, body: { trial_days: 7 } });
    await expectDeclared("PATCH", "/admin/users/:id", `/admin/users/${id}`, { key: op, body: { plan: "pro", trial_days: 7 } });
    await expectDeclared("PATCH", "/admin/users/:id", "/admin/users/nobody", { key: op, body: { disabled: true } });
    await expectDeclared("GET", "/admin/users/:id/history", `/admin/users/${id}/history`, { key: op });
    await expectDeclared("GET", "/admin/users/:id/history", "/admin/users/nobody/history", { key: op });
    await expectDeclared("GET", "/admin/instance", "/admin/instance", { key: op });
    const backup = await expectDeclared("GET", "/admin/backup", "/admin/backup", { key: op });
    expect([200, 501]).toContain(backup.status);
    await expectDeclared("DELETE", "/admin/users/:id", `/admin/users/${id}`, { key: op });
    await expectDeclared("DELETE", "/admin/users/:id", `/admin/users/${id}`, { key: op });
  });

  test("the agent: the socket's refusals, conversations listed, shown with every kind of message, deleted", async () => {
    const key = pro.key;
    await expectDeclared("GET", "/agent/ws", "/agent/ws", { key });
    await expectDeclared("GET", "/agent/ws", "/agent/ws", { key: free.key });
    await expectDeclared("GET", "/agent/ws", "/agent/ws");
    // A kept conversation as a turn leaves it: the question, an answer round calling a tool, the tool's result, the answer.
    const idea = await call(t, "POST", "/ideas", { key, body: { title: "Cited by the agent" } });
    const conversations = createConversations(t.deps);
    const row = await conversations.openOrCreate(pro.id, undefined, "What do I have on lights?");
    await conversations.append(row.id, { role: "user", text: "What do I have on lights?", idea_id: idea.body.id });
    const meta = { usage: { input_tokens: 12, output_tokens: 3 }, provider: "provider_a", model: "claude-fake-1" };
    await conversations.append(row.id, { role: "assistant", text: "", calls: [{ id: "call-1", name: "search_ideas", input: { q: "lights" } }] }, meta);
    await conversations.append(row.id, { role: "tool", results: [{ call_id: "call-1", name: "search_ideas", content: "[]", is_error: false, status: "done" }] });
    await conversations.append(row.id, { role: "assistant", text: `See #${idea.body.number}.`, calls: [], cancelled: true }, meta);

    const list = await expectDeclared("GET", "/agent/conversations", "/agent/conversations?limit=1", { key });
    expect(list.body.conversations[0].message_count).toBe(4);
    const view = await expectDeclared("GET", "/agent/conversations/:id", `/agent/conversations/${row.id}`, { key });
    expect(view.body.conversation.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(view.body.conversation.cited).toHaveLength(1);
    await expectDeclared("GET", "/agent/conversations/:id", `/agent/conversations/${row.id}`, { key: free.key });
    await expectDeclared("DELETE", "/agent/conversations/:id", `/agent/conversations/${row.id}`, { key });
    await expectDeclared("DELETE", "/agent/conversations/:id", `/agent/conversations/${row.id}`, { key });
  });

  test("export as JSON (ideas, tags, links, relations, versions, conversations), CSV and Markdown; import of each report", async () => {
    const owner = await makeUser(t, { plan: "pro" });
    const key = owner.key;
    const a = await call(t, "POST", "/ideas", { key, body: { title: "Exported A", body: "first", tags: ["x"], source_url: "https://example.com/a" } });
    const b = await call(t, "POST", "/ideas", { key, body: { title: "Exported B" } });
    await call(t, "PATCH", `/ideas/${a.body.id}`, { key, body: { body: "second" } });
    await call(t, "POST", `/ideas/${a.body.id}/links`, { key, body: { url: "https://example.com/l" } });
    await call(t, "POST", "/map/relations", { key, body: { source_idea_id: a.body.id, target_idea_id: b.body.id, relation_type: "inspires" } });
    const conversations = createConversations(t.deps);
    const row = await conversations.openOrCreate(owner.id, undefined, "Exported question");
    await conversations.append(row.id, { role: "user", text: "Exported question" });
    await conversations.append(row.id, { role: "assistant", text: "An answer.", calls: [] }, { usage: { input_tokens: 1, output_tokens: 1 }, provider: "provider_a", model: "m" });

    const json = await expectDeclared("POST", "/user/export", "/user/export", { key });
    expect(json.body.ideas[0].versions.length).toBe(2);
    expect(json.body.agent_conversations).toHaveLength(1);
    await expectDeclared("POST", "/user/export", "/user/export");
    expect((await expectDeclared("POST", "/user/export/csv", "/user/export/csv", { key })).status).toBe(200);
    expect((await expectDeclared("POST", "/user/export/markdown", "/user/export/markdown", { key })).status).toBe(200);

    const other = await makeUser(t, { plan: "pro" });
    await expectDeclared("POST", "/user/import", "/user/import?dry_run=true", { key: other.key, raw: json.text });
    expect((await expectDeclared("POST", "/user/import", "/user/import", { key: other.key, raw: json.text })).status).toBe(201);
    const note = { key: other.key, raw: "# A note\n\nFrom elsewhere, see [[Another]].", headers: { "content-type": "text/markdown" } };
    const dry = await expectDeclared("POST", "/user/import", "/user/import?from=markdown&name=note.md&dry_run=true", note);
    expect(dry.body.notes).toHaveLength(1);
    expect((await expectDeclared("POST", "/user/import", "/user/import?from=markdown&name=note.md", note)).body.imported.created).toBe(1);
    await expectDeclared("POST", "/user/import", "/user/import?from=nowhere", note);
    await expectDeclared("POST", "/user/import", "/user/import?dry_run=maybe", note);
    const capped = await makeUser(t, { plan: "free" });
    for (let i = 0; i < 50; i++) await call(t, "POST", "/ideas", { key: capped.key, body: { title: `Capped ${i}` } });
    expect((await expectDeclared("POST", "/user/import", "/user/import", { key: capped.key, raw: json.text })).status).toBe(403);
  });

  test("answers of every status were read", () => {
    const statuses = new Set(checked.map((c) => c.split(" ").at(-1)));
    for (const s of ["200", "201", "400", "401", "403", "404", "409"]) expect(statuses.has(s)).toBe(true);
  });
});
