// OAuth rules for MCP clients: metadata, registration checks, the consent page (errors, CSRF, sign-in, deny) and the
// token endpoint (PKCE, single use with revocation on replay, redirect_uri and client binding, expiry).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeUser, type TestUser } from "../helpers";
import { authorizeUrl, Browser, consent, formOf, grant, pkce, PASSWORD, REDIRECT, register, serve, token, type Served } from "./helpers";

let s: Served;
let user: TestUser;

beforeAll(async () => {
  s = serve();
  user = await makeUser(s, { password: PASSWORD });
});
afterAll(() => s.stop());

const restStatus = async (path: string, key: string) =>
  (await fetch(`${s.base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } })).status;

async function newClient(name = "Rules Client") {
  return (await register(s.base, { client_name: name, redirect_uris: [REDIRECT] })).body as { client_id: string };
}

describe("discovery", () => {
  test("authorization server metadata names this instance's endpoints", async () => {
    const res = await fetch(`${s.base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      issuer: s.base,
      authorization_endpoint: `${s.base}/mcp/authorize`,
      token_endpoint: `${s.base}/mcp/token`,
      registration_endpoint: `${s.base}/mcp/register`,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      scopes_supported: ["ideas:read", "ideas:write"],
    });
  });

  test("protected resource metadata describes /mcp, at the root and at the path-suffixed address", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const body = (await (await fetch(`${s.base}${path}`)).json()) as Record<string, unknown>;
      expect(body).toMatchObject({ resource: `${s.base}/mcp`, authorization_servers: [s.base], scopes_supported: ["ideas:read", "ideas:write"] });
    }
  });

  test("forwarded headers are ignored from a client that is not a trusted proxy", async () => {
    const res = await fetch(`${s.base}/.well-known/oauth-authorization-server`, { headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } });
    expect(((await res.json()) as { issuer: string }).issuer).toBe(s.base);
  });
});

describe("POST /mcp/register", () => {
  test("registers a public client and echoes its metadata", async () => {
    const r = await register(s.base, { client_name: "Claude", redirect_uris: ["https://claude.example/cb", "http://localhost:5000/cb"], token_endpoint_auth_method: "client_secret_post" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      client_name: "Claude",
      redirect_uris: ["https://claude.example/cb", "http://localhost:5000/cb"],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
    expect(r.body.client_id).toMatch(/^[0-9a-f]{32}$/);
    expect(r.body.client_secret).toBeUndefined();
  });

  test("refuses redirect URIs that are not https or loopback http, and missing ones", async () => {
    for (const uris of [["http://example.com/cb"], ["myapp://cb"], ["https://x.example/cb#frag"], ["not a url"], []]) {
      const r = await register(s.base, { client_name: "Bad", redirect_uris: uris });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("invalid_redirect_uri");
      expect(typeof r.body.error_description).toBe("string");
    }
    const missing = await register(s.base, { client_name: "Bad" });
    expect(missing.body.error).toBe("invalid_redirect_uri");
  });

  test("a body that is not JSON is invalid client metadata", async () => {
    const res = await fetch(`${s.base}/mcp/register`, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_client_metadata");
  });
});

describe("GET /mcp/authorize", () => {
  test("an unregistered client gets an error page, never a redirect", async () => {
    const { challenge } = pkce();
    const res = await fetch(authorizeUrl(s.base, { client_id: "0".repeat(32), code_challenge: challenge }), { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("not registered");
  });

  test("a redirect_uri the client did not register gets an error page, never a redirect", async () => {
    const client = await newClient();
    const { challenge } = pkce();
    const url = authorizeUrl(s.base, { client_id: client.client_id, code_challenge: challenge, redirect_uri: "http://127.0.0.1:33418/elsewhere" });
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("redirect_uri");
  });

  test("without a PKCE S256 challenge the client is sent back with invalid_request", async () => {
    const client = await newClient();
    for (const extra of [{}, { code_challenge: pkce().challenge, code_challenge_method: "plain" }] as Array<Record<string, string>>) {
      const res = await fetch(authorizeUrl(s.base, { client_id: client.client_id, state: "st", ...extra }), { redirect: "manual" });
      expect(res.status).toBe(302);
      const back = new URL(res.headers.get("location")!);
      expect(back.searchParams.get("error")).toBe("invalid_request");
      expect(back.searchParams.get("state")).toBe("st");
      expect(back.searchParams.get("code")).toBeNull();
    }
  });

  test("the page escapes what the client chose, cannot be framed and runs no script", async () => {
    const client = await newClient(`<script>alert("x")</script>`);
    const res = await fetch(authorizeUrl(s.base, { client_id: client.client_id, code_challenge: pkce().challenge, state: `"><img src=x>` }));
    const html = await res.text();
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("POST /mcp/authorize", () => {
  async function openPage(opts: { scope?: string; browser?: Browser } = {}) {
    const client = await newClient();
    const { verifier, challenge } = pkce();
    const browser = opts.browser ?? new Browser();
    const page = await browser.get(authorizeUrl(s.base, { client_id: client.client_id, code_challenge: challenge, state: "st", ...(opts.scope ? { scope: opts.scope } : {}) }));
    return { client, verifier, browser, form: formOf(await page.text()) };
  }

  test("a form without its CSRF token is refused with an error page and no code", async () => {
    const { browser, form } = await openPage();
    delete form.csrf_token;
    const res = await browser.post(`${s.base}/mcp/authorize`, { ...form, email: user.email, password: PASSWORD, decision: "approve" });
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("expired or did not come from");
  });

  test("a token copied from someone else's page does not work in another browser (cross-site forgery)", async () => {
    const { form } = await openPage(); // the attacker's own page and token
    const victim = new Browser();
    await openPage({ browser: victim }); // the victim has a consent cookie of their own, not the attacker's
    expect(victim.cookies.get("svc_oauth_csrf")).toMatch(/^[0-9a-f]{32}$/);
    const res = await victim.post(`${s.base}/mcp/authorize`, { ...form, email: user.email, password: PASSWORD, decision: "approve" });
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
  });

  test("changing a bound field after the page was shown invalidates the token", async () => {
    const { browser, form } = await openPage({ scope: "ideas:read" });
    const res = await browser.post(`${s.base}/mcp/authorize`, { ...form, scope: "ideas:read ideas:write", "grant:ideas:write": "1", email: user.email, password: PASSWORD, decision: "approve" });
    expect(res.status).toBe(403);
  });

  test("a wrong password re-shows the page with an error and issues nothing", async () => {
    const { browser, form } = await openPage();
    const res = await browser.post(`${s.base}/mcp/authorize`, { ...form, email: user.email, password: "wrong password!", decision: "approve" });
    expect(res.status).toBe(401);
    expect(res.headers.get("location")).toBeNull();
    const html = await res.text();
    expect(html).toContain("Wrong e-mail or password.");
    expect(formOf(html).csrf_token).toBeString(); // the user can simply try again
  });

  test("failed sign-ins at /auth/login count against the consent page too (one brake per e-mail)", async () => {
    const target = await makeUser(s, { password: PASSWORD });
    for (let i = 0; i < 10; i++) {
      const r = await fetch(`${s.base}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: target.email, password: `guess-${i}` }) });
      expect(r.status).toBe(401);
    }
    const { browser, form } = await openPage();
    const res = await browser.post(`${s.base}/mcp/authorize`, { ...form, email: target.email, password: PASSWORD, decision: "approve" });
    expect(res.status).not.toBe(302);
    expect(res.headers.get("location")).toBeNull();
  });

  test("deny sends the client back with access_denied and its state, and needs no sign-in", async () => {
    const { browser, form } = await openPage();
    const res = await browser.post(`${s.base}/mcp/authorize`, { ...form, decision: "deny" });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("st");
    expect(back.searchParams.get("code")).toBeNull();
  });

  test("a browser already signed in (svc_session cookie) approves without typing the password again", async () => {
    const browser = new Browser();
    const first = await openPage({ browser });
    const signIn = await browser.post(`${s.base}/mcp/authorize`, { ...first.form, email: user.email, password: PASSWORD, decision: "approve" });
    expect(signIn.status).toBe(302);
    expect(browser.cookies.get("svc_session")).toMatch(/^[0-9a-f]{64}$/);

    const second = await openPage({ browser });
    const page = await browser.get(authorizeUrl(s.base, { client_id: second.client.client_id, code_challenge: pkce().challenge }));
    const html = await page.text();
    expect(html).toContain(`Signed in as <strong>${user.email}</strong>`);
    expect(html).not.toContain('name="password"');
    const res = await browser.post(`${s.base}/mcp/authorize`, { ...second.form, decision: "approve" });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("code")).toMatch(/^[0-9a-f]{64}$/);
  });

  test("unticking every permission is refused; unticking write yields a read-only token", async () => {
    const none = await openPage();
    delete none.form["grant:ideas:read"];
    delete none.form["grant:ideas:write"];
    const refused = await none.browser.post(`${s.base}/mcp/authorize`, { ...none.form, email: user.email, password: PASSWORD, decision: "approve" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Choose at least one permission");

    const out = await grant(s.base, user.email, { untick: ["ideas:write"] });
    expect(out.status).toBe(200);
    expect(out.body.scope).toBe("ideas:read");
  });
});

describe("POST /mcp/token", () => {
  test("answers {access_token, token_type, scope}, uncached, for form and JSON bodies", async () => {
    const client = await newClient();
    for (const asJson of [false, true]) {
      const { verifier, challenge } = pkce();
      const flow = await consent(s.base, authorizeUrl(s.base, { client_id: client.client_id, code_challenge: challenge, scope: "ideas:read" }), { email: user.email });
      const r = await token(s.base, { code: flow.code!, client_id: client.client_id, code_verifier: verifier }, asJson);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(["access_token", "scope", "token_type"]);
      expect(r.body).toMatchObject({ token_type: "Bearer", scope: "ideas:read" });
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(await restStatus("/ideas", r.body.access_token)).toBe(200);
    }
  });

  test("a wrong code_verifier fails PKCE and leaves the code usable by its rightful owner", async () => {
    const client = await newClient();
    const { verifier, challenge } = pkce();
    const flow = await consent(s.base, authorizeUrl(s.base, { client_id: client.client_id, code_challenge: challenge }), { email: user.email });
    const bad = await token(s.base, { code: flow.code!, client_id: client.client_id, code_verifier: pkce().verifier });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "invalid_grant", error_description: "PKCE verification failed" });
    const good = await token(s.base, { code: flow.code!, client_id: client.client_id, code_verifier: verifier });
    expect(good.status).toBe(200);
  });

  test("a replayed code fails and revokes the token it produced", async () => {
    const first = await grant(s.base, user.email);
    expect(first.status).toBe(200);
    expect(await restStatus("/ideas", first.body.access_token)).toBe(200);
    const again = await token(s.base, { code: first.code, client_id: first.client.client_id, code_verifier: first.verifier });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect(await restStatus("/ideas", first.body.access_token)).toBe(401);
  });

  test("the code is bound to its redirect_uri and its client", async () => {
    const client = await newClient();
    const other = await newClient("Other");
    const { verifier, challenge } = pkce();
    const flow = await consent(s.base, authorizeUrl(s.base, { client_id: client.client_id, code_challenge: challenge }), { email: user.email });
    const wrongUri = await token(s.base, { code: flow.code!, client_id: client.client_id, code_verifier: verifier, redirect_uri: "http://127.0.0.1:33418/elsewhere" });
    expect(wrongUri.status).toBe(400);
    expect(wrongUri.body.error).toBe("invalid_grant");
    const wrongClient = await token(s.base, { code: flow.code!, client_id: other.client_id, code_verifier: verifier });
    expect(wrongClient.status).toBe(400);
    expect(wrongClient.body.error).toBe("invalid_grant");
    const unknownClient = await token(s.base, { code: flow.code!, client_id: "f".repeat(32), code_verifier: verifier });
    expect(unknownClient.status).toBe(401);
    expect(unknownClient.body.error).toBe("invalid_client");
    expect((await token(s.base, { code: flow.code!, client_id: client.client_id, code_verifier: verifier })).status).toBe(200);
  });

  test("a code expires after 10 minutes", async () => {
    const client = await newClient();
    const { verifier, challenge } = pkce();
    const flow = await consent(s.base, authorizeUrl(s.base, { client_id: client.client_id, code_challenge: challenge }), { email: user.email });
    s.clock.advance(10 * 60_000 + 1000);
    try {
      const r = await token(s.base, { code: flow.code!, client_id: client.client_id, code_verifier: verifier });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: "invalid_grant", error_description: "Authorization code expired" });
    } finally {
      s.clock.advance(-(10 * 60_000 + 1000));
    }
  });

  test("unknown codes, other grant types and missing parameters answer in RFC 6749 shape", async () => {
    const client = await newClient();
    const unknown = await token(s.base, { code: "0".repeat(64), client_id: client.client_id, code_verifier: pkce().verifier });
    expect(unknown).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const refresh = await token(s.base, { grant_type: "refresh_token", refresh_token: "x", client_id: client.client_id });
    expect(refresh).toMatchObject({ status: 400, body: { error: "unsupported_grant_type" } });
    const missing = await token(s.base, { client_id: client.client_id, code_verifier: pkce().verifier });
    expect(missing).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: "code is required" } });
  });
});

describe("housekeeping", () => {
  test("registrations nobody approved within a day are dropped; approved clients stay", async () => {
    const abandoned = await newClient("Abandoned");
    const used = await grant(s.base, user.email, { name: "Used" });
    expect(used.status).toBe(200);
    s.clock.advance(25 * 3_600_000);
    try {
      await newClient("Newcomer"); // registration prunes
      const gone = await fetch(authorizeUrl(s.base, { client_id: abandoned.client_id, code_challenge: pkce().challenge }), { redirect: "manual" });
      expect(gone.status).toBe(400);
      const kept = await fetch(authorizeUrl(s.base, { client_id: used.client.client_id, code_challenge: pkce().challenge }), { redirect: "manual" });
      expect(kept.status).toBe(200);
      expect(await restStatus("/ideas", used.body.access_token)).toBe(200); // tokens never expire
    } finally {
      s.clock.advance(-25 * 3_600_000);
    }
  });
});

describe("odd input", () => {
  test("repeated or empty parameters are answered, never a crash", async () => {
    const client = await newClient();
    const dup = await fetch(`${s.base}/mcp/authorize?client_id=${client.client_id}&client_id=x&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&code_challenge=${pkce().challenge}&code_challenge_method=S256`);
    expect(dup.status).toBe(200);
    const empty = await fetch(`${s.base}/mcp/authorize`);
    expect(empty.status).toBe(400);
    const form = await fetch(`${s.base}/mcp/authorize`, { method: "POST", headers: { "content-type": "application/json" }, body: "[1,2]" });
    expect(form.status).toBe(400);
    const tok = await fetch(`${s.base}/mcp/token`, { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" });
    expect(tok.status).toBe(400);
    expect(((await tok.json()) as { error: string }).error).toBe("invalid_request");
  });
});
