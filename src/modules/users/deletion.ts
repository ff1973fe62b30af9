// Deleting an account: the account and everything it owns, in one transaction (docs/auth.md, "Deleting an account").
// The operator's CLI (`users delete`) and the person's own DELETE /user go through here.
import type { Deps } from "../../deps";
import { conflict, fieldError, forbidden, notFound } from "../../errors";
import { knownBackupFiles } from "../admin/scheduled-backups";
import { readState } from "../../vectors/generations";
import { vectorStore } from "../../vectors/store";
import { createSignInService } from "../sign-in/service";
import { createUsersRepo, type UserRow } from "./repo";
import { createDeletionRepo } from "./deletion-repo";

export interface Deleted {
  id: string;
  ideas: number;
  tags: number;
}

export function createAccountDeletion(deps: Deps) {
  const repo = createDeletionRepo(deps.store);
  const users = createUsersRepo(deps.store);
  const signIn = createSignInService(deps);

  /**
   * Removes the account and everything it owns: the account row's foreign keys cascade to ideas (and through them
   * tags on ideas, links, relations, detections, specs, nudges, map positions, import origins; the FTS triggers take
   * the search rows), tags, API keys and MCP tokens, sessions, OAuth codes, invitations, usage counters, mail log,
   * the capture address and its log, agent conversations and the plan history. Jobs and vectors are not foreign
   * keys: they go first, in the same IMMEDIATE transaction, so a crash leaves all of the account or none of it.
   */
  async function deleteAccount(userId: string, by: "cli" | "self" | "operator"): Promise<Deleted> {
    const counts = await repo.scrubbing(userId, async () => {
      const counts = await repo.counts(userId);
      await repo.deleteVectors(userId);
      await repo.deleteJobs(userId);
      if (!(await repo.deleteUser(userId))) throw notFound("User not found");
      return counts;
    });
    // This process's fitted subjects of the account (memory only) go too; other processes see the tables change.
    const state = await readState(deps.store);
    for (const g of [state.active, state.building]) if (g) vectorStore(deps.store, g).forgetSubjects(userId);
    // The id only: never the e-mail or anything the account held. Backups taken before still hold the account: the
    // count of those the instance knows of tells the operator to look (docs/auth.md, "Deleting an account").
    deps.log.info("account deleted", { user_id: userId, by, ideas: counts.ideas, tags: counts.tags, older_backups: (await knownBackupFiles(deps)).length });
    return { id: userId, ...counts };
  }

  /** Another working operator besides this one (an instance must keep one). */
  const otherOperatorExists = async (row: UserRow) =>
    (await users.list()).some((u) => u.id !== row.id && u.is_operator === 1 && u.disabled_at === null);

  return {
    deleteAccount,

    /**
     * The person's own deletion (DELETE /user): the password re-entered, or, for an account that has none (made by
     * the operator with an API key only), its e-mail typed out. Refused while a paid subscription runs (it would go on
     * charging an account that no longer exists) and for the instance's last operator.
     */
    async deleteOwn(userId: string, body: { password?: string; email?: string }): Promise<Deleted> {
      const row = await users.findById(userId);
      if (!row) throw notFound("User not found");
      if (row.password_hash) {
        if (!body.password) throw fieldError("password", "Enter your password to delete your account");
        if (!(await signIn.confirmPassword(row, body.password))) throw forbidden("Password is incorrect");
      } else if ((body.email ?? "").trim().toLowerCase() !== row.email.toLowerCase()) {
        throw fieldError("email", "Type your account's e-mail address to delete it");
      }
      if (row.subscription_id) {
        throw conflict("Your subscription is still running: cancel it first (Settings → Plan → Manage billing), then delete the account");
      }
      if (row.is_operator === 1 && !(await otherOperatorExists(row))) {
        throw conflict("This is the instance's only operator account, so it cannot delete itself; the operator can remove it with `idearepo users delete` on the server");
      }
      return deleteAccount(userId, "self");
    },
  };
}
