// First run: an instance with no account is claimed by whoever holds the one-time code printed in the server log.
//
// Without the code, anyone on the LAN who opened the page first would own the instance. The code lives in memory
// only on SQLite (a restart prints a new one), in app_state on PostgreSQL (every node prints and accepts the same one:
// code-repo.ts), is compared in constant time, and stops working once the owner exists.
import { timingSafeEqual } from "node:crypto";
import type { Deps } from "../../deps";
import { AppError, fieldError, forbidden, formFieldError, OperatorError, rateLimited } from "../../errors";
import { onePer } from "../../lib/one-per";
import { createUsersRepo } from "../users/repo";
import { createUsersService } from "../users/service";
import { createSignInService } from "../sign-in/service";
import type { RegisterBody, SetupBody } from "./model";
import { memoryCodeHolder, sharedCodeHolder } from "./code-repo";

// No 0/O, 1/I/L: the code is read off a terminal and typed by hand.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const MAX_FAILURES = 10;

function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  return `${chars.slice(0, 4).join("")}-${chars.slice(4).join("")}`;
}

const normalize = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, "");

export const createSetupService = onePer(build);

function build(deps: Deps) {
  const users = createUsersRepo(deps.store);
  const accounts = createUsersService(deps);
  const signIn = createSignInService(deps);
  const code = deps.store.dialect === "postgres" ? sharedCodeHolder(deps.store, deps.clock, newCode, MAX_FAILURES) : memoryCodeHolder(newCode);

  const needsSetup = async () => (await users.countUsers()) === 0;

  /** The account rules speak CLI sentences; in the browser they belong next to the field they are about. */
  async function create(input: Parameters<typeof accounts.createAccount>[0]) {
    try {
      return await accounts.createAccount(input);
    } catch (e) {
      if (e instanceof OperatorError) throw formFieldError(e, "email");
      throw e;
    }
  }

  return {
    status: async () => ({ needs_setup: await needsSetup(), registration_open: deps.config.registration_open }),
    /**
     * The current one-time code, minted on first use while the instance has no account; null once it has one. A server
     * starting passes `renewSpent`: a code spent by wrong guesses is replaced (on PostgreSQL for every node).
     */
    async currentCode(renewSpent = false): Promise<string | null> {
      if (!(await needsSetup())) {
        await code.clear();
        return null;
      }
      return code.current(renewSpent);
    },
    async complete(body: SetupBody) {
      if (!(await needsSetup())) throw forbidden("This instance is already set up: sign in instead");
      if ((await code.failures()) >= MAX_FAILURES) throw rateLimited(); // restart the server for a new code
      const expected = Buffer.from(normalize((await this.currentCode()) ?? ""));
      const given = Buffer.from(normalize(body.setup_code));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        await code.fail();
        throw fieldError("setup_code", "That is not the setup code printed in the server log");
      }
      // The owner runs the instance on their own machine: every feature is theirs (an operator can change plans later).
      const user = await create({ email: body.email, name: body.display_name, password: body.password, plan: "pro", operator: true });
      await code.clear();
      deps.log.info("instance set up", { user_id: user.id });
      return signIn.openSession(user);
    },
    async register(body: RegisterBody) {
      if (!deps.config.registration_open) throw new AppError(403, { error: "Registration is closed: ask the operator of this instance for an account" });
      const user = await create({ email: body.email, name: body.display_name, password: body.password, plan: "free" });
      return signIn.openSession(user);
    },
  };
}
