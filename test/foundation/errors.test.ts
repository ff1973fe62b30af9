// The error table: validation bodies, bad JSON, unknown routes, body limits, no internals leaked.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";

describe("errors", () => {
  const t = makeApp({ config: { body_limit_bytes: 4096 } });
  afterAll(() => t.close());

  test("validation failures map each offending field to an array of messages", async () => {
    const u = await makeUser(t);
    const r = await call(t, "PATCH", "/user/me", { key: u.key, body: { display_name: "", settings_json: "x".repeat(10_001) } });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.error).sort()).toEqual(["display_name", "settings_json"]);
    expect(Array.isArray(r.body.error.display_name)).toBe(true);
    expect(typeof r.body.error.display_name[0]).toBe("string");
  });

  test("malformed JSON is a 400 with a string error, never a stack trace", async () => {
    const u = await makeUser(t);
    const r = await call(t, "PATCH", "/user/me", { key: u.key, raw: '{"display_name":' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "Invalid JSON body" });
  });

  test("unknown routes answer 404 JSON: under /api/v1, missing files, and anything but a page read outside it", async () => {
    // Outside /api/v1 a GET for a page path is the web app's shell (test/web); everything else stays a JSON 404.
    for (const [method, path] of [["GET", "/api/v1/nope"], ["GET", "/missing.png"], ["POST", "/elsewhere"], ["GET", "/mcp/nope"]]) {
      const res = await t.handle(new Request(`http://localhost${path}`, { method }));
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toEqual({ error: "Not found" });
    }
  });

  test("a declared body over the limit is refused with 413 before it is parsed", async () => {
    const u = await makeUser(t);
    const raw = JSON.stringify({ display_name: "x".repeat(5000) });
    const r = await call(t, "PATCH", "/user/me", { key: u.key, raw, headers: { "content-length": String(raw.length) } });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: "Request body too large" });
  });
});
