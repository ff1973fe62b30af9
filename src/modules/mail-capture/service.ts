// Capture-by-e-mail rules: each account's address, and one received message filed as ideas (or refused, with why).
import { accountLock } from "../../db/store";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { toStamp } from "../../lib/time";
import { createFiling } from "../filing/write";
import { createRelationsService } from "../relations/service";
import { draftsOf } from "../import/shape";
import { captureAddress, newToken, tokensIn } from "./address";
import { parseCapture, type ParsedCapture } from "./parse";
import { createMailCaptureRepo } from "./repo";
import { MAX_LINKS_PER_MESSAGE, MAX_MESSAGE_BYTES, parseCaptureSettings } from "./model";
import { senderRefusal } from "./senders";
import { smtpUnavailableReason } from "../../mail/transport";

/** What became of one message; the reader moves it (done or Unmatched) or leaves it for the next pass. */
export type FileOutcome =
  | { kind: "captured"; userId: string; ideas: { id: number; number: number; title: string }[]; mail: ParsedCapture }
  | { kind: "duplicate"; userId: string; ideaId: number | null }
  | { kind: "refused"; reason: string; userId: string | null; mail: ParsedCapture | null };

/** The wording shown in the log and in a reply; never the token or the address itself. */
const errorText = (e: AppError): string => {
  const b = e.body as { error?: unknown; message?: unknown };
  if (typeof b.message === "string") return b.message;
  if (typeof b.error === "string") return b.error;
  return Object.values((b.error ?? {}) as Record<string, string[]>).flat().join("; ");
};

export function createMailCaptureService(deps: Deps) {
  const repo = createMailCaptureRepo(deps.store);
  const filing = createFiling(deps);
  const relations = createRelationsService(deps);
  const mailbox = () => (deps.config.imap.host && deps.config.imap.address ? deps.config.imap.address : null);

  return {
    /** The account's capture address, made on first ask; null when capture by e-mail is off. */
    async addressFor(userId: string): Promise<string | null> {
      const box = mailbox();
      if (box === null) return null;
      let token = await repo.tokenFor(userId);
      if (token === null) {
        await repo.addTokenIfMissing(userId, newToken(), toStamp(deps.clock()));
        token = (await repo.tokenFor(userId))!;
      }
      return captureAddress(box, token);
    },

    /**
     * What this instance can do for the account's capture options (read-only, beside the address in GET
     * /user/shortcuts): authenticate senders (a trusted mail server is configured, so email_capture_authenticated_only
     * can file anything) and send replies (SMTP is configured). Both false while capture by e-mail is off.
     */
    abilities(): { capture_email_can_authenticate: boolean; capture_email_can_reply: boolean } {
      const on = mailbox() !== null;
      return {
        capture_email_can_authenticate: on && deps.config.imap.trusted_authserv_ids.length > 0,
        capture_email_can_reply: on && smtpUnavailableReason(deps.config) === null,
      };
    },

    /** A new address; the old one files nothing from this moment (mail to it goes to Unmatched). */
    async regenerate(userId: string): Promise<string | null> {
      const box = mailbox();
      if (box === null) return null;
      const token = newToken();
      await repo.setToken(userId, token, toStamp(deps.clock()));
      return captureAddress(box, token);
    },

    /**
     * Files one raw message. The ideas and the message's key commit in one transaction, so the same message (again,
     * or after a crash before the reader moved it) finds its key and files nothing. Errors of the database are thrown:
     * the message then stays in the folder for the next pass.
     */
    async fileMessage(raw: Buffer, size = raw.length): Promise<FileOutcome> {
      const box = mailbox();
      if (box === null) return { kind: "refused", reason: "capture by e-mail is off", userId: null, mail: null };
      if (size > MAX_MESSAGE_BYTES) return { kind: "refused", reason: `message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MB`, userId: null, mail: null };
      let mail: ParsedCapture;
      try {
        mail = await parseCapture(raw, deps.config.imap.trusted_authserv_ids);
      } catch (e) {
        return { kind: "refused", reason: `unreadable message: ${(e as Error).message}`, userId: null, mail: null };
      }
      let owner = null;
      for (const t of tokensIn(box, mail.recipients)) if ((owner = await repo.ownerOfToken(t)) !== null) break;
      if (!owner) return { kind: "refused", reason: "no live capture address among the recipients", userId: null, mail };
      const userId = owner.user_id;
      const refusal = senderRefusal(mail, parseCaptureSettings(owner.settings_json));
      if (refusal !== null) return { kind: "refused", reason: refusal, userId, mail };
      const filer = { plan: owner.plan, user: { id: userId } };
      try {
        // Immediate under the account's lock: the duplicate check and the hourly limit are read, then written, and
        // must not be raced (the message key and the hourly count are the account's; the capture inside is too).
        const outcome = await deps.store.tx(async (): Promise<FileOutcome> => {
          const seen = await repo.capturedIdea(userId, mail.messageKey);
          if (seen !== undefined) return { kind: "duplicate", userId, ideaId: seen };
          const now = deps.clock();
          const hourAgo = toStamp(new Date(now.getTime() - 3_600_000));
          if ((await repo.capturesSince(userId, hourAgo)) >= deps.config.imap.hourly_limit) {
            return { kind: "refused", reason: `more than ${deps.config.imap.hourly_limit} messages in the last hour (imap.hourly_limit)`, userId, mail };
          }
          const drafts = draftsOf({ origin: mail.messageKey, title: mail.title, body: mail.body, tags: mail.tags, links: mail.links, related: [], problems: [] });
          const made: { id: number; number: number; title: string }[] = [];
          const stamp = toStamp(now);
          for (const d of drafts) {
            // The write path (filing/write.ts): Free cap, number, row, tags, jobs; a savepoint inside this transaction.
            const { row } = await filing.fileIdea(filer, { title: d.title, body: d.body, status: "captured", source: "email", source_url: null, parent_id: null, tags: d.tags });
            const id = row.id;
            const links = d.links.slice(0, MAX_LINKS_PER_MESSAGE).map((l) => ({ url: l.url, title: l.title, link_type: "url", created_at: stamp }));
            await filing.addToIdea(id, [], links);
            made.push({ id, number: row.number, title: d.title });
            if (made.length > 1) await relations.create(userId, { source_idea_id: id, target_idea_id: made[0].id, relation_type: "related" }, false);
          }
          await repo.recordCapture(userId, mail.messageKey, made[0].id, stamp);
          return { kind: "captured", userId, ideas: made, mail };
        }, { immediate: true, lock: accountLock(userId) });
        // fileIdea woke the worker inside this transaction; once more now that the jobs are committed.
        if (outcome.kind === "captured") filing.wake();
        return outcome;
      } catch (e) {
        // The Free cap, a tag the API would refuse …: the same answer as any capture, kept as the reason.
        if (e instanceof AppError) return { kind: "refused", reason: errorText(e), userId, mail };
        throw e;
      }
    },
  };
}
export type MailCaptureService = ReturnType<typeof createMailCaptureService>;
