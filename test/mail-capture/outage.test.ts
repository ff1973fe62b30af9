// Capture by e-mail when the mailbox misbehaves: down at start, down mid-session, a wrong password. Health says so,
// the log says why (never the password), retries back off, and mail is filed once the mailbox is back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { call, type TestUser } from "../helpers";
import { MAILBOX_PASS, requireDovecot, startDovecot, type Dovecot } from "./dovecot";
import { captureEmailOf, compose, logged, makeUser, startCaptureApp, until, waitForIdeas, type CaptureApp } from "./fixtures";

const run = requireDovecot();
let d: Dovecot;
const apps: CaptureApp[] = [];

beforeAll(async () => {
  if (run) d = await startDovecot();
});
afterAll(async () => {
  for (const a of apps) await a.stop();
  await d?.destroy();
});

async function start(over: Parameters<Dovecot["imap"]>[0] = {}) {
  const a = await startCaptureApp(d.imap(over));
  apps.push(a);
  const u: TestUser = await makeUser(a.t, { plan: "pro" });
  return { a, u, address: await captureEmailOf(a.t, u) };
}
const health = async (a: CaptureApp) => (await call(a.t, "GET", "/health")).body.mail_capture;

describe.skipIf(!run)("the mailbox down", () => {
  test("at start: health says failing with the reason; once it is up, mail waiting there is filed", async () => {
    await d.stop();
    const { a, u, address } = await start();
    await until(async () => (await health(a)).state === "failing", 3000);
    expect(await health(a)).toMatchObject({ state: "failing", error: `cannot connect to 127.0.0.1:${d.port}: connection refused` });
    expect(logged(a.logs, "mail capture failing")[0]).toMatchObject({ retry_in_s: 1 });
    await d.start();
    await d.append(await compose({ to: address, subject: "Waited for the mailbox", text: "sent while idearepo could not connect" }));
    const ideas = await waitForIdeas(a.t, u, 1, 10_000); // backoff 1 s, 2 s, 4 s …
    expect(ideas[0].title).toBe("Waited for the mailbox");
    expect((await health(a)).state).toBe("connected");
    await a.stop();
    apps.splice(apps.indexOf(a), 1);
  }, 20_000);

  test("mid-session: the reader notices, reconnects with backoff, and files what arrived meanwhile", async () => {
    const { a, u, address } = await start();
    await until(async () => (await health(a)).state === "connected", 5000);
    await d.stop();
    await until(async () => (await health(a)).state === "failing", 5000);
    expect((await health(a)).error, a.logs.join("\n")).toBeString();
    await d.start();
    await d.append(await compose({ to: address, subject: "After the outage", text: "the server came back" }));
    const ideas = await waitForIdeas(a.t, u, 1, 10_000);
    expect(ideas.map((i) => i.title)).toEqual(["After the outage"]);
    expect((await health(a)).state).toBe("connected");
    const failing = logged(a.logs, "mail capture failing");
    expect(failing.length).toBeGreaterThanOrEqual(1);
    expect(failing.length).toBeLessThanOrEqual(4); // a few backed-off attempts, not a hot loop
  }, 20_000);
});

describe.skipIf(!run)("a wrong password", () => {
  test("a clear error in health and the log, no password anywhere, and no hot retry loop", async () => {
    const wrong = "not-the-password-42";
    const { a } = await start({ pass: wrong });
    await until(async () => (await health(a)).state === "failing", 5000);
    const h = await health(a);
    expect(h.error).toStartWith("IMAP login refused for the configured user (imap.user, imap.pass):");
    const line = logged(a.logs, "mail capture failing")[0];
    expect(line).toMatchObject({ error: h.error, retry_in_s: 60 });
    await Bun.sleep(2500);
    // One login attempt in these seconds (the next is a minute away), counted by Dovecot itself.
    const dovecotLog = readFileSync(join(d.dir, "dovecot.log"), "utf8");
    expect(dovecotLog.split("\n").filter((l) => l.includes("auth failed")).length).toBe(1);
    expect(logged(a.logs, "mail capture failing")).toHaveLength(1);
    const all = a.logs.join("\n") + JSON.stringify((await call(a.t, "GET", "/health")).body);
    expect(all).not.toContain(wrong);
    expect(all).not.toContain(MAILBOX_PASS);
  }, 20_000);
});
