// Invitations: an operator-made account without a password gets a one-time token; the invitee sets the password with it.
import type { Deps } from "../../deps";
import { badRequest } from "../../errors";
import { randomHex, sha256Hex } from "../../lib/crypto";
import { addDays, toStamp } from "../../lib/time";
import { createUsersRepo } from "../users/repo";
import { createUsersService } from "../users/service";
import { createSignInService } from "../sign-in/service";
import { createAdminRepo } from "./repo";
import type { AcceptInvitationBody } from "./model";

export const INVITATION_DAYS = 7;
// One answer for unknown, used, expired and disabled: a guesser learns nothing about which tokens ever existed.
const invalid = () => badRequest("Invitation is invalid or has expired");

export function createInvitationsService(deps: Deps) {
  const repo = createAdminRepo(deps.store);
  const users = createUsersRepo(deps.store);
  const accounts = createUsersService(deps);
  const signIn = createSignInService(deps);

  return {
    /** Mints a token for the account; it is shown once (in the create response) and stored only as its SHA-256. */
    async issue(userId: string, createdBy: string) {
      const now = deps.clock();
      const token = randomHex(32);
      const expires_at = toStamp(addDays(now, INVITATION_DAYS));
      await repo.insertInvitation({ token_hash: sha256Hex(token), user_id: userId, created_by: createdBy, expires_at, used_at: null, created_at: toStamp(now) });
      return { token, expires_at };
    },
    /** Sets the invitee's password and signs them in, answering exactly like POST /auth/login. */
    async accept(body: AcceptInvitationBody) {
      const hash = sha256Hex(body.token);
      const invitation = await repo.findInvitation(hash);
      const user = invitation ? await users.findById(invitation.user_id) : null;
      if (!invitation || !user || user.disabled_at !== null) throw invalid();
      // The claim is one conditional UPDATE, so two requests racing with the same token cannot both win.
      if (!(await repo.useInvitation(hash, toStamp(deps.clock())))) throw invalid();
      await accounts.setPassword(user.id, body.password);
      deps.log.info("invitation accepted", { user_id: user.id });
      return signIn.openSession((await users.findById(user.id))!);
    },
  };
}
