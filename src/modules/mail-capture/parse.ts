// A raw e-mail message as a capture: the addresses it was sent to, its title, tags, Markdown body, links and attachments.
import { createHash } from "node:crypto";
import type { AddressObject } from "mailparser";
import { htmlToMarkdown } from "../import/sources/html-to-markdown";
import { externalLinks, titleFromText } from "../import/sources/reader-kit";
import { LIMITS } from "../../contract";
import { senderAuthentication, type SenderAuth } from "./auth-results";

export interface ParsedCapture {
  /** The Message-ID, or `sha256:<hex>` of the raw bytes when the message has none (what "the same message" means). */
  messageKey: string;
  /** Every address the message was delivered to: To, Cc, Delivered-To and X-Original-To, in that order, lower case. */
  recipients: string[];
  /** The sender's address (lower case), or null. Only a hint: anyone can write any From (docs/email.md). */
  from: string | null;
  /**
   * Whether the operator's own mail server authenticated that From (auth-results.ts): "pass" only then. A message with
   * more than one From header or address is never authenticated (DMARC itself refuses those).
   */
  senderAuth: SenderAuth;
  /** The subject as written (decoded), for a reply's "Re:". */
  subject: string;
  title: string;
  tags: string[];
  body: string;
  links: { url: string; title: string | null }[];
  /** Mail that must never be answered automatically (Auto-Submitted, Precedence bulk/list/junk, no sender). */
  automated: boolean;
}

const PREFIX = /^\s*(?:(?:re|fwd?|fw)(?:\[\d+\])?\s*:\s*)+/i;
/** `#tag` in a subject: a word of letters, digits, `_`, `-` or `/`, after a space or at the start. */
const SUBJECT_TAG = /(^|\s)#([\p{L}\p{N}_\-/]+)/gu;
/** The RFC 3676 signature separator ("-- " on its own line); the HTML converter trims the space away. */
const SIGNATURE = /^--[ \u00a0]?$/m;

/** Cuts a title over LIMITS.title characters at the last space before the limit, marked with "…". */
export function cutTitle(title: string): string {
  const cps = [...title];
  if (cps.length <= LIMITS.title) return title;
  const head = cps.slice(0, LIMITS.title - 1).join("");
  const space = head.lastIndexOf(" ");
  return `${(space > LIMITS.title / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** "Re: Fwd: Bike rack idea #garage #diy" → title "Bike rack idea", tags garage, diy. */
export function titleAndTags(subject: string): { title: string; tags: string[] } {
  const tags: string[] = [];
  const rest = subject.replace(PREFIX, "").replace(SUBJECT_TAG, (_, lead: string, tag: string) => {
    const name = tag.replace(/\/+$/, "");
    if (name && !/^[\d/]+$/.test(name) && !tags.includes(name)) tags.push(name);
    return name && !/^[\d/]+$/.test(name) ? lead : `${lead}#${tag}`;
  });
  return { title: rest.replace(/\s+/g, " ").trim(), tags };
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const out: string[] = [];
  const walk = (list: { address?: string; group?: unknown[] }[]) => {
    for (const a of list) {
      if (a.address) out.push(a.address.toLowerCase());
      if (a.group) walk(a.group as { address?: string }[]);
    }
  };
  for (const obj of [field ?? []].flat()) walk(obj.value);
  return out;
}

/** Addresses in raw header lines (Delivered-To, X-Original-To): plain `local@domain` tokens, never encoded. */
function rawAddresses(lines: readonly { key: string; line: string }[], key: string): string[] {
  return lines
    .filter((l) => l.key === key)
    .flatMap((l) => addressTokens(l.line.slice(l.line.indexOf(":") + 1)));
}

/**
 * The runs of characters other than white space and `<>,;:"` that hold an `@` with something on both sides: what
 * `/[^\s<>,;:"]+@[^\s<>,;:"]+/g` matched, without its pattern, which went back over a long run from each of its
 * characters (a 50 KB Delivered-To line without an `@` took 21 s).
 */
function addressTokens(text: string): string[] {
  return text.split(/[\s<>,;:"]+/).filter((t) => t.slice(1, -1).includes("@")).map((t) => t.toLowerCase());
}

function bodyText(text: string | undefined, html: string | false | undefined): string {
  let body = text && text.trim() !== "" ? text : html ? htmlToMarkdown(html).markdown : "";
  body = body.replace(/\r\n?/g, "\n");
  const sig = SIGNATURE.exec(body);
  if (sig) body = body.slice(0, sig.index);
  return trimLineEnds(body).trim();
}

/** Spaces and tabs at the end of each line removed, by hand: `/[ \t]+$/gm` went on from every one of a long run of them. */
function trimLineEnds(text: string): string {
  // Split keeping the separators: `$` under the m flag also ends a line before \r, U+2028 and U+2029.
  return text.split(/([\n\r\u2028\u2029])/).map((l, i) => {
    if (i % 2) return l;
    let end = l.length;
    while (end > 0 && (l[end - 1] === " " || l[end - 1] === "\t")) end--;
    return l.slice(0, end);
  }).join("");
}

/** `trustedAuthservIds`: imap.trusted_authserv_ids, whose Authentication-Results are believed (none: "unchecked"). */
export async function parseCapture(raw: Buffer, trustedAuthservIds: readonly string[] = []): Promise<ParsedCapture> {
  // Loaded with the first mail: most servers never read any, and mailparser's module graph is ~4 MB of heap at idle.
  const { simpleParser } = await import("mailparser");
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, keepCidLinks: false });
  const headerLines = mail.headerLines ?? [];
  const recipients = [
    ...addressesOf(mail.to),
    ...addressesOf(mail.cc),
    ...rawAddresses(headerLines, "delivered-to"),
    ...rawAddresses(headerLines, "x-original-to"),
  ];
  const from = addressesOf(mail.from)[0] ?? null;
  const single = headerLines.filter((l) => l.key === "from").length === 1 && addressesOf(mail.from).length === 1;
  const auth = senderAuthentication(headerLines, from === null ? null : from.slice(from.lastIndexOf("@") + 1), trustedAuthservIds);
  const subject = (mail.subject ?? "").trim();
  let body = bodyText(mail.text, mail.html);
  const { title: fromSubject, tags } = titleAndTags(subject);
  const title = cutTitle(fromSubject || titleFromText(body) || "E-mail without a subject");
  const files = mail.attachments
    .filter((a) => a.contentDisposition === "attachment" || (a.filename && !a.related))
    .map((a) => a.filename || a.contentType);
  if (files.length > 0) body = `${body}${body ? "\n\n" : ""}Attachments (not stored): ${files.join(", ")}`;
  const autoSubmitted = String(mail.headers.get("auto-submitted") ?? "no").toLowerCase();
  const precedence = String(mail.headers.get("precedence") ?? "").toLowerCase();
  return {
    messageKey: mail.messageId?.trim() || `sha256:${createHash("sha256").update(raw).digest("hex")}`,
    recipients,
    from,
    senderAuth: single || auth === "unchecked" ? auth : "none",
    subject,
    title,
    tags,
    body,
    links: externalLinks(body),
    automated: from === null || autoSubmitted !== "no" || ["bulk", "list", "junk"].includes(precedence),
  };
}
