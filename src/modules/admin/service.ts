// The operator's account rules: list, create (with a password or an invitation), change plan/trial/password, disable,
// delete.
//
// The operator sees accounts, never their content: no idea, provider key or API key ever appears in these answers.
import type { Deps } from "../../deps";
import { badRequest, conflict, fieldError, formFieldError, notFound, OperatorError } from "../../errors";
import { effectivePlan, isTrialing } from "../../auth/plans";
import { toStamp } from "../../lib/time";
import { createUsersRepo, type UserRow } from "../users/repo";
import { createUsersService } from "../users/service";
import { createAdminRepo } from "./repo";
import { createInvitationsService } from "./invitations";
import { createAccountDeletion } from "../users/deletion";
import type { CreateUserBody, UpdateUserBody } from "./model";

export function createAdminService(deps: Deps) {
  const users = createUsersRepo(deps.store);
  const accounts = createUsersService(deps);
  const repo = createAdminRepo(deps.store);
  const invitations = createInvitationsService(deps);
  const deletion = createAccountDeletion(deps);

  async function toAdminUser(row: UserRow) {
    const now = deps.clock();
    return {
      id: row.id,
      email: row.email,
      display_name: row.display_name,
      plan: effectivePlan(row, now),
      is_operator: row.is_operator === 1,
      disabled: row.disabled_at !== null,
      is_trialing: isTrialing(row, now),
      // The payment subscription's last known status (docs/billing.md); null when the account never had one.
      subscription_status: row.subscription_status,
      trial_ends_at: row.trial_ends_at,
      active_idea_count: await users.countActiveIdeas(row.id),
      created_at: row.created_at,
    };
  }

  async function mustFind(id: string): Promise<UserRow> {
    const row = await users.findById(id);
    if (!row) throw notFound("User not found");
    return row;
  }

  async function setDisabled(row: UserRow, disabled: boolean) {
    if (disabled === (row.disabled_at !== null)) return;
    const now = toStamp(deps.clock());
    await deps.store.tx(async () => {
      await users.update(row.id, { disabled_at: disabled ? now : null, updated_at: now });
      // Credentials of a disabled account already stop working; its sessions are ended so re-enabling signs nobody in.
      if (disabled) await repo.deleteSessionsOf(row.id);
    });
  }

  return {
    listUsers: async () => {
      const out = [];
      for (const row of await users.list()) out.push(await toAdminUser(row));
      return { users: out };
    },

    /** Every plan change of the account, newest first: who made it (operator, command line, billing) and why. */
    async history(id: string) {
      await mustFind(id);
      return {
        history: (await users.listHistory(id)).map((h) => ({
          source: h.source,
          plan_before: h.plan_before,
          plan_after: h.plan_after,
          note: h.note,
          created_at: h.created_at,
        })),
      };
    },

    async createUser(operatorId: string, body: CreateUserBody) {
      let row: UserRow;
      try {
        row = await accounts.createAccount({ email: body.email, name: body.display_name, password: body.password ?? null, plan: body.plan ?? "free" });
      } catch (e) {
        // The account rules speak CLI sentences; here they belong next to the field they are about.
        if (e instanceof OperatorError) throw formFieldError(e, "email");
        throw e;
      }
      deps.log.info("account created by operator", { user_id: row.id, operator_id: operatorId, invited: body.password === undefined });
      if (body.password !== undefined) return { user: await toAdminUser(row) };
      return { user: await toAdminUser(row), invitation: await invitations.issue(row.id, operatorId) };
    },

    async updateUser(operatorId: string, id: string, body: UpdateUserBody) {
      const row = await mustFind(id);
      if (body.plan !== undefined && body.trial_days !== undefined) throw badRequest("Give plan or trial_days, not both");
      if (body.disabled === true && id === operatorId) throw badRequest("You cannot disable your own account");
      if (body.password !== undefined) await accounts.setPassword(id, body.password);
      if (body.plan !== undefined) await accounts.setPlan(id, body.plan, "operator");
      if (body.trial_days !== undefined) await accounts.startTrial(id, body.trial_days, "operator");
      if (body.disabled !== undefined) await setDisabled(row, body.disabled);
      deps.log.info("account changed by operator", { user_id: id, operator_id: operatorId, fields: Object.keys(body) });
      return { user: await toAdminUser(await mustFind(id)) };
    },

    /**
     * Deletes an account and everything it owns (users/deletion.ts). Not the operator's own (an instance keeps a
     * working operator; a person deletes their own account in Settings), and not while a paid subscription runs: the
     * payment provider would go on charging for an account that no longer exists.
     */
    async deleteUser(operatorId: string, id: string) {
      const row = await mustFind(id);
      if (id === operatorId) throw badRequest("You cannot delete your own account here: use Settings → Delete account");
      if (row.subscription_id) {
        throw conflict("This account's subscription is still running: cancel it at the payment provider first (or use `idearepo users delete` on the server)");
      }
      const { ideas, tags } = await deletion.deleteAccount(id, "operator");
      return { deleted: { id, ideas, tags } };
    },
  };
}
