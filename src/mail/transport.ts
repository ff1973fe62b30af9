// SMTP delivery through nodemailer, configured once from config.smtp; callers learn why mail cannot be sent.
import type { Transporter } from "nodemailer";
import type { Deps } from "../deps";
import type { Config } from "../config";
import { recordMail } from "../metrics/registry";
import type { Mailer, OutgoingMail } from "./mailer";

export type { Mailer, OutgoingMail };

/** A send that failed; the message is safe to show (the SMTP password is never in it). */
export class MailError extends Error {
  /** The server could not be reached or stopped answering (not a refusal of this one message). */
  constructor(message: string, readonly unreachable = false) {
    super(message);
  }
}

/** nodemailer's codes for a server that is down, silent or dropped the connection, as opposed to one that refused. */
const UNREACHABLE_CODES = new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ECONNREFUSED", "ECONNRESET"]);

/** Why mail cannot go out with this configuration, or null when it can. */
export function smtpUnavailableReason(config: Readonly<Config>): string | null {
  if (!config.smtp.host) return "SMTP is not configured: set smtp.host (IDEAREPO_SMTP_HOST) to send e-mail";
  return null;
}

/** nodemailer is loaded with the first mail sent: a server that sends none never holds it (~2 MB of heap at idle). */
async function createTransport(config: Readonly<Config>): Promise<Transporter> {
  const { smtp } = config;
  const { default: nodemailer } = await import("nodemailer");
  return nodemailer.createTransport({
    host: smtp.host!,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.require_tls,
    auth: smtp.user ? { user: smtp.user, pass: smtp.pass ?? "" } : undefined,
    // Bounded so a dead mail server cannot hold a request (test-digest) or the scheduler for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

/**
 * The mailer for these deps: the one on deps.engines.mailer, made from config.smtp on first use. Throws MailError with
 * the reason when SMTP is not configured.
 */
export function mailerFor(deps: Deps): Mailer {
  const reason = smtpUnavailableReason(deps.config);
  if (reason) throw new MailError(reason);
  return (deps.engines.mailer ??= createMailer(deps));
}

function createMailer(deps: Deps): Mailer {
  let transport: Promise<Transporter> | null = null;
  return {
    async send(mail) {
      try {
        const t = await (transport ??= createTransport(deps.config));
        // The Date header follows the app clock like every other timestamp we write.
        await t.sendMail({ from: deps.config.smtp.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, date: deps.clock() });
        recordMail("sent");
      } catch (e) {
        recordMail("failed");
        const pass = deps.config.smtp.pass;
        let message = (e as Error).message || "SMTP delivery failed";
        if (pass) message = message.split(pass).join("[redacted]");
        throw new MailError(message, UNREACHABLE_CODES.has(String((e as { code?: unknown }).code)));
      }
    },
  };
}
