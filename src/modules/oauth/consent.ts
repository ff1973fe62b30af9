// GET/POST /mcp/authorize: who the user is (session cookie or e-mail + password), CSRF, and the approve/deny answer.
import type { Deps } from "../../deps";
import type { AuthKit } from "../../auth/plugin";
import { readCookie, SESSION_COOKIE, SESSION_DAYS } from "../../auth/credentials";
import { AppError } from "../../errors";
import { createSignInService } from "../sign-in/service";
import { consentPage, errorPage, type ConsentView } from "./consent-page";
import { createCsrf, CSRF_COOKIE } from "./csrf";
import { CONSENT_TTL_MS } from "./model";
import type { AuthorizeRequest, OAuthService, Params } from "./service";

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  // No scripts at all; inline styles only; never framed (clickjacking an Approve button).
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
};

interface Account { id: string; email: string }

export function createConsentFlow(deps: Deps, kit: AuthKit, oauth: OAuthService) {
  const csrf = createCsrf(deps.clock, deps.store);
  const signIn = createSignInService(deps);
  const secure = deps.config.tls_cert_file !== null || deps.config.trusted_proxies.length > 0 ? "; Secure" : "";

  const html = (status: number, body: string, cookies: string[] = []) => {
    const headers = new Headers(PAGE_HEADERS);
    for (const c of cookies) headers.append("set-cookie", c);
    return new Response(body, { status, headers });
  };
  const redirect = (location: string, cookies: string[] = []) => {
    const headers = new Headers({ location, "cache-control": "no-store" });
    for (const c of cookies) headers.append("set-cookie", c);
    return new Response(null, { status: 302, headers });
  };
  const failPage = (status: number, message: string) => html(status, errorPage("Cannot connect this application", message));

  /** Everything the CSRF token is bound to: the exact request the user saw. */
  const bound = (r: AuthorizeRequest) => [r.client.id, r.redirectUri, r.codeChallenge, r.scopes.join(" "), r.state ?? "", r.resource ?? ""];

  function hiddenFields(r: AuthorizeRequest, nonce: string): Record<string, string> {
    const out: Record<string, string> = {
      response_type: "code",
      client_id: r.client.id,
      redirect_uri: r.redirectUri,
      code_challenge: r.codeChallenge,
      code_challenge_method: "S256",
      scope: r.scopes.join(" "),
      csrf_token: csrf.issue(nonce, bound(r)),
    };
    if (r.state !== null) out.state = r.state;
    if (r.resource !== null) out.resource = r.resource;
    return out;
  }

  async function signedInUser(request: Request): Promise<Account | null> {
    const cookie = request.headers.get("cookie");
    if (!cookie) return null;
    // Only the session cookie counts here: this is a browser page, not an API call.
    const who = await kit.resolver.resolve(new Headers({ cookie }), deps.clock());
    return who?.via === "session-cookie" ? who.user : null;
  }

  function render(status: number, r: AuthorizeRequest, nonce: string, user: Account | null, extra: Partial<ConsentView>, cookies: string[] = []) {
    const view: ConsentView = {
      clientName: r.client.client_name,
      redirectUri: r.redirectUri,
      scopes: r.scopes,
      hidden: hiddenFields(r, nonce),
      signedInAs: user?.email ?? null,
      error: null,
      ticked: r.scopes,
      ...extra,
    };
    return html(status, consentPage(view), cookies);
  }

  const nonceCookie = (nonce: string) =>
    `${CSRF_COOKIE}=${nonce}; Path=/mcp; HttpOnly; SameSite=Strict; Max-Age=${CONSENT_TTL_MS / 1000}${secure}`;
  const sessionCookie = (token: string) =>
    `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_DAYS * 86_400}${secure}`;

  return {
    async show(request: Request, query: Params): Promise<Response> {
      await csrf.ready();
      const check = await oauth.checkAuthorize(query);
      if (check.kind === "page") return failPage(400, check.message);
      if (check.kind === "redirect") return redirect(check.location);
      const existing = readCookie(request.headers.get("cookie"), CSRF_COOKIE);
      const nonce = csrf.isNonce(existing) ? existing : csrf.newNonce();
      return render(200, check.request, nonce, await signedInUser(request), {}, [nonceCookie(nonce)]);
    },

    async submit(request: Request, form: Params | null): Promise<Response> {
      await csrf.ready();
      if (form === null) return failPage(400, "The form could not be read.");
      const check = await oauth.checkAuthorize(form);
      if (check.kind === "page") return failPage(400, check.message);
      if (check.kind === "redirect") return redirect(check.location);
      const r = check.request;
      const nonce = readCookie(request.headers.get("cookie"), CSRF_COOKIE);
      if (!csrf.verify(form.csrf_token, nonce, bound(r))) {
        return failPage(403, "This form expired or did not come from this server's consent page. Go back, reload the page and try again.");
      }
      if (form.decision === "deny") return redirect(oauth.denied(r));
      if (form.decision !== "approve") return failPage(400, "Choose Approve or Deny.");

      const ticked = r.scopes.filter((s) => form[`grant:${s}`] !== undefined);
      let user = await signedInUser(request);
      const cookies: string[] = [];
      if (form.email || form.password || !user) {
        try {
          const out = await signIn.login({ email: form.email ?? "", password: form.password ?? "" });
          user = out.user;
          cookies.push(sessionCookie(out.token));
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          const message = e.status === 429
            ? "Too many failed sign-ins for this account. Wait 15 minutes and try again."
            : "Wrong e-mail or password.";
          return render(e.status === 429 ? 429 : 401, r, nonce!, null, { error: message, ticked });
        }
      }
      if (ticked.length === 0) {
        return render(400, r, nonce!, user, { error: "Choose at least one permission, or press Deny.", ticked }, cookies);
      }
      return redirect(await oauth.issueCode(user.id, r, ticked), cookies);
    },
  };
}
