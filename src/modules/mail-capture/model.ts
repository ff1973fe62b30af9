// Capture by e-mail: its fixed limits and the shapes of its routes and health report.
import { t } from "elysia";

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

// The account's capture options are part of the contract (the web app's settings page reads and explains them).
export { parseCaptureSettings, type CaptureSettings } from "../../contract";
