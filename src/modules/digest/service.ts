// POST /user/test-digest: send the digest now; any failure is the spec's 500 with the underlying message.
import type { Deps } from "../../deps";
import { internal } from "../../errors";
import { sendTestDigest } from "../../mail/digest";
import { MailError } from "../../mail/transport";

export function createDigestService(deps: Deps) {
  return {
    async sendTest(userId: string) {
      try {
        return await sendTestDigest(deps, userId);
      } catch (e) {
        if (!(e instanceof MailError)) throw e;
        deps.log.warn("test digest not delivered", { user_id: userId, error: e.message });
        throw internal(e.message);
      }
    },
  };
}
