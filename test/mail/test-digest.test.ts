// POST /user/test-digest over HTTP: sent at once to the caller's own address; 500 with the reason when it cannot be.
import { describe, expect, test } from "bun:test";
import { call, makeUser } from "../helpers";
import { startFakeSmtp } from "../fakes/smtp";
import { captureAt, makeMailApp, setSettings, useMailApp } from "./mail-app";

const { smtp, t } = useMailApp({ users: { mailer: "s3cret-smtp-pass" } });

describe("POST /user/test-digest", () => {
  test("sends the digest to the account's own address at once and answers {success, content} with the text part", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const idea = await captureAt(t, u, 1, { title: "Rain barrel sensor" });
    await captureAt(t, u, 50, { title: "Old stale thing" });
    const r = await call(t, "POST", "/user/test-digest", { key: u.key });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["content", "success"]);
    expect(r.body.success).toBe(true);
    expect(smtp.mails).toHaveLength(1);
    const m = smtp.mails[0];
    expect(m.envelopeTo).toEqual([u.email]);
    expect(m.subject).toBe("[Test] Your idearepo week: 1 new idea, 1 stale");
    expect(r.body.content).toBe(m.text);
    expect(r.body.content).toContain(`#${idea.number} Rain barrel sensor`);
    expect(r.body.content).toContain("Old stale thing");
    expect(m.html).toContain("Rain barrel sensor");
  });

  test("sends even with nothing to report and with the weekly digest switched off (it was asked for)", async () => {
    const u = await makeUser(t);
    await setSettings(t, u, { weekly_digest: false });
    const r = await call(t, "POST", "/user/test-digest", { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body.content).toContain("Nothing new this week.");
    expect(smtp.mails[0].subject).toBe("[Test] Your idearepo week: nothing new");
  });

  test("does not count as the week's digest: the Sunday run still sends", async () => {
    const { runWeeklyDigest } = await import("../../src/mail/digest");
    const u = await makeUser(t);
    await captureAt(t, u, 1, { title: "Counted once" });
    await call(t, "POST", "/user/test-digest", { key: u.key });
    expect((await runWeeklyDigest(t.deps)).sent).toBe(1);
    expect(smtp.mails).toHaveLength(2);
  });

  test("only the caller's ideas, only to the caller", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    await captureAt(t, b, 1, { title: "Someone else's plan" });
    const r = await call(t, "POST", "/user/test-digest", { key: a.key });
    expect(r.body.content).not.toContain("Someone else's plan");
    expect(smtp.mails.map((m) => m.envelopeTo)).toEqual([[a.email]]);
  });

  test("SMTP authentication uses smtp.user/smtp.pass; a rejected login is 500 without the password", async () => {
    const t = makeMailApp(smtp, { smtp: { user: "mailer", pass: "s3cret-smtp-pass" } });
    const u = await makeUser(t);
    expect((await call(t, "POST", "/user/test-digest", { key: u.key })).status).toBe(200);
    expect(smtp.mails[0].authUser).toBe("mailer");

    const wrongPass = makeMailApp(smtp, { smtp: { user: "mailer", pass: "wrong-pass-123" } });
    const v = await makeUser(wrongPass);
    const r = await call(wrongPass, "POST", "/user/test-digest", { key: v.key });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: expect.stringContaining("535") });
    expect(r.text).not.toContain("wrong-pass-123");
  });
});

describe("POST /user/test-digest failures: 500 with the underlying message", () => {
  test("no SMTP configured", async () => {
    const t = makeMailApp(null);
    const u = await makeUser(t);
    const r = await call(t, "POST", "/user/test-digest", { key: u.key });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: "SMTP is not configured: set smtp.host (IDEAREPO_SMTP_HOST) to send e-mail" });
  });

  test("the server refuses the message", async () => {
    const u = await makeUser(t);
    smtp.failNext = "554 Message rejected as spam";
    const r = await call(t, "POST", "/user/test-digest", { key: u.key });
    expect(r.status).toBe(500);
    expect(r.body.error).toContain("Message rejected as spam");
    expect(Object.keys(r.body)).toEqual(["error"]);
  });

  test("smtp.require_tls against a server without STARTTLS", async () => {
    const t = makeMailApp(smtp, { smtp: { require_tls: true } });
    const u = await makeUser(t);
    const r = await call(t, "POST", "/user/test-digest", { key: u.key });
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/STARTTLS/i);
    expect(smtp.mails).toHaveLength(0);
  });

  test("nothing listens on the SMTP port", async () => {
    const closed = await startFakeSmtp();
    await closed.stop();
    const t = makeMailApp(closed);
    const u = await makeUser(t);
    const r = await call(t, "POST", "/user/test-digest", { key: u.key });
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/ECONNREFUSED|connect/i);
  });
});
