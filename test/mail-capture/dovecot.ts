// A real Dovecot IMAP server for the capture tests: its own config, passwd-file and Maildir in a temp folder, on loopback.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { ImapFlow } from "imapflow";
import { tempDir } from "../cli";

export const DOVECOT = "/usr/sbin/dovecot";
export const MAILBOX_USER = "ideas";
export const MAILBOX_PASS = "correct-horse-battery";
export const MAILBOX_ADDRESS = "ideas@example.org";

/**
 * Why Dovecot cannot run here, or null when it can. In CI a missing Dovecot is a failure (.ci/run installs it); on a
 * person's machine the tests skip and print this.
 */
export function dovecotMissing(): string | null {
  if (!existsSync(DOVECOT)) return `${DOVECOT} is not installed (Debian: apt-get install dovecot-imapd)`;
  return null;
}

/** Skips the file's tests with a message on a person's machine; in CI (process.env.CI) a missing Dovecot fails. */
export function requireDovecot(): boolean {
  const missing = dovecotMissing();
  if (missing === null) return true;
  if (process.env.CI) throw new Error(`Dovecot is required in CI: ${missing}`);
  console.warn(`skipping the e-mail capture tests: ${missing}`);
  return false;
}

/** A port the OS just handed out and released (Dovecot needs a number in its config). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Dovecot {
  port: number;
  dir: string;
  /** The IMAP settings idearepo needs for this server. */
  imap(over?: Record<string, unknown>): { host: string; port: number; secure: boolean; user: string; pass: string; folder: string; done_folder: string; address: string };
  /** A plain imapflow client logged in as the mailbox user (the test's own mail client). */
  client(): Promise<ImapFlow>;
  /** APPENDs a raw message to a folder (INBOX by default), as a delivery agent or another mail client would. */
  append(raw: string | Buffer, folder?: string): Promise<void>;
  /** Messages in a folder: UID, Message-ID and subject, from the server. */
  list(folder: string): Promise<{ uid: number; messageId: string | undefined; subject: string | undefined }[]>;
  /** Lets the mailbox user insert into `folder` again, or takes that right away (a global ACL file, re-read at once). */
  denyInsert(folder: string | null): void;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * Who Dovecot's processes run as. As a normal user: that user throughout. As root (CI): Dovecot refuses root for its
 * login and mail processes, so they run as the package's own users and the mailbox belongs to `nobody`.
 */
function runAs(): { login: string; internal: string; group: string; uid: number; gid: number } {
  const name = (args: string[]) => spawnSync("id", args).stdout.toString().trim();
  if (process.getuid!() !== 0) return { login: name(["-un"]), internal: name(["-un"]), group: name(["-gn"]), uid: process.getuid!(), gid: process.getgid!() };
  const known = (user: string) => spawnSync("getent", ["passwd", user]).status === 0;
  return { login: known("dovenull") ? "dovenull" : "nobody", internal: known("dovecot") ? "dovecot" : "nobody", group: known("dovecot") ? "dovecot" : "nogroup", uid: 65534, gid: 65534 };
}

function config(dir: string, port: number): string {
  const me = runAs();
  return `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_login_user = ${me.login}
default_internal_user = ${me.internal}
default_internal_group = ${me.group}
first_valid_uid = 1
first_valid_gid = 1
mail_location = maildir:${dir}/mail/%u:LAYOUT=fs
mail_plugins = acl
protocol imap {
  mail_plugins = acl imap_acl
}
plugin {
  acl = vfile:${dir}/global-acl:cache_secs=0
}
namespace inbox {
  inbox = yes
  separator = /
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${me.uid} gid=${me.gid} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
service stats {
  unix_listener stats-writer {
    mode = 0666
  }
}
`;
}

/** Pids whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        const stat = readFileSync(`/proc/${n}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

export async function startDovecot(): Promise<Dovecot> {
  const dir = tempDir("idearepo-dovecot-");
  for (const d of ["run", "state", "mail", "home"]) mkdirSync(join(dir, d), { recursive: true });
  const owner = runAs();
  chmodSync(dir, 0o755); // Dovecot's auth and mail processes (not root) read the passwd-file and the Maildir below it
  for (const d of ["mail", "home"]) chownSync(join(dir, d), owner.uid, owner.gid);
  writeFileSync(join(dir, "passwd"), `${MAILBOX_USER}:{PLAIN}${MAILBOX_PASS}\n`);
  writeFileSync(join(dir, "global-acl"), "");
  const port = await freePort();
  const conf = join(dir, "dovecot.conf");
  writeFileSync(conf, config(dir, port));
  let proc: ChildProcess | null = null;

  /** True when the port answers with Dovecot's greeting (its login process is ready, not just the listener). */
  const greets = () =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 1000);
      const done = (v: boolean) => { clearTimeout(timer); resolve(v); };
      Bun.connect({
        hostname: "127.0.0.1", port,
        socket: { data: (sock, b) => { done(b.toString().startsWith("* OK")); sock.end(); }, error: () => done(false), connectError: () => done(false), close: () => done(false) },
      }).catch(() => done(false));
    });

  async function waitListening(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await greets()) return;
      if (proc?.exitCode !== null && proc?.exitCode !== undefined) break;
      await Bun.sleep(50);
    }
    const log = existsSync(join(dir, "dovecot.log")) ? readFileSync(join(dir, "dovecot.log"), "utf8") : "";
    throw new Error(`Dovecot did not start on 127.0.0.1:${port}:\n${log.slice(-2000)}`);
  }

  const d: Dovecot = {
    port,
    dir,
    imap: (over = {}) => ({
      host: "127.0.0.1", port, secure: false, user: MAILBOX_USER, pass: MAILBOX_PASS, folder: "INBOX", done_folder: "idearepo/Done", address: MAILBOX_ADDRESS,
      ...over,
    }),
    async client() {
      const c = new ImapFlow({ host: "127.0.0.1", port, secure: false, auth: { user: MAILBOX_USER, pass: MAILBOX_PASS }, logger: false, disableAutoIdle: true });
      await c.connect();
      return c;
    },
    async append(raw, folder = "INBOX") {
      const c = await d.client();
      try {
        await c.append(folder, raw);
      } finally {
        await c.logout().catch(() => c.close());
      }
    },
    async list(folder) {
      const c = await d.client();
      try {
        const out: { uid: number; messageId: string | undefined; subject: string | undefined }[] = [];
        const status = await c.status(folder, { messages: true }).catch(() => null);
        if (!status || !status.messages) return out;
        const lock = await c.getMailboxLock(folder);
        try {
          for await (const m of c.fetch("1:*", { uid: true, envelope: true })) out.push({ uid: m.uid, messageId: m.envelope?.messageId, subject: m.envelope?.subject });
        } finally {
          lock.release();
        }
        return out;
      } finally {
        await c.logout().catch(() => c.close());
      }
    },
    denyInsert(folder) {
      writeFileSync(join(dir, "global-acl"), folder === null ? "" : `${folder} user=${MAILBOX_USER} lrwste\n`);
    },
    async start() {
      proc = spawn(DOVECOT, ["-F", "-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      proc.stderr!.on("data", (b) => (stderr += b));
      try {
        await waitListening(10_000);
      } catch (e) {
        proc.kill("SIGKILL");
        throw new Error(`${(e as Error).message}\n${stderr}`);
      }
    },
    async stop() {
      if (!proc || proc.exitCode !== null) return;
      const p = proc;
      const exited = new Promise((resolve) => p.once("exit", resolve));
      // Dovecot's per-connection processes can outlive a stopped master with their client still attached; a server
      // that goes down drops its connections, so they are ended too (by pid: the master's own children).
      const children = childrenOf(p.pid!);
      p.kill("SIGTERM");
      await Promise.race([exited, Bun.sleep(5000)]);
      if (p.exitCode === null) p.kill("SIGKILL");
      for (const pid of children) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      proc = null;
      // Login processes can outlive the master for a moment, still holding the listener: wait until nothing answers.
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && (await greets())) await Bun.sleep(50);
    },
    async destroy() {
      await d.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await d.start();
  // The mailbox is used once before any test sees it, as a real account's would have been: Dovecot 2.3 creates a
  // fresh Maildir's INBOX and its mailbox list index on first use, and two sessions doing that at once (the server
  // under test opening INBOX while the test APPENDs) can deadlock on the index's fcntl locks; Dovecot then panics and
  // kills one session ("Resource deadlock avoided", 2 in 90 tries here), which CI saw as a refused or dropped APPEND.
  const first = await d.client();
  try {
    await first.mailboxOpen("INBOX");
  } finally {
    await first.logout().catch(() => first.close());
  }
  return d;
}
