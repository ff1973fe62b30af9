// A real SMTP server on 127.0.0.1 (npm smtp-server) that keeps every message, plus just enough MIME parsing to
// read recipients, subject and the text/HTML parts the way a mail client would.
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";

export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  authUser: string | null;
  headers: Record<string, string>;
  subject: string;
  from: string;
  to: string;
  text: string;
  html: string;
  contentType: string;
  raw: string;
}

export interface FakeSmtp {
  port: number;
  mails: ReceivedMail[];
  /** When set, the next DATA is refused with this SMTP reply (e.g. "451 Try again later"). */
  failNext: string | null;
  /** Forgets received mail and any pending refusal, so each test starts from an empty inbox. */
  reset(): void;
  stop(): Promise<void>;
}

export async function startFakeSmtp(opts: { users?: Record<string, string> } = {}): Promise<FakeSmtp> {
  const fake: FakeSmtp = {
    port: 0,
    mails: [],
    failNext: null,
    reset() {
      this.mails.length = 0;
      this.failNext = null;
    },
    stop: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, cb) {
      const ok = opts.users && opts.users[auth.username ?? ""] === auth.password;
      if (!ok) return cb(new Error("535 Authentication failed"));
      cb(null, { user: auth.username });
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (fake.failNext) {
          const reply = fake.failNext;
          fake.failNext = null;
          const err = Object.assign(new Error(reply.replace(/^\d{3} /, "")), { responseCode: Number(reply.slice(0, 3)) });
          return cb(err);
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        fake.mails.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          authUser: (session.user as string | undefined) ?? null,
          ...parseMessage(raw),
          raw,
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.server.address() as AddressInfo).port;
  fake.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

// ---- minimal MIME reading (RFC 5322 headers, RFC 2047 encoded words, multipart, QP/base64 bodies) ----

function splitHead(raw: string): { head: string; body: string } {
  const i = raw.indexOf("\r\n\r\n");
  return i === -1 ? { head: raw, body: "" } : { head: raw.slice(0, i), body: raw.slice(i + 4) };
}

function parseHeaders(head: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const c = line.indexOf(":");
    if (c > 0) out[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
  }
  return out;
}

function decodeQpBytes(s: string): Buffer {
  const bytes: number[] = [];
  const src = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < src.length; i++) {
    if (src[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(src.slice(i + 1, i + 3))) {
      bytes.push(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(src[i], "utf8"));
    }
  }
  return Buffer.from(bytes);
}

export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _cs, enc: string, data: string) =>
      enc.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : decodeQpBytes(data.replace(/_/g, " ")).toString("utf8"),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? "7bit").toLowerCase()) {
    case "quoted-printable":
      return decodeQpBytes(body).toString("utf8");
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

function collectParts(head: Record<string, string>, body: string, into: { text: string; html: string }): void {
  const type = head["content-type"] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith("multipart/") && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith("--")) break;
      const { head: h, body: b } = splitHead(section.replace(/^\r\n/, ""));
      collectParts(parseHeaders(h), b.replace(/\r\n$/, ""), into);
    }
    return;
  }
  const decoded = decodeBody(body, head["content-transfer-encoding"]).replace(/\r\n/g, "\n");
  if (type.toLowerCase().startsWith("text/html")) into.html += decoded;
  else if (type.toLowerCase().startsWith("text/plain")) into.text += decoded;
}

export function parseMessage(raw: string) {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const parts = { text: "", html: "" };
  collectParts(headers, body, parts);
  return {
    headers,
    subject: decodeWords(headers.subject ?? ""),
    from: decodeWords(headers.from ?? ""),
    to: decodeWords(headers.to ?? ""),
    contentType: headers["content-type"] ?? "",
    ...parts,
  };
}
