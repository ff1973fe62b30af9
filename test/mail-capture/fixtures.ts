// Capture-by-e-mail fixtures: an app whose IMAP reader runs against the test's Dovecot, messages as mail clients write them.
import MailComposer from "nodemailer/lib/mail-composer";
import type Mail from "nodemailer/lib/mailer";
import type { Config } from "../../src/config";
import { createMailCaptureReader } from "../../src/mail/capture-reader";
import type { BackgroundProcess } from "../../src/background-process";
import { call, makeApp, makeUser, type TestApp, type TestUser } from "../helpers";
import type { Dovecot } from "./dovecot";

export interface CaptureApp {
  t: TestApp;
  reader: BackgroundProcess;
  logs: string[];
  stop(): Promise<void>;
}

/** An in-memory app with its IMAP reader started on `imap` (a poll of 60 s, so fast delivery proves IDLE). */
export async function startCaptureApp(imap: Partial<Config["imap"]>, config: Partial<Config> = {}): Promise<CaptureApp> {
  const logs: string[] = [];
  const t = makeApp({ logs, config: { ...config, imap: { poll_seconds: 60, hourly_limit: 60, ...imap } as Config["imap"] } });
  const reader = createMailCaptureReader(t.deps);
  await reader.start(t.deps);
  // Connected before the test mails anything (a loaded machine can take a moment to log in).
  if (imap.host) await until(() => t.deps.engines.mailCapture?.health().state !== "connecting", 15_000);
  return {
    t,
    reader,
    logs,
    async stop() {
      await reader.stop();
      t.close();
    },
  };
}

/** A message built by nodemailer's MailComposer, byte for byte what nodemailer (and mail clients like it) send. */
export async function compose(opts: Mail.Options): Promise<Buffer> {
  return new MailComposer({ from: "Ann Writer <ann@example.com>", date: new Date(), ...opts }).compile().build();
}

/** The account's capture address from GET /user/shortcuts. */
export async function captureEmailOf(t: TestApp, u: TestUser): Promise<string> {
  const r = await call(t, "GET", "/user/shortcuts", { key: u.key });
  if (r.status !== 200 || typeof r.body.capture_email !== "string") throw new Error(`no capture address: ${r.status} ${r.text}`);
  return r.body.capture_email;
}

/** Polls `cond` every 50 ms until it holds or `ms` pass; returns its last value. */
export async function until<T>(cond: () => Promise<T> | T, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let v = await cond();
  while (!v && Date.now() < deadline) {
    await Bun.sleep(50);
    v = await cond();
  }
  return v;
}

/** The account's ideas, newest first, as the API lists them. */
export async function ideasOf(t: TestApp, u: TestUser): Promise<any[]> {
  const r = await call(t, "GET", "/ideas?limit=100", { key: u.key });
  return r.body.ideas;
}

/** Waits until the account holds `n` ideas (at most `ms`), then returns them with their details. */
export async function waitForIdeas(t: TestApp, u: TestUser, n: number, ms = 15_000): Promise<any[]> {
  await until(async () => (await ideasOf(t, u)).length >= n, ms);
  const list = await ideasOf(t, u);
  return Promise.all(list.map(async (i) => (await call(t, "GET", `/ideas/${i.id}`, { key: u.key })).body));
}

/** Waits until `folder` holds `n` messages (at most `ms`). */
export async function waitForFolder(d: Dovecot, folder: string, n: number, ms = 15_000) {
  await until(async () => (await d.list(folder)).length >= n, ms);
  return d.list(folder);
}

export { makeUser };
export const logged = (logs: string[], msg: string) => logs.map((l) => JSON.parse(l)).filter((l) => l.msg === msg);
