// Settings → Quick capture → the options of capture by e-mail in a real browser: replies, the allowed senders and
// "only authenticated senders" are saved at once into settings_json (another client's key survives), shown again after
// a reload, a bad address gets the server's sentence beside the field, and the focus stays where a keyboard user is.
// The servers read no mailbox (imap.host points at a closed port): the page needs only the address and the abilities.
declare const document: any, window: any;
import { beforeAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api } from "../ops/harness";
import { a11yViolations, allowConsole, describeBrowser, expectClean, openSignedIn, screenshot, webScope, type WebServer } from "./harness";

const MAILBOX = { IDEAREPO_IMAP_HOST: "127.0.0.1", IDEAREPO_IMAP_PORT: "1", IDEAREPO_IMAP_SECURE: "false", IDEAREPO_IMAP_USER: "ideas", IDEAREPO_IMAP_PASS: "not-used", IDEAREPO_IMAP_ADDRESS: "ideas@example.org" };
const REPLY = "Reply to each message I mail in";
const AUTH_ONLY = "Only authenticated senders";
const ADD = "Add an allowed sender";

const storedSettings = async (server: WebServer, key: string) => JSON.parse((await api(server.base, key, "GET", "/user/me")).body.settings_json);
/** The accessible name of whatever has the focus (its aria-label or its label's text). */
const focusedName = (page: Page) => page.evaluate(() => {
  const el = document.activeElement;
  return el?.getAttribute("aria-label") ?? el?.labels?.[0]?.textContent ?? el?.textContent ?? null;
});

/** Scrolls the options to just under the app's sticky header (for the screenshots in docs/screenshots). */
const showOptions = (page: Page) => page.getByRole("group", { name: "Mail sent to this address" }).evaluate((el) => {
  const header = document.querySelector("header")?.getBoundingClientRect().height ?? 0;
  window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - header - 16);
});

describeBrowser("capture by e-mail options in settings", () => {
  const web = webScope("idearepo-web-capture-options-");
  let trusted: WebServer;
  let plain: WebServer;
  let off: WebServer;
  beforeAll(async () => {
    [trusted, plain, off] = await Promise.all([
      // A trusted mail server and SMTP: senders can be authenticated and replies sent (the SMTP port is never used).
      web.server({ ...MAILBOX, IDEAREPO_IMAP_TRUSTED_AUTHSERV_IDS: "mx.example.org", IDEAREPO_SMTP_HOST: "127.0.0.1", IDEAREPO_SMTP_PORT: "1" }),
      web.server(MAILBOX),
      web.server(),
    ]);
  }, 60_000);

  test("each option is saved at once, kept beside another client's key, shown after a reload; a bad address gets the server's sentence", async () => {
    const o = await openSignedIn(web, trusted, "/settings#quick-capture");
    const { page, key, email } = o;
    // Another client's key, stored after the page read the account: every save must keep it.
    expect((await api(trusted.base, key, "PATCH", "/user/me", { settings_json: JSON.stringify({ my_client_key: "keep me", dedup_threshold: 0.6 }) })).status).toBe(200);

    const reply = page.getByRole("checkbox", { name: REPLY });
    await reply.waitFor();
    // Who gets replies: named in the sentence under the box, with the account's own address.
    const replyHint = page.getByText("It goes only to a sender this server authenticated");
    expect(await replyHint.textContent()).toContain(email);
    expect(await replyHint.textContent()).not.toContain("cannot send mail");
    await reply.check();
    await page.getByText("Replies turned on").waitFor();
    expect(await storedSettings(trusted, key)).toEqual({ my_client_key: "keep me", dedup_threshold: 0.6, email_capture_reply: true });

    // Add by Enter: trimmed and in lower case, the field emptied and still focused for the next one.
    const field = page.getByLabel(ADD);
    await field.fill("  Ann@Example.com ");
    await field.press("Enter");
    await page.getByText("Added ann@example.com").waitFor();
    const senders = page.getByRole("list", { name: "Allowed senders" });
    expect(await senders.getByRole("listitem").allTextContents()).toEqual(["ann@example.comRemove"]);
    expect(await field.inputValue()).toBe("");
    expect(await focusedName(page)).toBe(ADD);
    await field.fill("@example.net");
    await page.getByRole("button", { name: "Add sender" }).click();
    await page.getByText("Added @example.net").waitFor();
    expect((await storedSettings(trusted, key)).email_capture_senders).toEqual(["ann@example.com", "@example.net"]);

    // A bad address: the server's 400 sentence under the field, the text kept to fix, nothing stored.
    allowConsole(o, /status of 400/); // Chromium logs every 4xx fetch; this one is provoked on purpose
    await field.fill("bob");
    await field.press("Enter");
    const message = 'email_capture_senders: "bob" is not an address or a domain; write name@example.com, or @example.com for a whole domain';
    await page.getByRole("alert").filter({ hasText: message }).waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await field.inputValue()).toBe("bob");
    expect((await storedSettings(trusted, key)).email_capture_senders).toEqual(["ann@example.com", "@example.net"]);
    // The same entry twice is caught in the page.
    await field.fill("ANN@example.com");
    await field.press("Enter");
    await page.getByText("ann@example.com is already on the list.").waitFor();
    await field.fill("");

    // Remove: the focus goes to the next row's Remove, not to the top of the page.
    await page.getByRole("button", { name: "Remove ann@example.com" }).click();
    await page.getByText("Removed ann@example.com").waitFor();
    expect(await senders.getByRole("listitem").allTextContents()).toEqual(["@example.netRemove"]);
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Remove @example.net", null, { timeout: 5000 });

    const authOnly = page.getByRole("checkbox", { name: AUTH_ONLY });
    expect(await authOnly.isEnabled()).toBe(true);
    await authOnly.check();
    await page.getByText("Only authenticated senders from now on").waitFor();
    const expected = { my_client_key: "keep me", dedup_threshold: 0.6, email_capture_reply: true, email_capture_senders: ["@example.net"], email_capture_authenticated_only: true };
    expect(await storedSettings(trusted, key)).toEqual(expected);

    // Saving the preferences form elsewhere on the page keeps the capture options (it writes only its own keys).
    const { dedup_threshold: _, ...capture } = expected;
    await page.getByRole("button", { name: "Save preferences" }).click();
    await page.getByText("Preferences saved").waitFor();
    expect(await storedSettings(trusted, key)).toMatchObject(capture);

    await page.reload();
    await reply.waitFor();
    expect(await reply.isChecked()).toBe(true);
    expect(await authOnly.isChecked()).toBe(true);
    expect(await senders.getByRole("listitem").allTextContents()).toEqual(["@example.netRemove"]);
    await showOptions(page);
    await screenshot(page, "settings-capture-desktop");

    // Keyboard only: the last Remove leaves the focus in the field; Space turns replies off.
    await page.getByRole("button", { name: "Remove @example.net" }).focus();
    await page.keyboard.press("Enter");
    await page.getByText("Removed @example.net").waitFor();
    await page.waitForFunction((label) => document.activeElement?.labels?.[0]?.textContent === label, ADD, { timeout: 5000 });
    await page.getByText("Anyone who knows the address can mail ideas in.").waitFor();
    await reply.focus();
    await page.keyboard.press("Space");
    await page.getByText("Replies turned off").waitFor();
    expect(await focusedName(page)).toBe(REPLY);
    expect(await storedSettings(trusted, key)).toMatchObject({ ...capture, email_capture_reply: false, email_capture_senders: [] });

    expect(await a11yViolations(page)).toEqual([]);
    expectClean(o);
    await o.context.close();
  }, 60_000);

  test("without a trusted mail server, only authenticated senders cannot be turned on, and says why; at 390 px and dark", async () => {
    const o = await openSignedIn(web, plain, "/settings#quick-capture", { viewport: "phone", colorScheme: "dark" });
    const { page, key } = o;
    await page.setViewportSize({ width: 390, height: 844 });
    const authOnly = page.getByRole("checkbox", { name: AUTH_ONLY });
    await authOnly.waitFor();
    expect(await authOnly.isDisabled()).toBe(true);
    await page.getByText("Not available on this server: it does not check who sent a message").waitFor();
    await page.getByText("This server cannot send mail (its operator has not set up SMTP)", { exact: false }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await showOptions(page);
    await screenshot(page, "settings-capture-phone");

    // Set through the API where it cannot work: the page says every message is refused and lets it be turned off.
    expect((await api(plain.base, key, "PATCH", "/user/me", { settings_json: JSON.stringify({ email_capture_authenticated_only: true, other: [1] }) })).status).toBe(200);
    await page.reload();
    await authOnly.waitFor();
    await page.getByRole("alert").filter({ hasText: "every message mailed in is refused" }).waitFor();
    await authOnly.uncheck();
    await page.getByText("Authentication no longer required").waitFor();
    expect(await storedSettings(plain, key)).toEqual({ email_capture_authenticated_only: false, other: [1] });
    expect(await authOnly.isDisabled()).toBe(true);
    expect(await page.getByRole("alert").filter({ hasText: "every message mailed in is refused" }).count()).toBe(0);
    expect(await a11yViolations(page)).toEqual([]);
    expectClean(o);
    await o.context.close();
  }, 60_000);

  test("with capture by e-mail off, the section says so and offers no options", async () => {
    const o = await openSignedIn(web, off, "/settings#quick-capture");
    const { page } = o;
    await page.getByText("Off on this instance: the operator has not given idearepo a mailbox to read").waitFor();
    for (const name of [REPLY, AUTH_ONLY]) expect(await page.getByRole("checkbox", { name }).count()).toBe(0);
    expect(await page.getByLabel(ADD).count()).toBe(0);
    expectClean(o);
    await o.context.close();
  }, 30_000);
});
