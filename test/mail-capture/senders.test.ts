// Who sent it: Authentication-Results from the operator's own mail server (imap.trusted_authserv_ids) decide which
// senders count as authenticated, for accounts that file only those and for the optional reply (real Dovecot, real SMTP).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, type TestUser } from "../helpers";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { smtpConfig } from "../mail/mail-app";
import { requireDovecot, startDovecot, type Dovecot } from "./dovecot";
import { captureEmailOf, compose, makeUser, startCaptureApp, until, type CaptureApp } from "./fixtures";

const run = requireDovecot();
const TRUSTED = "mx.example.org";
let d: Dovecot;
let smtp: FakeSmtp;

beforeAll(async () => {
  if (!run) return;
  d = await startDovecot();
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  await smtp?.stop();
  await d?.destroy();
});

/** A message as the receiving server passes it on: its own header lines (milter stamps), then its Received, on top. */
function stamped(lines: string[], message: Buffer): Buffer {
  const received = `Received: from mail.sender.example (mail.sender.example [192.0.2.7]) by ${TRUSTED} (Postfix) with ESMTPS id 4B5C0; Fri, 27 Nov 2026 08:00:00 +0000`;
  return Buffer.concat([Buffer.from([...lines, received, ""].join("\r\n")), message]);
}
const ar = (value: string) => `Authentication-Results: ${value}`;
/** OpenDMARC's and OpenDKIM's stamps as Postfix leaves them: each filter's own line above its result. */
const dmarcPass = (domain: string) => [
  `DMARC-Filter: OpenDMARC Filter v1.4.2 ${TRUSTED} 4B5C0`,
  ar(`${TRUSTED}; dmarc=pass (p=reject dis=none) header.from=${domain}`),
  `DKIM-Filter: OpenDKIM Filter v2.11.0 ${TRUSTED} 4B5C0`,
  ar(`${TRUSTED};\r\n\tdkim=pass (2048-bit key; unprotected) header.d=${domain} header.i=@${domain} header.a=rsa-sha256 header.s=s1 header.b="AbCdEf12"`),
];

const handled = (app: CaptureApp) => app.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "mail captured" || l.msg === "mail not captured");
const replySkips = (app: CaptureApp) => app.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "capture reply skipped");

/** Delivers one message and returns the reader's log line about it (filed or not, why, what the sender's check said). */
async function outcomeOf(app: CaptureApp, raw: Buffer): Promise<Record<string, unknown>> {
  const before = handled(app).length;
  await d.append(raw);
  const ok = await until(() => handled(app).length > before, 15_000);
  if (!ok) throw new Error(`the message was not read within 15 s; log:\n${app.logs.slice(-5).join("\n")}`);
  return handled(app)[before];
}

async function setSettings(app: CaptureApp, u: TestUser, settings: Record<string, unknown>) {
  expect((await call(app.t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify(settings) } })).status).toBe(200);
}

describe.skipIf(!run)("with imap.trusted_authserv_ids set", () => {
  let app: CaptureApp;
  beforeAll(async () => {
    app = await startCaptureApp({ ...d.imap(), trusted_authserv_ids: [TRUSTED] }, { smtp: smtpConfig(smtp) });
  });
  afterAll(async () => {
    await app?.stop();
  });

  test("email_capture_authenticated_only: only the topmost trusted stamp's DMARC pass or aligned DKIM files", async () => {
    const u = await makeUser(app.t, { plan: "pro" });
    await setSettings(app, u, { email_capture_authenticated_only: true });
    const to = await captureEmailOf(app.t, u);
    const refused = { msg: "mail not captured", reason: "the sender is not authenticated (no DMARC pass or aligned DKIM signature from the trusted mail server)" };

    expect(await outcomeOf(app, stamped(dmarcPass("example.com"), await compose({ to, subject: "DMARC pass", text: "a" }))))
      .toMatchObject({ msg: "mail captured", sender_auth: "pass" });
    // No DMARC verdict, but a DKIM signature of the From's parent domain (relaxed alignment).
    expect(await outcomeOf(app, stamped([ar(`${TRUSTED}; dkim=pass header.d=example.com header.s=s1; spf=none smtp.mailfrom=bounce.example.net`)],
      await compose({ from: "ann@mail.example.com", to, subject: "DKIM aligned", text: "b" })))).toMatchObject({ msg: "mail captured", sender_auth: "pass" });

    // The id in other case with a version, a comment holding ";", a quoted value: still the trusted server's DKIM pass.
    expect(await outcomeOf(app, stamped([ar(`MX.Example.ORG 1; spf=none smtp.mailfrom=example.com; dkim=pass (good; 2048-bit key) header.d="example.com"`)],
      await compose({ to, subject: "Written otherwise", text: "b2" })))).toMatchObject({ msg: "mail captured", sender_auth: "pass" });

    // Nothing stamped, another server's stamp, a forged stamp under the trusted server's own, a DMARC failure, a
    // verdict about another domain, a signature of another domain.
    expect(await outcomeOf(app, await compose({ to, subject: "No stamp", text: "c" }))).toMatchObject({ ...refused, sender_auth: "none" });
    expect(await outcomeOf(app, stamped([ar("mx.elsewhere.example; dmarc=pass header.from=example.com; dkim=pass header.d=example.com")],
      await compose({ to, subject: "Other server", text: "d" })))).toMatchObject({ ...refused, sender_auth: "none" });
    expect(await outcomeOf(app, stamped([ar(`${TRUSTED}; none`)], await compose({
      to, subject: "Forged below", text: "e", headers: { "Authentication-Results": `${TRUSTED}; dmarc=pass header.from=example.com; dkim=pass header.d=example.com` },
    })))).toMatchObject({ ...refused, sender_auth: "none" });
    expect(await outcomeOf(app, stamped([ar(`${TRUSTED}; dkim=pass header.d=example.com; spf=pass smtp.mailfrom=example.com; dmarc=fail (p=none dis=none) header.from=example.com`)],
      await compose({ to, subject: "DMARC fail", text: "f" })))).toMatchObject({ ...refused, sender_auth: "fail" });
    expect(await outcomeOf(app, stamped(dmarcPass("attacker.example"), await compose({ to, subject: "Other domain", text: "g" }))))
      .toMatchObject({ ...refused, sender_auth: "none" });
    expect(await outcomeOf(app, stamped([ar(`${TRUSTED}; dkim=pass header.d=attacker.example`)], await compose({ to, subject: "Other signer", text: "h" }))))
      .toMatchObject({ ...refused, sender_auth: "none" });

    const titles = (await call(app.t, "GET", "/ideas?limit=100", { key: u.key })).body.ideas.map((i: { title: string }) => i.title);
    expect(titles.sort()).toEqual(["DKIM aligned", "DMARC pass", "Written otherwise"]);
  }, 60_000);

  test("with an allow-list: a forged allowed From is refused, an authenticated unlisted one too", async () => {
    const u = await makeUser(app.t, { plan: "pro" });
    await setSettings(app, u, { email_capture_senders: ["boss@example.com"], email_capture_authenticated_only: true });
    const to = await captureEmailOf(app.t, u);
    expect(await outcomeOf(app, await compose({ from: "boss@example.com", to, subject: "Forged boss", text: "a" })))
      .toMatchObject({ msg: "mail not captured", sender_auth: "none" });
    expect(await outcomeOf(app, stamped(dmarcPass("example.com"), await compose({ from: "eve@example.com", to, subject: "Eve", text: "b" }))))
      .toMatchObject({ msg: "mail not captured", reason: "the sender is not on the account's list of allowed senders", sender_auth: "pass" });
    expect(await outcomeOf(app, stamped(dmarcPass("example.com"), await compose({ from: "Boss <boss@example.com>", to, subject: "Real boss", text: "c" }))))
      .toMatchObject({ msg: "mail captured", sender_auth: "pass" });
  }, 60_000);

  test("replies go to an authenticated From, the account's own address or a listed address, never to a stranger's", async () => {
    const u = await makeUser(app.t, { plan: "pro" }); // its sign-in address is …@example.com
    await setSettings(app, u, { email_capture_reply: true, email_capture_senders: ["friend@example.net", "@example.com"] });
    const to = await captureEmailOf(app.t, u);
    smtp.reset();
    const skipsBefore = replySkips(app).length;
    const victim = "victim@example.com"; // on the list only through "@example.com": a forged From there reaches anyone
    const messages = [
      await compose({ from: victim, to, subject: "Unauthenticated", text: "1" }),
      stamped([ar(`${TRUSTED}; none`)], await compose({ from: victim, to, subject: "Forged below", text: "2", headers: { "Authentication-Results": `${TRUSTED}; dmarc=pass header.from=example.com` } })),
      stamped([ar("mx.elsewhere.example; dmarc=pass header.from=example.com")], await compose({ from: victim, to, subject: "Other server", text: "3" })),
      stamped([ar(`${TRUSTED}; dkim=pass header.d=example.com; dmarc=fail header.from=example.com`)], await compose({ from: victim, to, subject: "DMARC fail", text: "4" })),
      stamped(dmarcPass("example.com"), await compose({ from: "Colleague <colleague@example.com>", to, subject: "Authenticated", text: "5" })),
      await compose({ from: "friend@example.net", to, subject: "Listed address", text: "6" }),
      await compose({ from: u.email, to, subject: "Own address", text: "7" }),
    ];
    for (const m of messages) expect(await outcomeOf(app, m)).toMatchObject({ msg: expect.stringMatching(/^mail (not )?captured$/) });
    // Each message ends in a reply or a logged skip; wait for all seven, then look at who was written to.
    const settled = await until(() => smtp.mails.length + replySkips(app).length - skipsBefore >= messages.length, 10_000);
    expect(settled, `replies: ${smtp.mails.map((m) => m.envelopeTo).join(" ")}; log:\n${app.logs.slice(-8).join("\n")}`).toBe(true);
    expect(smtp.mails.flatMap((m) => m.envelopeTo).sort()).toEqual(["colleague@example.com", "friend@example.net", u.email].sort());
    expect(smtp.mails.find((m) => m.envelopeTo[0] === "colleague@example.com")?.text).toContain("Captured as");
    expect(replySkips(app).slice(skipsBefore)).toEqual(Array(4).fill(expect.objectContaining({
      user_id: u.id, reason: "the sender is not authenticated, nor the account's own or an allow-listed address",
    })));
    expect(app.logs.join("\n")).not.toContain(victim); // addresses are not logged
  }, 60_000);
});

describe.skipIf(!run)("without imap.trusted_authserv_ids (the default)", () => {
  let app: CaptureApp;
  beforeAll(async () => {
    app = await startCaptureApp(d.imap(), { smtp: smtpConfig(smtp) });
  });
  afterAll(async () => {
    await app?.stop();
  });

  test("no stamp is believed: a reply goes only to the account's own or a listed address", async () => {
    const u = await makeUser(app.t, { plan: "pro" });
    await setSettings(app, u, { email_capture_reply: true, email_capture_senders: ["friend@example.net", "@example.com"] });
    const to = await captureEmailOf(app.t, u);
    smtp.reset();
    const skipsBefore = replySkips(app).length;
    const messages = [
      stamped(dmarcPass("example.com"), await compose({ from: "stranger@example.com", to, subject: "Stamped stranger", text: "1" })),
      await compose({ from: "friend@example.net", to, subject: "Listed", text: "2" }),
      await compose({ from: u.email, to, subject: "Own", text: "3" }),
    ];
    for (const m of messages) expect(await outcomeOf(app, m)).toMatchObject({ msg: "mail captured", sender_auth: "unchecked" });
    const settled = await until(() => smtp.mails.length + replySkips(app).length - skipsBefore >= messages.length, 10_000);
    expect(settled, `log:\n${app.logs.slice(-8).join("\n")}`).toBe(true);
    expect(smtp.mails.flatMap((m) => m.envelopeTo).sort()).toEqual(["friend@example.net", u.email].sort());
  }, 60_000);

  test("email_capture_authenticated_only refuses everything, saying the server checks no sender", async () => {
    const u = await makeUser(app.t, { plan: "pro" });
    await setSettings(app, u, { email_capture_authenticated_only: true });
    const to = await captureEmailOf(app.t, u);
    expect(await outcomeOf(app, stamped(dmarcPass("example.com"), await compose({ to, subject: "Stamped", text: "x" })))).toMatchObject({
      msg: "mail not captured", sender_auth: "unchecked",
      reason: "the sender cannot be authenticated: this server trusts no mail server's Authentication-Results (imap.trusted_authserv_ids)",
    });
  }, 30_000);
});

describe.skipIf(!run)("a stamp made to be slow to read", () => {
  test("50 KB of spaces in an Authentication-Results value: the message is read within 5 s", async () => {
    // Anyone can write such a header; its "=" and "/" were closed up by a pattern that took 37 s on this one.
    const app = await startCaptureApp({ ...d.imap(), trusted_authserv_ids: [TRUSTED] });
    try {
      const u = await makeUser(app.t, { plan: "pro" });
      const raw = stamped([ar(`${TRUSTED}; dmarc=pass${" ".repeat(50_000)}x header.from=example.com`)],
        await compose({ from: "ann@example.com", to: await captureEmailOf(app.t, u), subject: "Forged stamp", text: "x" }));
      const started = Date.now();
      expect(await outcomeOf(app, raw)).toMatchObject({ msg: "mail captured" });
      expect(Date.now() - started, "read in").toBeLessThan(5_000);
    } finally {
      await app.stop();
    }
  }, 60_000);
});
