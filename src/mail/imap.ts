// The IMAP adapter of capture by e-mail (imapflow): one logged-in session on the capture folder; the rest of the code
// sees list, read, move and "new mail" only.
import type { ImapFlow as ImapClient } from "imapflow";
import type { Config } from "../config";

export interface ImapSession {
  /** The server's hierarchy delimiter ("/" or "." on most servers). */
  delimiter: string;
  /** Every message in the folder: UID and size (RFC822.SIZE), oldest first. */
  list(): Promise<{ uid: number; size: number }[]>;
  /** The raw message. */
  source(uid: number): Promise<Buffer>;
  /** Moves a message to a folder given with "/" between levels; false when the server refused. */
  move(uid: number, folder: string): Promise<boolean>;
  /** Called when the server announces new mail (IDLE or any untagged EXISTS). */
  onNewMail(listener: () => void): void;
  /** Resolves when the connection is gone, with why. */
  closed: Promise<Error>;
  close(): Promise<void>;
}

/** A failure worth a clear line in health and the log; `auth` marks a refused login (retried much less often). */
export class ImapFailure extends Error {
  constructor(message: string, readonly auth = false) {
    super(message);
  }
}

/** The folder setting ("idearepo/Done") in the server's own hierarchy. */
export const serverPath = (folder: string, delimiter: string) => folder.split("/").filter(Boolean).join(delimiter);

/** A readable reason for a failed connect or command, never holding the password. */
export function describeImapError(e: unknown, imap: Config["imap"]): ImapFailure {
  const err = e as { message?: string; code?: string; authenticationFailed?: boolean; responseText?: string; serverResponseCode?: string };
  let message: string;
  let auth = false;
  if (err.authenticationFailed) {
    auth = true;
    message = `IMAP login refused for the configured user (imap.user, imap.pass): ${err.responseText || "authentication failed"}`;
  } else if (err.code === "ECONNREFUSED") message = `cannot connect to ${imap.host}:${imap.port}: connection refused`;
  else if (err.code === "ENOTFOUND" || err.code === "EAI_AGAIN") message = `cannot resolve ${imap.host}`;
  else if (err.code === "ETIMEDOUT" || err.code === "CONNECT_TIMEOUT" || err.code === "GREETING_TIMEOUT") message = `no answer from ${imap.host}:${imap.port} (timed out)`;
  else message = err.responseText || err.message || String(e);
  if (imap.pass) message = message.split(imap.pass).join("[redacted]");
  return new ImapFailure(message, auth);
}

/** Logs in, finds the delimiter, creates the folders named in `ensure` when missing and selects the capture folder. */
export async function openImapSession(imap: Config["imap"], ensure: string[]): Promise<ImapSession> {
  // Loaded when mail capture first connects: a server without it never holds imapflow (~4 MB of heap).
  const { ImapFlow } = await import("imapflow");
  const client: ImapClient = new ImapFlow({
    host: imap.host!,
    port: imap.port,
    secure: imap.secure,
    auth: { user: imap.user ?? "", pass: imap.pass ?? "" },
    logger: false,
    // IDLE starts as soon as the connection is quiet, so new mail is announced at once (imapflow's default waits 15 s).
    autoIdleDelay: 50,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 5 * 60_000,
  });
  let failed: (e: Error) => void = () => {};
  const closed = new Promise<Error>((resolve) => (failed = resolve));
  client.on("error", (e: Error) => failed(describeImapError(e, imap)));
  client.on("close", () => failed(new ImapFailure("the IMAP connection closed")));
  try {
    await client.connect();
    const folders = await client.list();
    const delimiter = folders.find((f) => f.delimiter)?.delimiter ?? "/";
    for (const name of ensure) {
      const path = serverPath(name, delimiter);
      if (folders.some((f) => f.path === path)) continue;
      try {
        await client.mailboxCreate(path);
      } catch (e) {
        if ((e as { serverResponseCode?: string }).serverResponseCode !== "ALREADYEXISTS") throw e;
      }
    }
    await client.mailboxOpen(imap.folder);
    return {
      delimiter,
      async list() {
        const out: { uid: number; size: number }[] = [];
        if (!client.mailbox || client.mailbox.exists === 0) return out;
        for await (const m of client.fetch("1:*", { uid: true, size: true })) out.push({ uid: m.uid, size: m.size ?? 0 });
        return out.sort((a, b) => a.uid - b.uid);
      },
      async source(uid) {
        const m = await client.fetchOne(String(uid), { source: true }, { uid: true });
        if (!m || !m.source) throw new ImapFailure(`message ${uid} vanished before it could be read`);
        return m.source;
      },
      async move(uid, folder) {
        const done = await client.messageMove(String(uid), serverPath(folder, delimiter), { uid: true });
        return done !== false;
      },
      onNewMail(listener) {
        client.on("exists", listener);
      },
      closed,
      async close() {
        try {
          await client.logout();
        } catch {
          client.close();
        }
      },
    };
  } catch (e) {
    client.close();
    throw describeImapError(e, imap);
  }
}
