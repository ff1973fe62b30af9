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

  /** What decide() settled on: the reply's recipient, subject and text. */
  interface Reply { userId: string; to: string; subject: string; text: string }

  return {
    /**
     * Whether this outcome gets a reply, by the account's settings as they are when the message was filed (read here,
     * before the message is synced and moved: a reply turned on just after must not answer mail filed before it).
     */
    async decide(outcome: FileOutcome): Promise<Reply | null> {
      if (outcome.kind === "duplicate" || outcome.userId === null || !outcome.mail) return null;
      const { mail, userId } = outcome;
      const text = replyText(outcome);
      if (text === null || mail.automated || mail.from === null) return null;
      const user = await users.findById(userId);
      const settings = parseCaptureSettings(user?.settings_json);
      if (!user || !settings.email_capture_reply) return null;
      if (smtpUnavailableReason(deps.config)) return null;
      const to = replyRecipient(mail, user.email, settings);
      if (to === null) {
        deps.log.info("capture reply skipped", { user_id: userId, reason: "the sender is not authenticated, nor the account's own or an allow-listed address" });
        return null;
      }
      const now = deps.clock().getTime();
      const recent = (sent.get(userId) ?? []).filter((t) => now - t < 3_600_000);
      if (recent.length >= REPLIES_PER_HOUR) {
        deps.log.info("capture reply skipped", { user_id: userId, reason: `more than ${REPLIES_PER_HOUR} replies in the last hour` });
        return null;
      }
      recent.push(now);
      sent.set(userId, recent);
      return { userId, to, subject: `Re: ${mail.subject || mail.title}`.slice(0, 250), text };
    },

    /** Sends a reply decide() settled on; a failure is logged, never thrown. */
    async send(reply: Reply | null): Promise<void> {
      if (!reply) return;
      const { userId, to, subject, text } = reply;
      try {
        await mailerFor(deps).send({ to, subject, text, html: `<p>${escapeHtml(text).replace(/\n/g, "<br>")}</p>` });
      } catch (e) {
        deps.log.warn("capture reply failed", { user_id: userId, error: (e as Error).message });
      }
    },
  };
}
