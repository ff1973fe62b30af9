// Account rules: creating users (operator CLI), the User object the spec shows, profile and settings edits, plans.
import { hashPassword } from "../../auth/passwords";
import type { Deps } from "../../deps";
import { fieldError, notFound, OperatorError } from "../../errors";
import { isTrialing, effectivePlan } from "../../auth/plans";
import { addDays, fromStamp, toStamp } from "../../lib/time";
import { createUsersRepo, type HistoryRow, type UserRow } from "./repo";
import type { UpdateMeBody } from "./model";
import { EMAIL_RE } from "../../contract";
import { captureSettingsProblem, sanitizeSettings, settingsRecord } from "../../contract";
import { createApiKeysService } from "../api-keys/service";
import { createSessionsRepo } from "../../auth/sessions-repo";
import { codePoints } from "../../contract";

export interface AccountInput { email: string; plan?: string; name?: string; password?: string | null; operator?: boolean }

export function createUsersService(deps: Deps) {
  const repo = createUsersRepo(deps.store);
  const keys = createApiKeysService(deps);
  const sessions = createSessionsRepo(deps.store);

  function toUser(row: UserRow, now: Date) {
    return {
      id: row.id,
      email: row.email,
      display_name: row.display_name,
      avatar_url: row.avatar_url,
      plan: effectivePlan(row, now),
      settings_json: row.settings_json,
      has_provider_a_key: row.provider_a_key_enc !== null,
      has_provider_b_key: row.provider_b_key_enc !== null,
      has_provider_c_key: row.provider_c_key_enc !== null,
      trial_ends_at: row.trial_ends_at,
      trial_used: row.trial_used,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  async function toUserWithStats(row: UserRow, now: Date) {
    const trialing = isTrialing(row, now);
    return {
      ...toUser(row, now),
      active_idea_count: await repo.countActiveIdeas(row.id),
      // An addition to the spec's User (GET only): the web app shows the operator's page to the operator alone.
      is_operator: row.is_operator === 1,
      is_trialing: trialing,
      trial_days_remaining: trialing ? Math.ceil((fromStamp(row.trial_ends_at!).getTime() - now.getTime()) / 86_400_000) : null,
    };
  }

  /** Checks an account's fields (OperatorError with a sentence a person can act on, naming the field) and builds its row. */
  async function prepareAccount(input: AccountInput) {
    const email = input.email.trim();
    if (!EMAIL_RE.test(email)) throw new OperatorError(`Invalid e-mail address: ${input.email}`, { field: "email" });
    const plan = input.plan ?? "free";
    if (plan !== "free" && plan !== "pro") throw new OperatorError(`Invalid plan "${plan}": use free or pro`, { field: "plan" });
    const name = (input.name ?? email.split("@")[0]).trim();
    const nameChars = codePoints(name);
    if (nameChars < 1 || nameChars > 100) throw new OperatorError("Display name must be 1-100 characters", { field: "display_name" });
    if (await repo.findByEmail(email)) {
      throw new OperatorError(`A user with e-mail ${email} already exists`, { field: "email", formMessage: "An account with this e-mail already exists" });
    }
    if (input.password !== undefined && input.password !== null && codePoints(input.password) < 8) {
      throw new OperatorError("Password must be at least 8 characters", { field: "password" });
    }
    const now = toStamp(deps.clock());
    return {
      id: crypto.randomUUID(),
      email,
      display_name: name,
      plan: plan as UserRow["plan"],
      password_hash: input.password ? await hashPassword(deps.config, input.password) : null,
      is_operator: input.operator ? 1 : 0,
      trial_ends_at: null,
      trial_used: 0,
      created_at: now,
      updated_at: now,
    };
  }

  /** Applies a plan change and writes it to the account's history, in one transaction. */
  async function changePlan(userId: string, fields: Partial<UserRow>, source: HistoryRow["source"], note: string) {
    const now = deps.clock();
    await deps.store.tx(async () => {
      const before = (await repo.findById(userId))!;
      await repo.update(userId, { ...fields, updated_at: toStamp(now) });
      const after = (await repo.findById(userId))!;
      await repo.insertHistory({ user_id: userId, source, plan_before: effectivePlan(before, now), plan_after: effectivePlan(after, now), note, created_at: toStamp(now) });
    });
  }
  const byWhom = (source: HistoryRow["source"]) => (source === "operator" ? "by the operator" : "with the command line");

  async function mustFindByEmail(email: string): Promise<UserRow> {
    const row = await repo.findByEmail(email);
    if (!row) throw new OperatorError(`No user with e-mail ${email}`, { field: "email" });
    return row;
  }

  return {
    toUser,
    findById: repo.findById,
    async getMe(userId: string) {
      const row = await repo.findById(userId);
      if (!row) throw notFound("User not found");
      return toUserWithStats(row, deps.clock());
    },
    async updateMe(userId: string, body: UpdateMeBody) {
      const row = await repo.findById(userId);
      if (!row) throw notFound("User not found");
      const fields: Partial<UserRow> = {};
      if (body.display_name !== undefined) fields.display_name = body.display_name;
      if (body.settings_json !== undefined) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.settings_json);
        } catch {
          parsed = null;
        }
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
          throw fieldError("settings_json", "settings_json must be a JSON object string");
        }
        // Capture by e-mail's keys (an addition, docs/email.md) are refused with a reason: a bad allow-list would read as none.
        const problem = captureSettingsProblem(parsed as Record<string, unknown>, settingsRecord(row.settings_json));
        if (problem !== null) throw fieldError("settings_json", problem);
        // Out-of-range values of the spec's keys are discarded silently (the default applies); other keys are the client's business.
        fields.settings_json = JSON.stringify(sanitizeSettings(parsed as Record<string, unknown>));
      }
      if (Object.keys(fields).length > 0) {
        fields.updated_at = toStamp(deps.clock());
        await repo.update(userId, fields);
      }
      return toUser((await repo.findById(userId))!, deps.clock());
    },

    /** Operator action (CLI): creates the account and mints its first API key in one transaction. */
    async createUser(input: AccountInput) {
      const row = await prepareAccount(input);
      const minted = await deps.store.tx(async () => {
        await repo.insert(row);
        return keys.mint(row.id, "default", null, "manual");
      });
      return { user: toUser((await repo.findById(row.id))!, deps.clock()), api_key: minted.key };
    },
    /** An account made in the browser (first-run setup, open registration): no API key, nobody would ever see it. */
    async createAccount(input: AccountInput): Promise<UserRow> {
      const row = await prepareAccount(input);
      await repo.insert(row);
      return (await repo.findById(row.id))!;
    },
    // Plan, trial and password changes take an account id: the CLI resolves its --email first, the operator's
    // routes (modules/admin) pass the id from the URL; both go through these rules.
    async setPlan(userId: string, plan: string, source: "operator" | "cli" = "cli") {
      if (plan !== "free" && plan !== "pro") throw new OperatorError(`Invalid plan "${plan}": use free or pro`, { field: "plan" });
      // Setting a plan explicitly ends any trial bookkeeping for it.
      await changePlan(userId, { plan, trial_ends_at: null }, source, `Plan set to ${plan === "pro" ? "Pro" : "Free"} ${byWhom(source)}`);
      return toUser((await repo.findById(userId))!, deps.clock());
    },
    async startTrial(userId: string, days: number, source: "operator" | "cli" = "cli") {
      if (!Number.isInteger(days) || days < 1 || days > 365) throw new OperatorError("--days must be a whole number from 1 to 365", { field: "trial_days" });
      const now = deps.clock();
      await changePlan(userId, { plan: "pro", trial_ends_at: toStamp(addDays(now, days)), trial_used: 1 }, source, `Pro trial of ${days} ${days === 1 ? "day" : "days"} started ${byWhom(source)}`);
      return toUserWithStats((await repo.findById(userId))!, now);
    },
    /**
     * A new password ends every sign-in session of the account: a reset is what follows a leaked password, and a session
     * signed in with the old one would otherwise slide on for ever. API keys and MCP tokens are separate credentials,
     * listed and revoked in Settings, and stay.
     */
    setPassword: async (userId: string, password: string) => {
      if (codePoints(password) < 8) throw new OperatorError("Password must be at least 8 characters", { field: "password" });
      const hash = await hashPassword(deps.config, password);
      await deps.store.tx(async () => {
        await repo.update(userId, { password_hash: hash, updated_at: toStamp(deps.clock()) });
        await sessions.deleteForUser(userId);
      });
    },
    list: async () => {
      const out = [];
      for (const r of await repo.list()) out.push(await toUserWithStats(r, deps.clock()));
      return out;
    },
    mustFindByEmail,
    async requireUser(userId: string) {
      const row = await repo.findById(userId);
      if (!row) throw notFound("User not found");
      return row;
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
