// Capture addresses: a random lowercase base32 token plus-addressed onto imap.address, and the token read back from one.
import { randomBytes } from "node:crypto";

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
/** 20 characters of base32: 100 random bits (the issue asks for at least 80). */
export const TOKEN_LENGTH = 20;

export function newToken(): string {
  const bytes = randomBytes(TOKEN_LENGTH);
  let out = "";
  for (const b of bytes) out += BASE32[b & 31];
  return out;
}

/** ideas@example.org + token → ideas+token@example.org. */
export function captureAddress(mailbox: string, token: string): string {
  const at = mailbox.lastIndexOf("@");
  return `${mailbox.slice(0, at)}+${token}@${mailbox.slice(at + 1)}`;
}

/**
 * The tokens among recipient addresses that are plus-addresses of the mailbox (local part and domain compared without
 * case), in the order given. Anything after the token (a second "+", a typo) makes it no token at all.
 */
export function tokensIn(mailbox: string, recipients: string[]): string[] {
  const at = mailbox.lastIndexOf("@");
  const local = mailbox.slice(0, at).toLowerCase();
  const domain = mailbox.slice(at + 1).toLowerCase();
  const out: string[] = [];
  for (const r of recipients) {
    const i = r.lastIndexOf("@");
    if (i < 0 || r.slice(i + 1).toLowerCase() !== domain) continue;
    const lp = r.slice(0, i).toLowerCase();
    if (!lp.startsWith(`${local}+`)) continue;
    const token = lp.slice(local.length + 1);
    if (new RegExp(`^[a-z2-7]{${TOKEN_LENGTH}}$`).test(token) && !out.includes(token)) out.push(token);
  }
  return out;
}
