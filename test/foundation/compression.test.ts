// API JSON compression over real HTTP: Brotli/gzip when accepted above 1 KB, Vary set, never on secret-carrying routes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { makeApp, makeUser, type TestApp, type TestUser } from "../helpers";

let t: TestApp;
let pro: TestUser;
let base: string;

/** The raw bytes as sent (no automatic decoding), with the headers. */
async function raw(path: string, init: { method?: string; encoding?: string; body?: unknown; key?: string } = {}) {
  const headers: Record<string, string> = { "x-api-key": init.key ?? pro.key, "accept-encoding": init.encoding ?? "identity" };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${base}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    decompress: false,
  } as RequestInit);
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function decode(r: { headers: Headers; bytes: Uint8Array }): unknown {
  const enc = r.headers.get("content-encoding");
  const plain = enc === "br" ? brotliDecompressSync(r.bytes) : enc === "gzip" ? gunzipSync(r.bytes) : Buffer.from(r.bytes);
  return JSON.parse(plain.toString("utf8"));
}

beforeAll(async () => {
  t = makeApp();
  pro = await makeUser(t, { plan: "pro", password: "compression test password" });
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${t.app.server!.port}`;
  for (let i = 0; i < 12; i++) {
    const r = await raw("/ideas", { method: "POST", body: { title: `Compressible idea ${i}`, body: "A body long enough to matter. ".repeat(8) } });
    expect(r.status).toBe(201);
  }
});

afterAll(async () => {
  await t.app.stop(true);
  t.close();
});

describe("API response compression", () => {
  test("gzip and Brotli bodies decode to the same JSON as the identity answer, with Vary: Accept-Encoding", async () => {
    const plain = await raw("/ideas?limit=50");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
    expect(plain.bytes.length).toBeGreaterThan(1024);
    const expected = decode(plain);
    for (const encoding of ["gzip", "br"]) {
      const r = await raw("/ideas?limit=50", { encoding });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-encoding")).toBe(encoding);
      expect(r.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.bytes.length).toBeLessThan(plain.bytes.length / 2);
      expect(decode(r)).toEqual(expected);
    }
  });

  test("Brotli is preferred when both are accepted; q=0 refuses an encoding", async () => {
    expect((await raw("/ideas?limit=50", { encoding: "gzip, deflate, br" })).headers.get("content-encoding")).toBe("br");
    expect((await raw("/ideas?limit=50", { encoding: "gzip, br;q=0" })).headers.get("content-encoding")).toBe("gzip");
    // "*" does not bring back a coding refused by name (RFC 9110 §12.5.3).
    expect((await raw("/ideas?limit=50", { encoding: "gzip;q=0, *" })).headers.get("content-encoding")).toBeNull();
  });

  test("the web app's files honour q=0 as well: gzip when taken, plain when refused", async () => {
    const shell = await (await fetch(`${base}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(shell)?.[1];
    expect(script).toBeDefined();
    const file = (encoding: string) => fetch(`${base}${script}`, { headers: { "accept-encoding": encoding }, decompress: false } as RequestInit);
    expect((await file("gzip")).headers.get("content-encoding")).toBe("gzip");
    for (const encoding of ["gzip;q=0", "br, gzip;q=0"]) {
      const r = await file(encoding);
      expect([encoding, r.status, r.headers.get("content-encoding")]).toEqual([encoding, 200, null]);
      expect((await r.text()).length).toBeGreaterThan(1024);
    }
  });

  test("the streamed export honours q=0 too: a client refusing gzip gets it plain, and GZIP in capitals is gzip", async () => {
    for (const encoding of ["br, gzip;q=0", "gzip;q=0, *"]) {
      const r = await raw("/user/export", { method: "POST", encoding });
      expect([encoding, r.status, r.headers.get("content-encoding")]).toEqual([encoding, 200, null]);
      expect((decode(r) as { ideas: unknown[] }).ideas).toHaveLength(12);
    }
    const upper = await raw("/user/export", { method: "POST", encoding: "GZIP" });
    expect(upper.headers.get("content-encoding")).toBe("gzip");
    expect((decode(upper) as { ideas: unknown[] }).ideas).toHaveLength(12);
  });

  test("a Response-built JSON answer (the OpenAPI document) is compressed too", async () => {
    const r = await raw("/openapi.json", { encoding: "gzip" });
    expect(r.headers.get("content-encoding")).toBe("gzip");
    expect((decode(r) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  test("bodies under 1 KB go out as they are", async () => {
    const r = await raw("/tags", { encoding: "gzip, br" });
    expect(r.status).toBe(200);
    expect(r.bytes.length).toBeLessThan(1024);
    expect(r.headers.get("content-encoding")).toBeNull();
    expect(decode(r)).toEqual({ tags: [] });
  });

  test("the streamed JSON export is gzipped as a stream and decodes whole", async () => {
    const r = await raw("/user/export", { method: "POST", encoding: "gzip" });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-encoding")).toBe("gzip");
    expect((decode(r) as { ideas: unknown[] }).ideas).toHaveLength(12);
  });

  test("secret-carrying answers are never compressed, however large (BREACH)", async () => {
    // The account's settings echo back in the user object: 9 KB of text the caller chose, next to its data.
    const settings = JSON.stringify({ note: "attacker-chosen text ".repeat(400) });
    const patched = await raw("/user/me", { method: "PATCH", encoding: "gzip, br", body: { settings_json: settings } });
    expect(patched.status).toBe(200);
    expect(patched.bytes.length).toBeGreaterThan(1024);
    expect(patched.headers.get("content-encoding")).toBeNull();
    const cases: Array<{ path: string; method?: string; body?: unknown; status: number }> = [
      { path: "/user/me", status: 200 },
      { path: "/user/shortcuts", status: 200 },
      { path: "/user/api-keys", method: "POST", body: { label: "x".repeat(100) }, status: 201 },
      { path: "/auth/login", method: "POST", body: { email: pro.email, password: "compression test password" }, status: 200 },
    ];
    for (const c of cases) {
      const r = await raw(c.path, { method: c.method, body: c.body, encoding: "gzip, br" });
      expect(r.status, c.path).toBe(c.status);
      expect(r.headers.get("content-encoding"), c.path).toBeNull();
      decode(r); // plain JSON
    }
    // The login answer carries the user with its 9 KB of settings: large enough that only the rule kept it plain.
    const login = await raw("/auth/login", { method: "POST", body: { email: pro.email, password: "compression test password" }, encoding: "br" });
    expect(login.bytes.length).toBeGreaterThan(1024);
  });
});
