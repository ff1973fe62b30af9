// Resolves the caller in the spec's fixed order: Bearer (session, then API key) → X-API-Key (svc_ only) → svc_session cookie.
import type { Deps } from "../deps";
import { sha256Hex } from "../lib/crypto";
import { addDays, toStamp } from "../lib/time";
import { createUnchangedMemo } from "../db/unchanged-memo";
import { createApiKeysRepo, type ApiKeyRow } from "../modules/api-keys/repo";
import { createUsersRepo, type UserRow } from "../modules/users/repo";
import { effectivePlan, type Plan } from "./plans";
import { createSessionsRepo, type SessionRow } from "./sessions-repo";

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

export function createCredentialResolver(deps: Deps) {
  const sessions = createSessionsRepo(deps.store);
  const keys = createApiKeysRepo(deps.store);
  const users = createUsersRepo(deps.store);
  const lastTouch = new Map<string, number>();
  // The rows behind a credential, read once and remembered until anything is written (revoking a key, disabling a
  // user, a plan change, a sign-out all are writes); expiry and plan are still decided from the clock on every call.
  // On SQLite only: on PostgreSQL every call reads (db/unchanged-memo.ts).
  const rows = createUnchangedMemo<{ session: SessionRow | null; key: ApiKeyRow | null; user: UserRow | null }>(deps.store);
  const sessionRows = (hash: string) =>
    rows.get(`s:${hash}`, async () => {
      const session = await sessions.find(hash);
      return { session, key: null, user: session ? await users.findById(session.user_id) : null };
    });
  const keyRows = (hash: string) =>
    rows.get(`k:${hash}`, async () => {
      const key = await keys.findByHash(hash);
      return { session: null, key, user: key ? await users.findById(key.user_id) : null };
    });

  const due = (hash: string, nowMs: number) => {
    const prev = lastTouch.get(hash);
    if (prev !== undefined && nowMs - prev < TOUCH_INTERVAL_MS) return false;
    if (lastTouch.size > 50_000) lastTouch.clear();
    lastTouch.set(hash, nowMs);
    return true;
  };

  async function viaSession(hash: string, now: Date, via: AuthContext["via"]): Promise<AuthContext | null> {
    const { session, user } = await sessionRows(hash);
    // Same comparison as SQL's `expires_at > ?` on the stored text: both are "YYYY-MM-DD HH:MM:SS".
    if (!session || !(session.expires_at > toStamp(now))) return null;
    if (!user || user.disabled_at !== null) return null;
    if (due(hash, now.getTime())) await sessions.slide(hash, toStamp(addDays(now, SESSION_DAYS)), toStamp(now));
    return { user, plan: effectivePlan(user, now), scopes: null, via, sessionHash: hash };
  }

  async function viaKey(hash: string, now: Date, via: AuthContext["via"]): Promise<AuthContext | null> {
    const { key: k, user } = await keyRows(hash);
    if (!k) return null;
    if (!user || user.disabled_at !== null) return null;
    if (due(hash, now.getTime())) await keys.touch(k.id, toStamp(now));
    return { user, plan: effectivePlan(user, now), scopes: k.scopes, via, sessionHash: null };
  }

  return {
    async resolve(headers: Headers, now: Date): Promise<AuthContext | null> {
      const authz = headers.get("authorization");
      if (authz) {
        const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
        if (m) {
          const hash = sha256Hex(m[1]);
          const hit = (await viaSession(hash, now, "session-bearer")) ?? (await viaKey(hash, now, "api-key-bearer"));
          if (hit) return hit;
        }
      }
      const apiKey = headers.get("x-api-key");
      if (apiKey && apiKey.startsWith("svc_")) {
        const hit = await viaKey(sha256Hex(apiKey), now, "api-key-header");
        if (hit) return hit;
      }
      const cookie = readCookie(headers.get("cookie"), SESSION_COOKIE);
      if (cookie) return viaSession(sha256Hex(cookie), now, "session-cookie");
      return null;
    },
    /** Forget throttling state for a credential (after revocation) so nothing stale lingers. */
    forget(hash: string) {
      lastTouch.delete(hash);
    },
  };
}
