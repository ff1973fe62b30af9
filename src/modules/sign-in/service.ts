// Sign-in: password check, session minting (token shown once, stored hashed), logout, and a brute-force brake.
import type { Deps } from "../../deps";
import { rateLimited, unauthorized } from "../../errors";
import { newSessionToken, sha256Hex } from "../../lib/crypto";
import { addDays, toStamp } from "../../lib/time";
import { onePer } from "../../lib/one-per";
import { SESSION_DAYS } from "../../auth/credentials";
import { createSessionsRepo } from "../../auth/sessions-repo";
import { createUsersRepo, type UserRow } from "../users/repo";
import { createUsersService } from "../users/service";
import type { LoginBody } from "./model";

const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 15 * 60_000;
// Verifying against a fixed hash when the e-mail is unknown keeps response time from revealing which accounts exist.
// Hashed off the main thread: a synchronous argon2 hash here added ~140 ms to every start-up.
const DUMMY_HASH = Bun.password.hash("idearepo-dummy-password");

// One instance per app, so every sign-in form (API login, MCP consent page) shares one failure count per e-mail.
export const createSignInService = onePer(build);

function build(deps: Deps) {
  const sessions = createSessionsRepo(deps.db);
  const users = createUsersRepo(deps.db);
  const usersService = createUsersService(deps);
  const failures = new Map<string, number[]>();

  /** Mints a session for an account that has just proven who it is; the token is shown once and stored hashed. */
  function openSession(user: UserRow) {
    const now = deps.clock();
    const token = newSessionToken();
    const expires_at = toStamp(addDays(now, SESSION_DAYS));
    sessions.insert({ token_hash: sha256Hex(token), user_id: user.id, expires_at, last_used_at: null, created_at: toStamp(now) });
    return { token, expires_at, user: usersService.toUser(user, now) };
  }

  return {
    async login(body: LoginBody) {
      const now = deps.clock();
      const key = body.email.trim().toLowerCase();
      const recent = (failures.get(key) ?? []).filter((t) => now.getTime() - t < FAILURE_WINDOW_MS);
      if (recent.length >= MAX_FAILURES) throw rateLimited();
      // Counted before the slow hash check, not after it: otherwise any number of parallel guesses all pass the test
      // above while the first ones are still being verified (40 parallel attempts were all checked).
      failures.set(key, [...recent, now.getTime()]);
      const user = users.findByEmail(body.email.trim());
      const ok = await Bun.password.verify(body.password, user?.password_hash ?? (await DUMMY_HASH));
      if (!user || !user.password_hash || !ok || user.disabled_at !== null) throw unauthorized();
      failures.delete(key);
      return openSession(user);
    },
    openSession,
    logout(sessionHash: string | null) {
      if (sessionHash) sessions.delete(sessionHash);
      return { success: true as const };
    },
  };
}
