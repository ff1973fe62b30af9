// The optional answer to a captured (or refused) e-mail: off unless the account turned it on, only to a sender it may go
// to (senders.ts), at most REPLIES_PER_HOUR per account, never to automated mail; sent through the SMTP settings.
import type { Deps } from "../deps";
import { createUsersRepo } from "../modules/users/repo";
import { replyRecipient } from "../modules/mail-capture/senders";
import { parseCaptureSettings, REPLIES_PER_HOUR } from "../modules/mail-capture/model";
import type { FileOutcome } from "../modules/mail-capture/service";
import { mailerFor, smtpUnavailableReason } from "./transport";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The reply's text, or null when this outcome gets none (a message for no account, a duplicate, automated mail). */
export function replyText(outcome: FileOutcome): string | null {
  if (outcome.kind === "captured") {
    const [first, ...parts] = outcome.ideas;
    const more = parts.length ? `\n\nIt was long, so it was split: ${parts.map((p) => `#${p.number}`).join(", ")} hold the rest.` : "";
    return `Captured as #${first.number}: ${first.title}${more}`;
  }
  if (outcome.kind === "refused" && outcome.userId !== null) return `Not captured: ${outcome.reason}.`;
  return null;
}

export function createCaptureReplier(deps: Deps) {
  const users = createUsersRepo(deps.store);
  /** Per account, when its replies of the last hour went out (memory only: a restart forgets, a loop still cannot run). */
  const sent = new Map<string, number[]>();

  return {
    async reply(outcome: FileOutcome): Promise<void> {
      if (outcome.kind === "duplicate" || outcome.userId === null || !outcome.mail) return;
      const { mail, userId } = outcome;
      const text = replyText(outcome);
      if (text === null || mail.automated || mail.from === null) return;
      const user = await users.findById(userId);
      const settings = parseCaptureSettings(user?.settings_json);
      if (!user || !settings.email_capture_reply) return;
      if (smtpUnavailableReason(deps.config)) return;
      const to = replyRecipient(mail, user.email, settings);
      if (to === null) {
        deps.log.info("capture reply skipped", { user_id: userId, reason: "the sender is not authenticated, nor the account's own or an allow-listed address" });
        return;
      }
      const now = deps.clock().getTime();
      const recent = (sent.get(userId) ?? []).filter((t) => now - t < 3_600_000);
      if (recent.length >= REPLIES_PER_HOUR) {
        deps.log.info("capture reply skipped", { user_id: userId, reason: `more than ${REPLIES_PER_HOUR} replies in the last hour` });
        return;
      }
      recent.push(now);
      sent.set(userId, recent);
      const subject = `Re: ${mail.subject || mail.title}`.slice(0, 250);
      try {
        await mailerFor(deps).send({ to, subject, text, html: `<p>${escapeHtml(text).replace(/\n/g, "<br>")}</p>` });
      } catch (e) {
        deps.log.warn("capture reply failed", { user_id: userId, error: (e as Error).message });
      }
    },
  };
}
