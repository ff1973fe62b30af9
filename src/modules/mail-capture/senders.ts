// Who may file into an account by e-mail, and who may be answered: the allow-list, authenticated senders, reply targets.
import type { CaptureSettings } from "./model";
import type { ParsedCapture } from "./parse";

type Sender = Pick<ParsedCapture, "from" | "senderAuth">;

function onAllowList(from: string, allowed: string[]): boolean {
  return allowed.some((a) => (a.startsWith("@") ? from.endsWith(a) : from === a));
}

/** Why the account's sender rules refuse this message, or null when they let it through. */
export function senderRefusal(mail: Sender, settings: CaptureSettings): string | null {
  if (settings.email_capture_authenticated_only && mail.senderAuth !== "pass") {
    return mail.senderAuth === "unchecked"
      ? "the sender cannot be authenticated: this server trusts no mail server's Authentication-Results (imap.trusted_authserv_ids)"
      : "the sender is not authenticated (no DMARC pass or aligned DKIM signature from the trusted mail server)";
  }
  const allowed = settings.email_capture_senders;
  if (allowed.length > 0 && (mail.from === null || !onAllowList(mail.from, allowed))) {
    return "the sender is not on the account's list of allowed senders";
  }
  return null;
}

/**
 * Where a reply may go: the From, when the operator's mail server authenticated it, or when it is the account's own
 * sign-in address or an address (not a whole "@domain") on its allow-list. Anything else is a From anyone could have
 * written, and answering it would let whoever knows the capture address make this server mail a stranger.
 */
export function replyRecipient(mail: Sender, ownAddress: string, settings: CaptureSettings): string | null {
  if (mail.from === null) return null;
  if (mail.senderAuth === "pass") return mail.from;
  if (mail.from === ownAddress.toLowerCase() || settings.email_capture_senders.includes(mail.from)) return mail.from;
  return null;
}
