// Resolves the caller in the spec's fixed order: Bearer (session, then API key) → X-API-Key (svc_ only) → svc_session cookie.
import type { Deps } from "../deps";
import { sha256Hex } from "../lib/crypto";
import { addDays, toStamp } from "../lib/time";
import { createUnchangedMemo } from "../db/unchanged-memo";
import { createApiKeysRepo } from "../modules/api-keys/repo";
import type { UserRow } from "../modules/users/repo";
import { createCredentialRepo, type CredentialRow, type Ride } from "./credential-repo";
import type { RateLimiter } from "./rate-limiter";
import { effectivePlan, type Plan } from "./plans";
import { createSessionsRepo } from "./sessions-repo";

export const SESSION_COOKIE = "svc_session";
export const SESSION_DAYS = 30;
// Sliding expiry and last_used_at are written at most this often per credential, to keep writes off the hot path.
const TOUCH_INTERVAL_MS = 60_000;

export interface AuthContext {
  user: UserRow;
  plan: Plan;
  scopes: string | null;
  via: "session-bearer" | "api-key-bearer" | "api-key-header" | "session-cookie";
  /** SHA-256 of the session token when the caller used a session (logout deletes it). */
  sessionHash: string | null;
  /**
   * When the credential's own statement counted the request against the daily quota (PostgreSQL, `resolve` with
   * `count`): the account's count after it, or null when it was not counted (rate-limiter.ts decides with it).
   */
  counted?: number | null;
  /**
   * A route's Ride read in the credential's statement (PostgreSQL, `resolve` with `count` and `ride`): its key and
   * what it answered for this account. Absent when it did not run (SQLite, a session cookie, no ride asked).
   */
  ride?: { key: string; value: unknown };
}

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return decodeCookieValue(part.slice(i + 1).trim());
  }
  return null;
}

/** A value with a broken %-escape ("%E0%A4%A") is kept as sent: it matches no session (401), where decoding threw a 500. */
function decodeCookieValue(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function createCredentialResolver(deps: Deps, limiter: RateLimiter) {
  const sessions = createSessionsRepo(deps.store);
  const keys = createApiKeysRepo(deps.store);
  const credentials = createCredentialRepo(deps.store);
  const lastTouch = new Map<string, number>();
  // The rows behind a credential, each read with its account in one statement, and on SQLite remembered until
  // anything is written (revoking a key, disabling a user, a plan change, a sign-out all are writes); expiry and plan
  // are still decided from the clock on every call. On PostgreSQL every call reads (db/unchanged-memo.ts): another
  // process's revocation is seen by the very next request, at the cost of that one round trip.
  const rows = createUnchangedMemo<CredentialRow[]>(deps.store);
  const sessionRows = (hash: string) => rows.get(`s:${hash}`, async () => [await credentials.session(hash)].filter((r) => r !== null));
  const keyRows = (hash: string) => rows.get(`k:${hash}`, async () => [await credentials.key(hash)].filter((r) => r !== null));
  const bearerRows = (hash: string) => rows.get(`b:${hash}`, () => credentials.bearer(hash));

  const due = (hash: string, nowMs: number) => {
    const prev = lastTouch.get(hash);
    if (prev !== undefined && nowMs - prev < TOUCH_INTERVAL_MS) return false;
    if (lastTouch.size > 50_000) lastTouch.clear();
    lastTouch.set(hash, nowMs);
    return true;
  };

  /** The first of `found` that lets the caller in now: a live session or a key, of an account not disabled. */
  async function credentialAccepted(
    hash: string, found: CredentialRow[], now: Date, via: { session: AuthContext["via"]; key: AuthContext["via"] }, ride?: Ride,
  ): Promise<AuthContext | null> {
    for (const cred of found) {
      const { user } = cred;
      if (user.disabled_at !== null) continue;
      if (cred.kind === "session") {
        // Same comparison as SQL's `expires_at > ?` on the stored text: both are "YYYY-MM-DD HH:MM:SS".
        if (!(cred.expires_at > toStamp(now))) continue;
        if (due(hash, now.getTime())) await sessions.slide(hash, toStamp(addDays(now, SESSION_DAYS)), toStamp(now));
        return { user, plan: effectivePlan(user, now), scopes: null, via: via.session, sessionHash: hash, ...countOf(cred, ride) };
      }
      if (due(hash, now.getTime())) await keys.touch(cred.id, toStamp(now));
      return { user, plan: effectivePlan(user, now), scopes: cred.scopes, via: via.key, sessionHash: null, ...countOf(cred, ride) };
    }
    return null;
  }

  /** What the credential's statement read beside it: the count it took, the ride it carried. */
  const countOf = (cred: CredentialRow, ride?: Ride) => ({
    ...(cred.counted === undefined ? {} : { counted: cred.counted }),
    ...(ride && cred.ride !== undefined ? { ride: { key: ride.key, value: cred.ride } } : {}),
  });

  /** Counts a counting read took for accounts other than the accepted one's (or when none was accepted) go back. */
  async function refundUnused(found: CredentialRow[], hit: AuthContext | null, now: Date): Promise<void> {
    const counted = new Set(found.filter((c) => c.counted !== undefined && c.counted !== null).map((c) => c.user.id));
    if (hit) counted.delete(hit.user.id);
    for (const userId of counted) await limiter.refund(userId, now);
  }

  return {
    /**
     * The caller, or null. With `count` a Bearer token or an X-API-Key is counted against the daily quota by the very
     * statement that reads it where the store allows (PostgreSQL: one round trip, not two); `counted` then says so and
     * the limiter's `hit` decides with it. A session cookie is never counted. `ride` (with `count`, where the store
     * counts in the credential's statement) is read in that statement too and handed back as `ride`.
     */
    async resolve(headers: Headers, now: Date, opts: { count?: boolean; ride?: Ride | null } = {}): Promise<AuthContext | null> {
      const counting = opts.count ? limiter.counting(now) : null;
      const ride = counting && opts.ride ? opts.ride : undefined;
      const authz = headers.get("authorization");
      if (authz) {
        const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
        if (m) {
          const hash = sha256Hex(m[1]);
          const found = counting ? await credentials.bearerCounting(hash, counting, ride) : await bearerRows(hash);
          const hit = await credentialAccepted(hash, found, now, { session: "session-bearer", key: "api-key-bearer" }, ride);
          if (counting) await refundUnused(found, hit, now);
          if (hit) return hit;
        }
      }
      const apiKey = headers.get("x-api-key");
      if (apiKey && apiKey.startsWith("svc_")) {
        const hash = sha256Hex(apiKey);
        const found = counting ? [await credentials.keyCounting(hash, counting, ride)].filter((r) => r !== null) : await keyRows(hash);
        const hit = await credentialAccepted(hash, found, now, { session: "api-key-header", key: "api-key-header" }, ride);
        if (counting) await refundUnused(found, hit, now);
        if (hit) return hit;
      }
      const cookie = readCookie(headers.get("cookie"), SESSION_COOKIE);
      if (!cookie) return null;
      const hash = sha256Hex(cookie);
      return credentialAccepted(hash, await sessionRows(hash), now, { session: "session-cookie", key: "session-cookie" });
    },
    /** Forget throttling state for a credential (after revocation) so nothing stale lingers. */
    forget(hash: string) {
      lastTouch.delete(hash);
    },
  };
}
