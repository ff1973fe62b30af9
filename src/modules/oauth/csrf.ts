// CSRF for the consent form: a per-browser nonce cookie plus an HMAC over (time, nonce, the exact request) in the form.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { toStamp, type Clock } from "../../lib/time";
import { randomHex } from "../../lib/crypto";
import type { Store } from "../../db/store";
import { claimAppState } from "../../db/app-state";
import { CONSENT_TTL_MS } from "./model";

export const CSRF_COOKIE = "svc_oauth_csrf";
const NONCE_RE = /^[0-9a-f]{32}$/;
/** The app_state row holding the key nodes on one PostgreSQL database share. */
const SHARED_KEY = "oauth_csrf_key";

/**
 * The token alone is not enough: an attacker can load the consent page themselves and copy its token. Binding it to a
 * nonce that lives in an HttpOnly SameSite=Strict cookie of the user's own browser is what makes a forged cross-site
 * POST fail. On SQLite the key is per process, so a restart invalidates open consent pages (the user reloads). On
 * PostgreSQL every node must accept the page another node rendered (a load balancer sends the POST anywhere), so the
 * key is one row of app_state, made by the first node that needs it.
 */
export function createCsrf(clock: Clock, store: Store) {
  let key: Buffer | null = store.dialect === "postgres" ? null : randomBytes(32);
  let loading: Promise<void> | null = null;
  const mac = (issuedAt: string, nonce: string, bound: string[]) =>
    createHmac("sha256", key!).update(JSON.stringify([issuedAt, nonce, ...bound])).digest("base64url");

  async function load(): Promise<void> {
    key = Buffer.from(await claimAppState(store, SHARED_KEY, randomHex(32), toStamp(clock())), "hex");
  }

  return {
    /** Awaited before issue/verify: loads the shared key once (a failure is tried again by the next request). */
    async ready(): Promise<void> {
      if (key) return;
      loading ??= load().finally(() => {
        loading = null;
      });
      await loading;
    },
    isNonce: (v: string | null): v is string => v !== null && NONCE_RE.test(v),
    newNonce: () => randomHex(16),
    issue(nonce: string, bound: string[]): string {
      const issuedAt = clock().getTime().toString(36);
      return `${issuedAt}.${mac(issuedAt, nonce, bound)}`;
    },
    verify(token: string | undefined, nonce: string | null, bound: string[]): boolean {
      if (!token || nonce === null || !NONCE_RE.test(nonce)) return false;
      const [issuedAt, sig] = token.split(".");
      if (!issuedAt || !sig) return false;
      const age = clock().getTime() - parseInt(issuedAt, 36);
      if (!(age >= 0 && age <= CONSENT_TTL_MS)) return false;
      const a = Buffer.from(sig);
      const b = Buffer.from(mac(issuedAt, nonce, bound));
      return a.length === b.length && timingSafeEqual(a, b);
    },
  };
}
