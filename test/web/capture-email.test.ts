// Settings → Quick capture in a real browser: the capture e-mail address with Copy and Regenerate, against a server
// reading a real Dovecot; mail to the shown address becomes an idea, mail to the regenerated-away one does not.
declare const navigator: any;
import { afterAll, beforeAll, expect, test } from "bun:test";
import { api, listAllIdeas } from "../ops/harness";
import { requireDovecot, startDovecot, type Dovecot } from "../mail-capture/dovecot";
import { compose, until } from "../mail-capture/fixtures";
import { a11yViolations, describeBrowser, expectClean, openSignedIn, webScope, type WebServer } from "./harness";

const dovecot = requireDovecot();

describeBrowser("capture by e-mail in settings", () => {
  const web = webScope("idearepo-web-mail-");
  let server: WebServer;
  let d: Dovecot;
  beforeAll(async () => {
    if (!dovecot) return;
    d = await startDovecot();
    const imap = d.imap();
    server = await web.server({
      IDEAREPO_IMAP_HOST: imap.host, IDEAREPO_IMAP_PORT: String(imap.port), IDEAREPO_IMAP_SECURE: "false",
      IDEAREPO_IMAP_USER: imap.user, IDEAREPO_IMAP_PASS: imap.pass, IDEAREPO_IMAP_ADDRESS: imap.address,
    });
  }, 40_000);
  afterAll(async () => {
    await d?.destroy();
  });

  test.skipIf(!dovecot)("the address is shown and copied; Regenerate asks first, shows the new one, and the old stops at once", async () => {
    const o = await openSignedIn(web, server, "/settings#quick-capture");
    const { page, key, context } = o;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.base });
    const first: string = (await api(server.base, key, "GET", "/user/shortcuts")).body.capture_email;
    expect(first).toMatch(/^ideas\+[a-z2-7]{20}@example\.org$/);
    const shown = page.getByLabel("Capture by e-mail");
    await shown.getByText(first, { exact: true }).waitFor();
    await page.getByRole("button", { name: "Copy e-mail address" }).click();
    await page.getByText("E-mail address copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

    await page.getByRole("button", { name: "Regenerate" }).click();
    const dialog = page.getByRole("dialog", { name: "Regenerate the capture address?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await api(server.base, key, "GET", "/user/shortcuts")).body.capture_email).toBe(first); // cancel changes nothing

    await page.getByRole("button", { name: "Regenerate" }).click();
    await dialog.getByRole("button", { name: "Regenerate address" }).click();
    await page.getByText("New capture address made").waitFor();
    const second: string = (await api(server.base, key, "GET", "/user/shortcuts")).body.capture_email;
    expect(second).not.toBe(first);
    await shown.getByText(second, { exact: true }).waitFor();

    await d.append(await compose({ to: first, subject: "Sent to the old address", text: "x" }));
    await d.append(await compose({ to: second, subject: "Sent to the new address", text: "y" }));
    expect(await until(async () => (await listAllIdeas(server.base, key)).length === 1, 10_000)).toBe(true);
    await until(async () => (await d.list("idearepo/Unmatched")).length === 1, 5000);
    expect((await listAllIdeas(server.base, key)).map((i) => i.title)).toEqual(["Sent to the new address"]);
    expect((await d.list("idearepo/Unmatched")).map((m) => m.subject)).toEqual(["Sent to the old address"]);
    expect(await a11yViolations(page)).toEqual([]);
    expectClean(o);
    await context.close();
  }, 60_000);
});
