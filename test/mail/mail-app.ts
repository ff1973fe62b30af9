// Mail test fixtures: an app pointed at the loopback SMTP server, ideas captured at chosen moments via the API.
import { expect } from "bun:test";
import type { Config } from "../../src/config";
import { call, makeApp, type TestApp, type TestUser } from "../helpers";
import type { FakeSmtp } from "../fakes/smtp";

/** Sunday 2026-11-22 09:00 UTC: the default digest_cron's moment. */
export const SUNDAY = "2026-11-22T09:00:00Z";
export const FROM = "idearepo <digest@idearepo.test>";

export function smtpConfig(smtp: FakeSmtp, over: Partial<Config["smtp"]> = {}): Config["smtp"] {
  return { host: "127.0.0.1", port: smtp.port, secure: false, require_tls: false, user: null, pass: null, from: FROM, ...over };
}

export function makeMailApp(smtp: FakeSmtp | null, opts: { now?: string; logs?: string[]; smtp?: Partial<Config["smtp"]> } = {}): TestApp {
  return makeApp({ now: opts.now ?? SUNDAY, logs: opts.logs, config: smtp ? { smtp: smtpConfig(smtp, opts.smtp) } : {} });
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
