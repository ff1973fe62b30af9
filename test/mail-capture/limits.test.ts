// Capture by e-mail within limits: the Free cap, the hourly flood limit, 10 MB, and the optional reply (through a real
// SMTP server) that is off by default, goes only to the sender, never to automated mail, and is rate-limited.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, type TestUser } from "../helpers";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { fill } from "../import/hostile-inputs";
import { smtpConfig } from "../mail/mail-app";
import { requireDovecot, startDovecot, type Dovecot } from "./dovecot";
import { captureEmailOf, compose, ideasOf, logged, makeUser, startCaptureApp, until, waitForFolder, waitForIdeas, type CaptureApp } from "./fixtures";

const run = requireDovecot();
let d: Dovecot;
let smtp: FakeSmtp;
let app: CaptureApp;
let unmatched = 0;

beforeAll(async () => {
  if (!run) return;
  d = await startDovecot();
  smtp = await startFakeSmtp();
  app = await startCaptureApp(d.imap({ hourly_limit: 3 }), { smtp: smtpConfig(smtp) });
});
afterAll(async () => {
  await app?.stop();
  await smtp?.stop();
  await d?.destroy();
});

async function refusedWith(reason: string | RegExp) {
  unmatched++;
  await waitForFolder(d, "idearepo/Unmatched", unmatched);
  const line = logged(app.logs, "mail not captured").at(-1);
  if (typeof reason === "string") expect(line.reason).toBe(reason);
  else expect(line.reason).toMatch(reason);
  return line;
}

describe.skipIf(!run)("limits", () => {
  test("a Free account at its cap: the capture's own refusal, the message to Unmatched", async () => {
    const free: TestUser = await makeUser(app.t, { plan: "free" });
    for (let i = 0; i < 50; i++) expect((await call(app.t, "POST", "/ideas", { key: free.key, body: { title: `idea ${i}` } })).status).toBe(201);
    await d.append(await compose({ to: await captureEmailOf(app.t, free), subject: "One too many", text: "over the cap" }));
    await refusedWith(/^The Free plan holds up to 50 active ideas/);
    expect((await ideasOf(app.t, free)).map((i) => i.title)).not.toContain("One too many");
  }, 30_000);

  test("the hourly flood limit per account (imap.hourly_limit)", async () => {
    const u = await makeUser(app.t, { plan: "pro" });
    const address = await captureEmailOf(app.t, u);
    for (let i = 0; i < 4; i++) await d.append(await compose({ to: address, subject: `Flood ${i}`, text: `message ${i}` }));
    await refusedWith("more than 3 messages in the last hour (imap.hourly_limit)");
    expect((await waitForIdeas(app.t, u, 3)).map((i) => i.title).sort()).toEqual(["Flood 0", "Flood 1", "Flood 2"]);
    app.t.clock.advance(3_601_000); // an hour later the account may file again
    await d.append(await compose({ to: address, subject: "Next hour", text: "fine again" }));
    expect((await waitForIdeas(app.t, u, 4)).map((i) => i.title)).toContain("Next hour");
  }, 30_000);

  test("a subject over 200 characters is cut at a word with …", async () => {
    const u = await makeUser(app.t, { plan: "pro" });
    const subject = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "); // 269 characters
    await d.append(await compose({ to: await captureEmailOf(app.t, u), subject, text: "long subject" }));
    const [idea] = await waitForIdeas(app.t, u, 1);
    expect([...idea.title].length).toBeLessThanOrEqual(200);
    expect(idea.title).toEndWith("…");
    expect(subject.startsWith(idea.title.slice(0, -1) + " ")).toBe(true); // ends on a whole word
  }, 30_000);

  test("messages made to be slow to read are filed within 5 s (200 KB of unclosed <a; a body of spaces under a 50 KB Delivered-To)", async () => {
    // Before the readers were rewritten, each held the server's only thread for minutes (docs/email.md).
    const u = await makeUser(app.t, { plan: "pro" });
    const to = await captureEmailOf(app.t, u);
    const started = Date.now();
    await d.append(await compose({ to, subject: "Unclosed links", html: fill("<a") }));
    await d.append(await compose({ to, subject: "Spaces", text: `${fill(" ")}x`, headers: { "Delivered-To": fill("a", 50_000) } }));
    const titles = async () => (await ideasOf(app.t, u)).map((i) => i.title as string);
    await until(async () => (await titles()).includes("Spaces") && (await titles()).includes("Unclosed links"), 60_000);
    const ms = Date.now() - started;
    expect(await titles()).toContain("Spaces");
    expect((await titles()).filter((t) => t.startsWith("Unclosed links")).length).toBeGreaterThanOrEqual(1);
    expect(ms, `filed in ${(ms / 1000).toFixed(1)} s`).toBeLessThan(5_000);
  }, 90_000);

  test("a message over 10 MB is not downloaded: Unmatched, with the reason", async () => {
    const u = await makeUser(app.t, { plan: "pro" });
    const big = await compose({
      to: await captureEmailOf(app.t, u), subject: "Huge", text: "see attachment",
      attachments: [{ filename: "big.bin", content: Buffer.alloc(8 * 1024 * 1024, 1) }], // base64: ~10.8 MB on the wire
    });
    expect(big.length).toBeGreaterThan(10 * 1024 * 1024);
    await d.append(big);
    await refusedWith("message larger than 10 MB");
    expect(await ideasOf(app.t, u)).toEqual([]);
  }, 30_000);
});

describe.skipIf(!run)("the optional reply", () => {
  test("off by default; on: to the sender only, 'Captured as #n' or why not; never to automated mail", async () => {
    // The account's own sign-in address writes: a From a reply may go to without an authenticated sender (senders.test.ts).
    const u = await makeUser(app.t, { plan: "pro", email: "ann@example.com" });
    const address = await captureEmailOf(app.t, u);
    smtp.reset();
    await d.append(await compose({ to: address, subject: "No reply wanted", text: "default settings" }));
    await waitForIdeas(app.t, u, 1);
    await Bun.sleep(300);
    expect(smtp.mails).toEqual([]);

    expect((await call(app.t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify({ email_capture_reply: true }) } })).status).toBe(200);
    await d.append(await compose({ from: "Ann <ann@example.com>", to: address, cc: "friend@example.com", subject: "Please confirm", text: "reply to me" }));
    await until(() => smtp.mails.length === 1, 5000);
    const [reply] = smtp.mails;
    expect(reply.envelopeTo).toEqual(["ann@example.com"]);
    expect(reply.subject).toBe("Re: Please confirm");
    expect(reply.text).toContain("Captured as #2: Please confirm");

    await d.append(await compose({ to: address, subject: "Out of office", text: "auto", headers: { "Auto-Submitted": "auto-replied" } }));
    await waitForIdeas(app.t, u, 3);
    await Bun.sleep(300);
    expect(smtp.mails).toHaveLength(1);
  }, 30_000);

  test("at most 10 replies per account per hour", async () => {
    const u = await makeUser(app.t, { plan: "pro" });
    const address = await captureEmailOf(app.t, u);
    await call(app.t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify({ email_capture_reply: true, email_capture_senders: ["ann@example.com"] }) } });
    smtp.reset();
    // From the account's own address, which its allow-list forgot: each is refused and answered "Not captured" (the own
    // address is always a reply target), up to the limit.
    for (let i = 0; i < 12; i++) await d.append(await compose({ from: u.email, to: address, subject: `Spam ${i}`, text: "x" }));
    unmatched += 12;
    await waitForFolder(d, "idearepo/Unmatched", unmatched, 10_000);
    await until(() => smtp.mails.length >= 10, 5000);
    await Bun.sleep(300);
    expect(smtp.mails).toHaveLength(10);
    expect(smtp.mails[0].text).toContain("Not captured: the sender is not on the account's list of allowed senders.");
    expect(logged(app.logs, "capture reply skipped")).toHaveLength(2);
  }, 30_000);
});
