// Sign-in: password check, session minting (token shown once, stored hashed), logout, and a brute-force brake.
import type { Deps } from "../../deps";
import { rateLimited, unauthorized } from "../../errors";
import { newSessionToken, sha256Hex } from "../../lib/crypto";
import { addDays, toStamp } from "../../lib/time";
import { onePer } from "../../lib/one-per";
import { SESSION_DAYS } from "../../auth/credentials";
import { hashPassword } from "../../auth/passwords";
import { createSessionsRepo } from "../../auth/sessions-repo";
import { createUsersRepo, type UserRow } from "../users/repo";
import { createUsersService } from "../users/service";
import type { LoginBody } from "./model";
import { memoryFailureCounts, sharedFailureCounts } from "./failures-repo";

const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 15 * 60_000;

// One instance per app, so every sign-in form (API login, MCP consent page) shares one failure count per e-mail.
export const createSignInService = onePer(build);

function build(deps: Deps) {
  const sessions = createSessionsRepo(deps.store);
  const users = createUsersRepo(deps.store);
  const usersService = createUsersService(deps);
  // One process owns a SQLite file; nodes on one PostgreSQL database must count each other's failures (failures-repo.ts).
  const failures = deps.store.dialect === "postgres" ? sharedFailureCounts(deps.store) : memoryFailureCounts();
  // Verifying against a fixed hash when the e-mail is unknown keeps response time from revealing which accounts exist.
  // Made at the first sign-in, not at start-up: a server no one signs in to (a worker node, a CLI, most test servers)
  // never spends the ~200 ms of argon2 on it. Every sign-in waits for it first, so the first one costs the same
  // whether its e-mail is known or not.
  let dummy: Promise<string> | null = null;
  const dummyHash = () => (dummy ??= hashPassword(deps.config, "idearepo-dummy-password"));

  /** Mints a session for an account that has just proven who it is; the token is shown once and stored hashed. */
  async function openSession(user: UserRow) {
    const now = deps.clock();
    const token = newSessionToken();
    const expires_at = toStamp(addDays(now, SESSION_DAYS));
    await sessions.insert({ token_hash: sha256Hex(token), user_id: user.id, expires_at, last_used_at: null, created_at: toStamp(now) });
    return { token, expires_at, user: usersService.toUser(user, now) };
  }

  /**
   * Runs a password check under the brake of `email`: refused once it failed MAX_FAILURES times in the window, counted
   * before the slow hash check (otherwise parallel guesses all pass the test while the first ones are verified: 40 were
   * all checked), and cleared on success.
   */
  async function braked(email: string, check: () => Promise<boolean>): Promise<boolean> {
    const now = deps.clock();
    const key = email.trim().toLowerCase();
    if (!(await failures.take(key, now.getTime(), FAILURE_WINDOW_MS, MAX_FAILURES))) throw rateLimited();
    const ok = await check();
    if (ok) await failures.clear(key);
    return ok;
  }

  return {
    async login(body: LoginBody) {
      let user: UserRow | null = null;
      const ok = await braked(body.email, async () => {
        const fallback = await dummyHash();
        user = await users.findByEmail(body.email.trim());
        const matches = await Bun.password.verify(body.password, user?.password_hash ?? fallback);
        return matches && !!user?.password_hash && user.disabled_at === null;
      });
      if (!ok || !user) throw unauthorized();
      return openSession(user);
    },
    /**
     * A signed-in person's password re-entered to confirm something (deleting the account): the same brake as the
     * sign-in forms, so a stolen session cannot guess the password faster there than at /auth/login.
     */
    confirmPassword: (user: UserRow, password: string) =>
      braked(user.email, async () => !!user.password_hash && (await Bun.password.verify(password, user.password_hash))),
    openSession,
    async logout(sessionHash: string | null) {
      if (sessionHash) await sessions.delete(sessionHash);
      return { success: true as const };
    },
  };
}
