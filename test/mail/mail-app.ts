// Mail test fixtures: an app pointed at the loopback SMTP server, ideas captured at chosen moments via the API.
import { afterAll, beforeAll, beforeEach, expect } from "bun:test";
import type { Config } from "../../src/config";
import { call, makeApp, type TestApp, type TestUser } from "../helpers";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { late } from "../late";

/** Sunday 2026-11-22 09:00 UTC: the default digest_cron's moment. */
export const SUNDAY = "2026-11-22T09:00:00Z";
export const FROM = "idearepo <digest@idearepo.test>";

export function smtpConfig(smtp: FakeSmtp, over: Partial<Config["smtp"]> = {}): Config["smtp"] {
  return { host: "127.0.0.1", port: smtp.port, secure: false, require_tls: false, user: null, pass: null, from: FROM, ...over };
}

export function makeMailApp(smtp: FakeSmtp | null, opts: { now?: string; logs?: string[]; smtp?: Partial<Config["smtp"]> } = {}): TestApp {
  return makeApp({ now: opts.now ?? SUNDAY, logs: opts.logs, config: smtp ? { smtp: smtpConfig(smtp, opts.smtp) } : {} });
}

/**
 * The set-up the mail files share: a loopback SMTP server for the whole file and, before each test, an empty mailbox
 * and a fresh app on it with the clock at SUNDAY (a file's own beforeEach, registered after this call, runs after it).
 */
export function useMailApp(smtpOptions: Parameters<typeof startFakeSmtp>[0] = {}) {
  let smtp: FakeSmtp | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    smtp = await startFakeSmtp(smtpOptions);
  });
  beforeEach(() => {
    t?.close();
    smtp!.reset();
    t = makeMailApp(smtp!);
  });
  afterAll(async () => {
    t?.close();
    await smtp?.stop();
  });
  const server = late("the SMTP server", () => smtp);
  return { smtp: server, t: late("the mail test app", () => t), mailsTo: (email: string) => server.mails.filter((m) => m.envelopeTo.includes(email)) };
}

/** Captures an idea through POST /ideas as if it happened `daysAgo` days before the clock's current time. */
export async function captureAt(t: TestApp, u: TestUser, daysAgo: number, body: Record<string, unknown>): Promise<{ id: number; number: number }> {
  const now = t.clock.now;
  t.clock.set(new Date(now.getTime() - daysAgo * 86_400_000));
  try {
    const r = await call(t, "POST", "/ideas", { key: u.key, body });
    expect(r.status).toBe(201);
    return r.body;
  } finally {
    t.clock.set(now);
  }
}

export const setSettings = async (t: TestApp, u: TestUser, settings: Record<string, unknown>) =>
  expect((await call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify(settings) } })).status).toBe(200);
