// MCP test fixtures: the app on a real 127.0.0.1 listener, an OAuth client provider for the SDK, and a browser-like
// consent helper that reads the page, keeps its cookies and submits the form as a user would.
import { createHash, randomBytes } from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { makeApp, type TestApp } from "../helpers";

export const PASSWORD = "correct horse battery staple";
export const REDIRECT = "http://127.0.0.1:33418/oauth/callback";

export interface Served extends TestApp { base: string; stop(): void }

export function serve(opts: Parameters<typeof makeApp>[0] = {}): Served {
  const t = makeApp(opts);
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => t.handle(req) });
  return { ...t, base: `http://127.0.0.1:${server.port}`, stop: () => { server.stop(true); t.close(); } };
}

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The OAuth client side as an MCP application keeps it; redirectToAuthorization just records the URL. */
export class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authUrl?: URL;
  constructor(readonly name = "Test Assistant") {}
  get redirectUrl() { return REDIRECT; }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [REDIRECT], grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authUrl = url; }
  saveCodeVerifier(v: string) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
}

/** A tiny cookie jar: enough for the consent page's CSRF cookie and the session cookie. */
export class Browser {
  cookies = new Map<string, string>();
  header() { return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "); }
  take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
  }
  async get(url: string | URL) {
    const res = await fetch(url, { headers: { cookie: this.header() }, redirect: "manual" });
    this.take(res);
    return res;
  }
  async post(url: string, form: Record<string, string>) {
    const res = await fetch(url, {
      method: "POST",
      headers: { cookie: this.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
      redirect: "manual",
    });
    this.take(res);
    return res;
  }
}

const unescapeHtml = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The hidden fields and ticked scope boxes of a consent page, as a browser would submit them. */
export function formOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) out[unescapeHtml(m[1])] = unescapeHtml(m[2]);
  for (const m of html.matchAll(/<input type="checkbox" name="([^"]+)" value="1" checked>/g)) out[unescapeHtml(m[1])] = "1";
  return out;
}

/** Opens the consent page, signs in (unless told not to), approves; returns the redirect. */
export async function consent(
  base: string,
  authUrl: string | URL,
  opts: { email?: string; password?: string; browser?: Browser; untick?: string[]; decision?: "approve" | "deny" } = {},
) {
  const browser = opts.browser ?? new Browser();
  const page = await browser.get(authUrl);
  const html = await page.text();
  if (page.status !== 200) return { page, html, location: page.headers.get("location"), browser };
  const form = formOf(html);
  for (const s of opts.untick ?? []) delete form[`grant:${s}`];
  if (opts.email !== undefined) Object.assign(form, { email: opts.email, password: opts.password ?? PASSWORD });
  const res = await browser.post(`${base}/mcp/authorize`, { ...form, decision: opts.decision ?? "approve" });
  const location = res.headers.get("location");
  return { page, html, res, location, browser, code: location ? new URL(location).searchParams.get("code") : null };
}

export async function register(base: string, body: unknown = { client_name: "Manual Client", redirect_uris: [REDIRECT] }) {
  const res = await fetch(`${base}/mcp/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

export function authorizeUrl(base: string, p: Record<string, string>) {
  return `${base}/mcp/authorize?${new URLSearchParams({ response_type: "code", code_challenge_method: "S256", redirect_uri: REDIRECT, ...p })}`;
}

export async function token(base: string, p: Record<string, string>, asJson = false) {
  const res = await fetch(`${base}/mcp/token`, {
    method: "POST",
    headers: { "content-type": asJson ? "application/json" : "application/x-www-form-urlencoded" },
    body: asJson ? JSON.stringify({ grant_type: "authorization_code", redirect_uri: REDIRECT, ...p }) : new URLSearchParams({ grant_type: "authorization_code", redirect_uri: REDIRECT, ...p }),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

/** Registration + consent + exchange done by hand; returns the access token answer. */
export async function grant(base: string, email: string, opts: { scope?: string; untick?: string[]; name?: string } = {}) {
  const client = (await register(base, { client_name: opts.name ?? "Manual Client", redirect_uris: [REDIRECT] })).body;
  const { verifier, challenge } = pkce();
  const flow = await consent(base, authorizeUrl(base, { client_id: client.client_id, code_challenge: challenge, state: "s1", ...(opts.scope ? { scope: opts.scope } : {}) }), { email, untick: opts.untick });
  const out = await token(base, { code: flow.code!, client_id: client.client_id, code_verifier: verifier });
  return { client, verifier, code: flow.code!, ...out };
}

/** An SDK client connected with a bearer token (no OAuth provider), as a configured assistant would be. */
export async function connectWithToken(base: string, accessToken: string, headerName: "authorization" | "x-api-key" = "authorization") {
  const headers: Record<string, string> = headerName === "authorization" ? { authorization: `Bearer ${accessToken}` } : { "x-api-key": accessToken };
  const client = new Client({ name: "idearepo-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  return client;
}

type CallResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };
/** Calls a tool and parses its JSON text content. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallResult;
  const textOut = r.content[0]?.text ?? "";
  let body: any = textOut;
  try {
    body = JSON.parse(textOut);
  } catch {
    // SDK-level validation errors are plain text
  }
  return { isError: r.isError === true, body, text: textOut };
}
