// Capture by e-mail: its fixed limits and the shapes of its routes and health report.
import { t } from "elysia";
import { settingsRecord } from "../../contract/settings";

/** A message over this size is not read (the 10 MB); it goes to the Unmatched folder. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Links kept from one message's body (a newsletter can hold hundreds). */
export const MAX_LINKS_PER_MESSAGE = 50;
/** Automatic replies one account may cause per hour; more are skipped (logged), so a loop cannot become a flood. */
export const REPLIES_PER_HOUR = 10;

export const CaptureEmailResponse = t.Object({ capture_email: t.Union([t.String(), t.Null()]) });

/** What GET /health says about the mailbox: off, connecting, connected or failing (with a reason free of secrets). */
export interface MailCaptureHealth {
  state: "off" | "connecting" | "connected" | "failing";
  error?: string;
  /** ISO time of the last successful read of the folder. */
  last_read_at?: string;
}

/** The account's capture settings, read from settings_json like the spec's keys: a mistyped value counts as unset. */
export interface CaptureSettings {
  /** Answer each captured (or refused) message to its sender; default false. */
  email_capture_reply: boolean;
  /** Only these senders (addresses, or "@domain") may file ideas; empty (the default): anyone with the address. */
  email_capture_senders: string[];
  /** File only mail whose From the operator's mail server authenticated (DMARC or aligned DKIM); default false. */
  email_capture_authenticated_only: boolean;
}

const SENDER = /^[^@\s]*@[^@\s]+$/;
export const MAX_ALLOWED_SENDERS = 100;

export function parseCaptureSettings(json: string | null | undefined): CaptureSettings {
  const raw = settingsRecord(json);
  const senders = raw.email_capture_senders;
  const valid = Array.isArray(senders) && senders.length <= MAX_ALLOWED_SENDERS
    && senders.every((a) => typeof a === "string" && a.length <= 254 && SENDER.test(a));
  return {
    email_capture_reply: raw.email_capture_reply === true,
    email_capture_authenticated_only: raw.email_capture_authenticated_only === true,
    email_capture_senders: valid ? (senders as string[]).map((a) => a.trim().toLowerCase()) : [],
  };
}
