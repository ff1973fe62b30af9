// Every 400 names the real problem (docs/auth.md, "Validation messages"): for routes with string, number and enum
// fields, each kind of wrong value (missing, null, wrong type, too long, too short, out of range, not allowed) gets a
// message of its own kind, never the text written for another; an undecodable path segment gets the route's message.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { createUsersService } from "../../src/modules/users/service";

const t = makeApp();
afterAll(() => t.close());

type Case = [what: string, body: Record<string, unknown>, field: string, message: string];

async function expectMessages(method: string, path: string, key: string | undefined, cases: Case[]) {
  for (const [what, body, field, message] of cases) {
    const r = await call(t, method, path, { key, body });
    // The label says which case failed; the whole body shows what was answered instead.
    expect({ case: `${method} ${path}: ${what}`, status: r.status, body: r.body }).toEqual({
      case: `${method} ${path}: ${what}`,
      status: 400,
      body: { error: expect.objectContaining({ [field]: [message] }) },
    });
  }
}

describe("each kind of wrong value gets a message of its kind", () => {
  test("POST /user/api-keys: label", async () => {
    const u = await makeUser(t, { plan: "pro" });
    await expectMessages("POST", "/user/api-keys", u.key, [
      ["null", { label: null }, "label", "label must be a string"],
      ["a number", { label: 5 }, "label", "label must be a string"],
      ["an array", { label: ["x"] }, "label", "label must be a string"],
      ["too long", { label: "x".repeat(101) }, "label", "label must be at most 100 characters"],
    ]);
  });

  test("POST /auth/login: email and password", async () => {
    const email = "someone@example.com";
    await expectMessages("POST", "/auth/login", undefined, [
      ["password missing", { email }, "password", "password is required"],
      ["password empty", { email, password: "" }, "password", "password is required"],
      ["password too long", { email, password: "x".repeat(1025) }, "password", "password must be at most 1024 characters"],
      ["password a number", { email, password: 12345678 }, "password", "password must be a string"],
      ["password null", { email, password: null }, "password", "password must be a string"],
      ["email missing", { password: "secret-password" }, "email", "email is required"],
      ["email too long", { email: `${"x".repeat(320)}@example.com`, password: "secret-password" }, "email", "email must be at most 320 characters"],
      ["email a number", { email: 42, password: "secret-password" }, "email", "email must be a string"],
    ]);
  });

  test("PATCH /user/me: display_name keeps its own range text; a wrong type says so", async () => {
    const u = await makeUser(t);
    await expectMessages("PATCH", "/user/me", u.key, [
      ["too long", { display_name: "x".repeat(101) }, "display_name", "display_name must be 1-100 characters"],
      ["empty", { display_name: "" }, "display_name", "display_name must be 1-100 characters"],
      ["null", { display_name: null }, "display_name", "display_name must be a string"],
      ["a boolean", { display_name: true }, "display_name", "display_name must be a string"],
      ["settings_json a number", { settings_json: 1 }, "settings_json", "settings_json must be a string"],
    ]);
  });

  test("POST /ideas: title, status (enum), parent_id (number)", async () => {
    const u = await makeUser(t);
    await expectMessages("POST", "/ideas", u.key, [
      ["title missing", {}, "title", "title is required"],
      ["title null", { title: null }, "title", "title must be a string"],
      ["title a number", { title: 7 }, "title", "title must be a string"],
      ["title too long", { title: "x".repeat(201) }, "title", "title must be at most 200 characters"],
      ["title empty", { title: "" }, "title", "title must not be empty"],
      ["status not allowed", { title: "a", status: "done" }, "status", "status must be one of captured, exploring, building, shipped, shelved"],
      ["status a number", { title: "a", status: 3 }, "status", "status must be one of captured, exploring, building, shipped, shelved"],
      ["parent_id a string", { title: "a", parent_id: "x" }, "parent_id", "parent_id must be an integer or null"],
      ["parent_id beyond 2^53", { title: "a", parent_id: 2 ** 60 }, "parent_id", "parent_id must be at most 9007199254740991"],
    ]);
  });

  test("operator routes: an enum, a number range, a password's length both ways", async () => {
    const op = await createUsersService(t.deps).createUser({ email: `op-${Date.now()}@example.com`, plan: "pro", operator: true });
    const target = await makeUser(t);
    await expectMessages("PATCH", `/admin/users/${target.id}`, op.api_key, [
      ["plan not allowed", { plan: "gold" }, "plan", "plan must be one of: free, pro"],
      ["plan null", { plan: null }, "plan", "plan must be one of: free, pro"],
      ["trial_days out of range", { trial_days: 366 }, "trial_days", "trial_days must be a whole number from 1 to 365"],
      ["trial_days below range", { trial_days: 0 }, "trial_days", "trial_days must be a whole number from 1 to 365"],
      ["disabled a string", { disabled: "yes" }, "disabled", "disabled must be a boolean"],
      ["password too short", { password: "short" }, "password", "password must be at least 8 characters"],
      ["password too long", { password: "x".repeat(1025) }, "password", "password must be at most 1024 characters"],
      ["password a number", { password: 123456789 }, "password", "password must be a string"],
    ]);
    await expectMessages("POST", "/admin/users", op.api_key, [
      ["email missing", {}, "email", "email is required"],
      ["email not an address", { email: "nobody" }, "email", "email must be an e-mail address"],
      ["email null", { email: null }, "email", "email must be a string"],
    ]);
  });

  test("tags, BYOK keys and bulk ids: a colour's format, a key's null and length, an empty list", async () => {
    const u = await makeUser(t, { plan: "pro" });
    await expectMessages("POST", "/tags", u.key, [
      ["name null", { name: null }, "name", "name must be a string"],
      ["name too long", { name: "x".repeat(51) }, "name", "name must be at most 50 characters"],
      ["color not #rrggbb", { name: "x", color: "red" }, "color", "color must be #rrggbb or null"],
      ["color a number", { name: "x", color: 5 }, "color", "color must be a string or null"],
    ]);
    await expectMessages("PUT", "/user/byok/provider_a", u.key, [
      ["api_key missing", {}, "api_key", "api_key is required"],
      ["api_key null", { api_key: null }, "api_key", "api_key must be a string"],
      ["api_key a number", { api_key: 12345678901 }, "api_key", "api_key must be a string"],
      ["api_key too short", { api_key: "short" }, "api_key", "api_key must be at least 10 characters"],
    ]);
    await expectMessages("PATCH", "/ideas/bulk", u.key, [
      ["ids empty", { ids: [], status: "shipped" }, "ids", "ids must not be empty"],
      ["ids null", { ids: null, status: "shipped" }, "ids", "ids must be an array"],
      ["ids of strings", { ids: [1, "a"], status: "shipped" }, "ids", "ids[1] must be an idea id (an integer)"],
    ]);
  });

  test("PUT /map/positions: a coordinate out of range inside the list keeps its own text, with the item's place; the list missing is required", async () => {
    const u = await makeUser(t);
    await expectMessages("PUT", "/map/positions", u.key, [
      ["x out of range", { positions: [{ id: 1, x: 0, y: 0 }, { id: 2, x: 2e9, y: 0 }] }, "positions", "positions[1].x must be a number between -1000000000 and 1000000000"],
      ["positions missing", {}, "positions", "positions is required"],
    ]);
  });

  test("a wrong item of a list is named by its place, under the list's name (the spec's shape)", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await call(t, "POST", "/ideas", { key: u.key, body: { title: "x", tags: ["ok", 5, "x".repeat(60)] } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { tags: ["tags[1] must be a string", "tags[2] must be at most 50 characters"] } });
    await expectMessages("POST", "/map/relations", u.key, [
      ["a bulk link's type not a string", { links: [{ source_idea_id: 1, target_idea_id: 2 }, { source_idea_id: 1, target_idea_id: 2, relation_type: 5 }] }, "links", "links[1].relation_type must be one of related, parent, blocks, inspires, supersedes"],
    ]);
  });

  test("relation_type is worded the same on POST and PATCH /map/relations, whatever was sent", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const idea = async (title: string) => (await call(t, "POST", "/ideas", { key: u.key, body: { title } })).body.id as number;
    const [a, b] = [await idea("A"), await idea("B")];
    const made = await call(t, "POST", "/map/relations", { key: u.key, body: { source_idea_id: a, target_idea_id: b } });
    expect(made.status, made.text).toBe(201);
    const words = "relation_type must be one of related, parent, blocks, inspires, supersedes";
    for (const sent of ["bogus", "duplicate", 5, null]) {
      const post = await call(t, "POST", "/map/relations", { key: u.key, body: { source_idea_id: a, target_idea_id: b, relation_type: sent } });
      const patch = await call(t, "PATCH", `/map/relations/${made.body.relation.id}`, { key: u.key, body: { relation_type: sent } });
      expect([post.status, post.body], String(sent)).toEqual([400, { error: { relation_type: [words] } }]);
      expect([patch.status, patch.body], String(sent)).toEqual([400, { error: { relation_type: [words] } }]);
    }
  });
});

describe("a path segment that does not decode", () => {
  test("answers the route's own message, as any other bad value there does", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const cases: Array<[string, string, unknown]> = [
      ["DELETE", "/ideas/1/links/%E0%A4%A", { error: "Invalid link ID" }],
      ["DELETE", "/ideas/1/links/%ZZ", { error: "Invalid link ID" }],
      ["GET", "/ideas/%E0%A4%A", { error: "Invalid idea ID" }],
      ["DELETE", "/tags/%E0%A4%A", { error: "Invalid tag ID" }],
      ["DELETE", "/map/relations/%E0%A4%A", { error: "Invalid relation ID" }],
      ["DELETE", "/user/byok/%E0%A4%A", { error: { provider: ["provider must be one of provider_a, provider_b, provider_c"] } }],
    ];
    for (const [method, path, body] of cases) {
      const r = await call(t, method, path, { key: u.key });
      expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 400, body });
    }
  });
});
