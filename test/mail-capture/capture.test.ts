// Capture by e-mail against a real Dovecot: IDLE delivery, what a message becomes, charsets, size, duplicates, refusals.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeApp, type TestUser } from "../helpers";
import { requireDovecot, startDovecot, type Dovecot } from "./dovecot";
import { captureEmailOf, compose, logged, makeUser, startCaptureApp, until, waitForFolder, waitForIdeas, type CaptureApp } from "./fixtures";

const run = requireDovecot();
const CAPTURE = /^ideas\+[a-z2-7]{20}@example\.org$/;

let d: Dovecot;
let app: CaptureApp;
let u: TestUser;
let address: string;
let done = 0; // messages expected in the done folder so far (tests run in order on one mailbox)

beforeAll(async () => {
  if (!run) return;
  d = await startDovecot();
  app = await startCaptureApp(d.imap());
  u = await makeUser(app.t, { plan: "pro" });
  address = await captureEmailOf(app.t, u);
  await until(() => app.t.deps.engines.mailCapture?.health().state === "connected", 5000);
});
afterAll(async () => {
  await app?.stop();
  await d?.destroy();
});

/** Sends one message and waits for it to be filed (done folder) and for the account to hold `ideas` ideas. */
async function deliver(raw: Buffer | string, ideas: number) {
  await d.append(raw);
  done++;
  await waitForFolder(d, "idearepo/Done", done);
  return waitForIdeas(app.t, u, ideas);
}

describe.skipIf(!run)("the personal address", () => {
  test("GET /user/shortcuts gives each account its own plus-address of imap.address; health says connected", async () => {
    expect(address).toMatch(CAPTURE);
    const other = await makeUser(app.t);
    expect(await captureEmailOf(app.t, other)).not.toBe(address);
    expect(await captureEmailOf(app.t, u)).toBe(address); // stable until regenerated
    const health = await call(app.t, "GET", "/health");
    expect(health.body.mail_capture).toMatchObject({ state: "connected" });
  }, 20_000);

  test("is null when capture by e-mail is off, and health says off", async () => {
    const off = makeApp();
    try {
      const v = await makeUser(off);
      expect((await call(off, "GET", "/user/shortcuts", { key: v.key })).body).toEqual({ quick_capture_url: "http://localhost/capture", capture_email: null, capture_email_can_authenticate: false, capture_email_can_reply: false });
      expect((await call(off, "POST", "/user/capture-email/regenerate", { key: v.key })).body).toEqual({ capture_email: null });
      expect((await call(off, "GET", "/health")).body.mail_capture).toEqual({ state: "off" });
    } finally {
      off.close();
    }
  }, 20_000);
});

describe.skipIf(!run)("a message becomes an idea", () => {
  test("plain text by IDLE: subject prefixes and #tags leave the title, the signature goes, URLs become links", async () => {
    const t0 = Date.now();
    const [idea] = await deliver(await compose({
      to: `Ideas <${address}>`,
      subject: "Re: Fwd: Bike rack for the balcony #garage #diy",
      text: "Wall-mounted, folds flat.\nSee https://example.com/rack for the model.\n\n-- \nAnn Writer\nhttps://ann.example.com",
    }), 1);
    expect(Date.now() - t0).toBeLessThan(15_000); // the poll is 60 s: only IDLE explains this
    expect(idea.title).toBe("Bike rack for the balcony");
    expect(idea.tags.sort()).toEqual(["diy", "garage"]);
    expect(idea.source).toBe("email");
    expect(idea.body).toBe("Wall-mounted, folds flat.\nSee https://example.com/rack for the model.");
    expect(idea.links.map((l: { url: string }) => l.url)).toEqual(["https://example.com/rack"]);
    const filed = logged(app.logs, "mail captured");
    expect(filed.at(-1)).toMatchObject({ idea_id: idea.id, moved_to: "idearepo/Done", user_id: u.id });
    expect(app.logs.join("\n")).not.toContain(address.split("@")[0].split("+")[1]); // the token is never logged
    expect(await d.list("INBOX")).toEqual([]);
  }, 20_000);

  test("HTML only: the importer's converter turns it into Markdown", async () => {
    const [idea] = await deliver(await compose({
      to: address,
      subject: "Newsletter idea",
      html: "<html><body><p>Try <b>bold</b> ideas:</p><ul><li>first</li><li>second</li></ul><p><a href=\"https://example.org/read\">read more</a></p></body></html>",
    }), 2);
    expect(idea.title).toBe("Newsletter idea");
    expect(idea.body).toContain("Try **bold** ideas:");
    expect(idea.body).toMatch(/- first\n- second/);
    expect(idea.body).toContain("[read more](https://example.org/read)");
    expect(idea.links).toEqual([expect.objectContaining({ url: "https://example.org/read", title: "read more" })]);
  }, 20_000);

  test("multipart with attachments: the text part is the body, attachment names are listed, nothing is stored", async () => {
    const [idea] = await deliver(await compose({
      to: "someone@example.com",
      cc: address,
      subject: "",
      text: "Garden shed plans\nwith the drawings attached",
      html: "<p>Garden shed plans</p><p>with the drawings attached</p>",
      attachments: [
        { filename: "shed-plan.pdf", content: Buffer.from("%PDF-1.4 not really"), contentType: "application/pdf" },
        { filename: "photo.jpg", content: Buffer.alloc(2048, 7), contentType: "image/jpeg" },
      ],
    }), 3);
    expect(idea.title).toBe("Garden shed plans"); // empty subject: the body's first line
    expect(idea.body).toBe("Garden shed plans\nwith the drawings attached\n\nAttachments (not stored): shed-plan.pdf, photo.jpg");
  }, 20_000);

  test("charsets as mail comes: encoded words, quoted-printable Windows-1252, base64 ISO-8859-1 and Shift_JIS", async () => {
    const sjis = Buffer.from([0x83, 0x41, 0x83, 0x43, 0x83, 0x66, 0x83, 0x41]); // アイデア
    const raws = [
      ["From: =?ISO-8859-1?Q?Ren=E9?= <rene@example.com>", `To: ${address}`, "Subject: =?ISO-8859-1?Q?Caf=E9_id=E9e?=", "Message-ID: <cs1@example.com>",
        "MIME-Version: 1.0", "Content-Type: text/plain; charset=windows-1252", "Content-Transfer-Encoding: quoted-printable", "",
        "Prix =80 5 =93quot=E9=94 soft=", "wrapped line", ""].join("\r\n"),
      ["From: kim@example.com", `To: ${address}`, "Subject: =?UTF-8?B?R3LDvMOfZQ==?=", "Message-ID: <cs2@example.com>",
        "MIME-Version: 1.0", "Content-Type: text/plain; charset=ISO-8859-1", "Content-Transfer-Encoding: base64", "",
        Buffer.from("Grüße aus Köln", "latin1").toString("base64"), ""].join("\r\n"),
      ["From: ken@example.jp", `To: ${address}`, `Subject: =?Shift_JIS?B?${sjis.toString("base64")}?=`, "Message-ID: <cs3@example.jp>",
        "MIME-Version: 1.0", "Content-Type: text/plain; charset=Shift_JIS", "Content-Transfer-Encoding: base64", "",
        sjis.toString("base64"), ""].join("\r\n"),
    ];
    for (const raw of raws) await d.append(raw);
    done += 3;
    await waitForFolder(d, "idearepo/Done", done);
    const ideas = await waitForIdeas(app.t, u, 6);
    const byTitle = Object.fromEntries(ideas.map((i) => [i.title, i.body]));
    expect(byTitle["Café idée"]).toBe("Prix € 5 “quoté” softwrapped line"); // "soft=" is a soft line break
    expect(byTitle["Grüße"]).toBe("Grüße aus Köln");
    expect(byTitle["アイデア"]).toBe("アイデア");
  }, 20_000);

  test("HTML only in ISO-8859-1 with named character references: every reference arrives as its character", async () => {
    // As an older mail client writes it: Latin-1 bytes (quoted-printable) beside references from the whole HTML table.
    const raw = ["From: chef@example.com", `To: ${address}`, "Subject: Dessert", "Message-ID: <latin1-html@example.com>", "MIME-Version: 1.0",
      "Content-Type: text/html; charset=ISO-8859-1", "Content-Transfer-Encoding: quoted-printable", "",
      "<html><body><p>Serve <b>cr&egrave;me</b> br&ucirc;l&eacute;e</p><p>for caf=E9 guests &ndash; &frac12; cup =",
      "of sugar, &hearts;&nbsp;&amp;&nbsp;&Ouml;l &rarr; &#8364;3 &nosuchname;</p></body></html>", ""].join("\r\n");
    const ideas = await deliver(raw, 7);
    const idea = ideas.find((i) => i.title === "Dessert");
    expect(idea?.body).toBe("Serve **crème** brûlée\n\nfor café guests – ½ cup of sugar, ♥ & Öl → €3 &nosuchname;");
  }, 20_000);

  test("a 60 KB body is split as the importer splits: part 2 titled and related to the first", async () => {
    const para = (i: number) => `Paragraph ${i}: ${"lorem ipsum dolor sit amet ".repeat(20).trim()}.`;
    const text = Array.from({ length: 110 }, (_, i) => para(i)).join("\n\n");
    expect(text.length).toBeGreaterThan(60_000);
    const ideas = await deliver(await compose({ to: address, subject: "Long read", text }), 9);
    const first = ideas.find((i) => i.title === "Long read")!;
    const second = ideas.find((i) => i.title === "Long read (part 2 of 2)")!;
    expect([...first.body].length).toBeLessThanOrEqual(50_000);
    expect(first.body + "\n\n" + second.body).toBe(text);
    expect(second.relations.some((r: { source_idea_id: number; target_idea_id: number }) => r.source_idea_id === second.id && r.target_idea_id === first.id)).toBe(true);
  }, 20_000);

  test("the same Message-ID twice files one idea; the second copy is moved to done too", async () => {
    const raw = await compose({ to: address, subject: "Only once", text: "delivered twice", messageId: "<twice@example.com>" });
    await deliver(raw, 10);
    await d.append(raw);
    done++;
    await waitForFolder(d, "idearepo/Done", done);
    await until(() => logged(app.logs, "mail already captured").length > 0, 3000);
    const ideas = await waitForIdeas(app.t, u, 10);
    expect(ideas.filter((i) => i.title === "Only once")).toHaveLength(1);
  }, 20_000);
});

describe.skipIf(!run)("refused messages stay out, in Unmatched, with the reason in the log", () => {
  test("an unknown token", async () => {
    const before = (await waitForIdeas(app.t, u, 0)).length;
    await d.append(await compose({ to: "ideas+abcdefghijklmnopqrst@example.org", subject: "Stranger", text: "who am I" }));
    const unmatched = await waitForFolder(d, "idearepo/Unmatched", 1);
    expect(unmatched.map((m) => m.subject)).toContain("Stranger");
    expect(logged(app.logs, "mail not captured").at(-1)).toMatchObject({ reason: "no live capture address among the recipients", moved_to: "idearepo/Unmatched" });
    expect((await waitForIdeas(app.t, u, 0)).length).toBe(before);
  }, 20_000);

  test("a sender outside the account's allow-list (settings_json email_capture_senders)", async () => {
    const me = await call(app.t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify({ email_capture_senders: ["@example.net"] }) } });
    expect(me.status).toBe(200);
    await d.append(await compose({ to: address, subject: "Spoof attempt", text: "not from an allowed sender" }));
    await waitForFolder(d, "idearepo/Unmatched", 2);
    expect(logged(app.logs, "mail not captured").at(-1)).toMatchObject({ reason: "the sender is not on the account's list of allowed senders", user_id: u.id });
    await d.append(await compose({ from: "me@example.net", to: address, subject: "Allowed sender", text: "fine" }));
    done++;
    await waitForFolder(d, "idearepo/Done", done);
    expect((await waitForIdeas(app.t, u, 11)).some((i) => i.title === "Allowed sender")).toBe(true);
    await call(app.t, "PATCH", "/user/me", { key: u.key, body: { settings_json: "{}" } });
  }, 20_000);

  test("Regenerate: the old address stops at once, the new one files", async () => {
    const r = await call(app.t, "POST", "/user/capture-email/regenerate", { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body.capture_email).toMatch(CAPTURE);
    expect(r.body.capture_email).not.toBe(address);
    expect(await captureEmailOf(app.t, u)).toBe(r.body.capture_email);
    await d.append(await compose({ to: address, subject: "To the old address", text: "x" }));
    await waitForFolder(d, "idearepo/Unmatched", 3);
    const fresh = r.body.capture_email;
    address = fresh;
    const ideas = await deliver(await compose({ to: fresh, subject: "To the new address", text: "y" }), 12);
    expect(ideas.map((i) => i.title)).toContain("To the new address");
    expect(ideas.map((i) => i.title)).not.toContain("To the old address");
  }, 20_000);
});
