// The settings page in a real browser: profile, preferences merged into settings_json, provider keys against a fake
// provider, API keys shown once, MCP tokens, exports and import, the test digest over a real SMTP server, Free plan.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any, window: any, localStorage: any, sessionStorage: any, navigator: any;
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { api, runCommand } from "../ops/harness";
import { startFakeProvider, type FakeProvider } from "../fakes/providers";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { a11yViolations, allowConsole, createAccount, describeBrowser, expectClean, openSignedIn, screenshot, signIn, VIEWPORTS, webScope, type WebServer } from "./harness";

/** Everything the page holds that a secret could hide in: the DOM and both storages. */
async function pageHolds(page: Page, secret: string): Promise<boolean> {
  const html = await page.content();
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  const values = await page.evaluate(() => Array.from(document.querySelectorAll("input, textarea")).map((e: any) => e.value).join("\n"));
  return html.includes(secret) || storage.includes(secret) || values.includes(secret);
}

describeBrowser("settings page", () => {
  const web = webScope("idearepo-web-settings-");
  let server: WebServer;
  let providerA: FakeProvider;
  let providerB: FakeProvider;
  let smtp: FakeSmtp;
  beforeAll(async () => {
    providerA = startFakeProvider("anthropic");
    providerB = startFakeProvider("openai");
    smtp = await startFakeSmtp();
    server = await web.server({
      IDEAREPO_PROVIDER_A__PROTOCOL: "anthropic",
      IDEAREPO_PROVIDER_A__BASE_URL: providerA.baseUrl,
      IDEAREPO_PROVIDER_A__MODEL: "claude-fake-1",
      IDEAREPO_PROVIDER_B__PROTOCOL: "openai",
      IDEAREPO_PROVIDER_B__BASE_URL: providerB.baseUrl,
      IDEAREPO_PROVIDER_B__MODEL: "gpt-fake-1",
      IDEAREPO_PROVIDER_TIMEOUT_MS: "5000",
      IDEAREPO_SMTP_HOST: "127.0.0.1",
      IDEAREPO_SMTP_PORT: String(smtp.port),
    });
  }, 40_000);
  afterAll(async () => {
    providerA?.stop();
    providerB?.stop();
    await Promise.race([smtp?.stop(), Bun.sleep(1000)]); // an idle SMTP connection from the server may hold close()
  }, 40_000);

  test("display name, thresholds and switches are saved; settings_json keeps a key the page does not know", async () => {
    const o = await openSignedIn(web, server, "/settings");
    const { page, key } = o;
    // A key another client stored before: it must survive the page's save.
    expect((await api(server.base, key, "PATCH", "/user/me", { settings_json: JSON.stringify({ my_client_key: "keep me", dedup_threshold: 0.6 }) })).status).toBe(200);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    expect(await page.getByLabel("Duplicate threshold").inputValue()).toBe("0.6"); // the stored value, not the default
    expect(await page.getByLabel("Search threshold").inputValue()).toBe("0.2"); // the default where nothing is stored
    await page.getByText("Range 0.1–0.9, default 0.2.").waitFor();

    await page.getByLabel("Display name").fill("Grace Settings");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("Display name saved").waitFor();
    expect((await api(server.base, key, "GET", "/user/me")).body.display_name).toBe("Grace Settings");

    // Out of range: refused in the page, nothing sent.
    await page.getByLabel("Search threshold").fill("1.5");
    await page.getByRole("button", { name: "Save preferences" }).click();
    await page.getByText("Between 0.1 and 0.9").waitFor();
    expect(JSON.parse((await api(server.base, key, "GET", "/user/me")).body.settings_json).search_threshold).toBeUndefined();

    await page.getByLabel("Search threshold").fill("0.35");
    await page.getByRole("switch", { name: "Weekly digest" }).uncheck();
    await page.getByLabel("Stale after (days)").fill("45");
    await page.getByLabel("Preferred provider").selectOption("provider_b");
    await page.getByRole("switch", { name: "Code mode" }).check();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await page.getByText("Preferences saved").waitFor();
    const settings = JSON.parse((await api(server.base, key, "GET", "/user/me")).body.settings_json);
    expect(settings).toMatchObject({
      my_client_key: "keep me", dedup_threshold: 0.6, search_threshold: 0.35, weekly_digest: false,
      stale_threshold_days: 45, preferred_ai_provider: "provider_b", code_mode: true, stale_nudges: true, related_threshold: 0.5,
    });
    // The page shows what is stored after a reload.
    await page.reload();
    expect(await page.getByLabel("Search threshold").inputValue()).toBe("0.35");
    expect(await page.getByRole("switch", { name: "Weekly digest" }).isChecked()).toBe(false);
    expect(await page.getByLabel("Preferred provider").inputValue()).toBe("provider_b");
    await screenshot(page, "settings-desktop");
    // "No preference" removes the key instead of storing an empty value.
    await page.getByLabel("Preferred provider").selectOption("");
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/v1/user/me") && r.request().method() === "PATCH"),
      page.getByRole("button", { name: "Save preferences" }).click(),
    ]);
    expect(JSON.parse((await api(server.base, key, "GET", "/user/me")).body.settings_json).preferred_ai_provider).toBeUndefined();

    expect(await a11yViolations(page)).toEqual([]);
    expectClean(o);
    await o.context.close();
  }, 40_000);

  test("a provider key is saved, tested against the provider, never shown back, and deleted", async () => {
    const o = await openSignedIn(web, server, "/settings#provider-keys");
    const { page, key } = o;
    const secret = `sk-ant-fake-${crypto.randomUUID()}`;
    providerA.validKeys.add(secret);
    const rowA = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Provider A" }) });
    await rowA.getByText("No key").waitFor();
    await page.getByLabel("Provider A key", { exact: true }).fill(secret);
    await page.getByRole("button", { name: "Save Provider A key" }).click();
    await rowA.getByText("A key is stored").waitFor();
    await page.getByText("Active provider: Provider A").waitFor();
    expect(await page.getByLabel("Provider A key", { exact: true }).inputValue()).toBe("");
    expect(await pageHolds(page, secret)).toBe(false);
    const status = await api(server.base, key, "GET", "/user/byok/status");
    expect(status.body).toMatchObject({ active_provider: "provider_a", has_provider_a_key: true, has_provider_b_key: false });

    await page.getByRole("button", { name: "Test Provider A key" }).click();
    await page.getByText("Provider A accepted the key.").waitFor();
    expect(providerA.requests.at(-1)?.headers["x-api-key"]).toBe(secret); // the real key reached the provider

    // A key the provider refuses: the provider's error is shown, and the key (which that provider echoes) is not.
    const wrong = `sk-wrong-${crypto.randomUUID()}`;
    await page.getByLabel("Provider B key", { exact: true }).fill(wrong);
    await page.getByRole("button", { name: "Save Provider B key" }).click();
    await page.getByRole("button", { name: "Test Provider B key" }).click();
    await page.getByText(/Incorrect API key provided/).waitFor();
    expect(await pageHolds(page, wrong)).toBe(false);

    await page.reload();
    await rowA.getByText("A key is stored").waitFor();
    expect(await pageHolds(page, secret)).toBe(false);
    expect(await pageHolds(page, wrong)).toBe(false);

    await page.getByRole("button", { name: "Delete Provider A key" }).click();
    await page.getByRole("dialog", { name: "Delete the Provider A key?" }).getByRole("button", { name: "Delete key" }).click();
    await rowA.getByText("No key").waitFor();
    expect((await api(server.base, key, "GET", "/user/byok/status")).body).toMatchObject({ has_provider_a_key: false, active_provider: "provider_b" });
    expectClean(o);
    await o.context.close();
  }, 40_000);

  test("an API key is shown once in a dialog, works, and stops working when revoked; MCP tokens start empty", async () => {
    const o = await openSignedIn(web, server, "/settings#api-keys");
    const { page, context } = o;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.base });
    await page.getByText("No MCP clients connected").waitFor();
    // The deep link opened the page at its section.
    await page.waitForFunction(() => {
      const top = document.getElementById("api-keys").getBoundingClientRect().top;
      return top >= 0 && top < 250; // just under the sticky header, after the sections above filled in
    });

    await page.getByLabel("New key label").fill("ci script");
    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Your new API key" });
    await dialog.getByText("It will not be shown again").waitFor();
    const minted = (await dialog.getByLabel("New API key").textContent())!;
    expect(minted).toMatch(/^svc_[0-9a-f]{64}$/);
    await dialog.getByRole("button", { name: "Copy" }).click();
    await page.getByText("API key copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(minted);
    expect(await a11yViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await pageHolds(page, minted)).toBe(false);
    await page.evaluate(() => navigator.clipboard.writeText(""));

    const me = await api(server.base, minted, "GET", "/user/me");
    expect(me.status).toBe(200);
    // The list shows it with its label and dates; last used appears after the call above on the next read.
    await page.reload();
    const row = page.getByRole("listitem").filter({ hasText: "ci script" });
    await row.getByText(/Last used (just now|\d+ seconds? ago)/).waitFor();
    await row.getByRole("button", { name: "Revoke key ci script" }).click();
    await page.getByRole("dialog", { name: "Revoke key “ci script”?" }).getByRole("button", { name: "Revoke key" }).click();
    await row.waitFor({ state: "detached" });
    expect((await api(server.base, minted, "GET", "/user/me")).status).toBe(401);
    expectClean(o);
    await o.context.close();
  }, 40_000);

  test("exports download as files; the JSON export imports into another account", async () => {
    const o = await openSignedIn(web, server, "/settings#export");
    const { page, key } = o;
    for (const title of ["Rain barrel sensor", "Seed swap, with comma"]) {
      expect((await api(server.base, key, "POST", "/ideas", { title, body: "Some body", tags: ["garden"] })).status).toBe(201);
    }
    const save = async (button: string) => {
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
      return { name: download.suggestedFilename(), path: (await download.path())! };
    };
    const json = await save("Download JSON");
    expect(json.name).toMatch(/^idearepo-export-\d{4}-\d{2}-\d{2}\.json$/);
    const jsonBytes = readFileSync(json.path); // kept: the download goes away with the context
    const doc = JSON.parse(jsonBytes.toString("utf8"));
    expect(doc.format).toBe("idearepo-export");
    expect(doc.ideas.map((i: { title: string }) => i.title)).toEqual(["Rain barrel sensor", "Seed swap, with comma"]);

    const csv = await save("Download CSV");
    expect(csv.name).toMatch(/^idearepo-ideas-\d{4}-\d{2}-\d{2}\.csv$/);
    const csvText = readFileSync(csv.path, "utf8");
    expect(csvText.charCodeAt(0)).toBe(0xfeff);
    expect(csvText.slice(1).split("\r\n")[0]).toBe("id,number,title,body,status,tags,source,created_at");
    expect(csvText).toContain('"Seed swap, with comma"');

    const zip = await save("Download Markdown (ZIP)");
    expect(zip.name).toMatch(/^idearepo-ideas-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(readFileSync(zip.path).subarray(0, 2).toString("latin1")).toBe("PK");
    expectClean(o);
    await o.context.close();

    // A second account imports the JSON file through the page.
    const email = `imp${Math.random().toString(36).slice(2, 8)}@example.com`;
    const key2 = createAccount(server, email, "import password 1", "pro");
    const o2 = await web.open(server.base, "/settings#import");
    await signIn(o2.page, email, "import password 1");
    await o2.page.getByLabel("Export file").setInputFiles({ name: json.name, mimeType: "application/json", buffer: jsonBytes });
    await o2.page.getByRole("button", { name: "Import", exact: true }).click();
    await o2.page.getByText("Imported 2 ideas").first().waitFor();
    const ideas = await api(server.base, key2, "GET", "/ideas?limit=100");
    expect(ideas.body.ideas.map((i: { title: string }) => i.title).sort()).toEqual(["Rain barrel sensor", "Seed swap, with comma"]);
    expect(ideas.body.ideas.every((i: { tags: string[] }) => i.tags.includes("garden"))).toBe(true);
    // A file that is not an export: refused with the reason (the server's 400, which Chromium logs), nothing added.
    allowConsole(o2, /status of 400 .*\/api\/v1\/user\/import\?/);
    await o2.page.getByLabel("Export file").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello":1}') });
    await o2.page.getByRole("button", { name: "Import", exact: true }).click();
    await o2.page.getByText("The file was not imported; nothing changed.").waitFor();
    expect((await api(server.base, key2, "GET", "/ideas?limit=100")).body.ideas).toHaveLength(2);
    expectClean(o2);
    await o2.context.close();
  }, 40_000);

  test("a test digest is sent over SMTP and its text shown; a refused delivery shows the server's reason", async () => {
    smtp.reset();
    const o = await openSignedIn(web, server, "/settings#email");
    const { page, email } = o;
    await page.getByRole("button", { name: "Send a test digest" }).click();
    await page.getByText(`Test digest sent to ${email}`).waitFor();
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].envelopeTo).toEqual([email]);
    expect(smtp.mails[0].subject).toMatch(/^\[Test\] /);
    const shown = await page.getByLabel("Test digest content").textContent();
    expect(shown).toBe(smtp.mails[0].text);
    expect(shown).toContain("Nothing new this week");

    smtp.failNext = "554 Mailbox unavailable";
    // The refused delivery is the spec's 500, on purpose; Chromium logs it.
    allowConsole(o, /status of 500 .*\/api\/v1\/user\/test-digest\)/);
    await page.getByRole("button", { name: "Send a test digest" }).click();
    await page.getByText(/The test digest was not sent: .*554/).waitFor();
    expect(smtp.mails).toHaveLength(1);
    expectClean(o);
    await o.context.close();
  }, 40_000);

  test("a Free account sees the Pro notices, and can still revoke keys and delete provider keys", async () => {
    const o = await openSignedIn(web, server, "/settings", { plan: "free" });
    const { page, key, email } = o;
    // A key stored while the account was Pro stays deletable after the downgrade.
    const setPlan = (plan: string) => expect(runCommand(["users", "set-plan", "--email", email, "--plan", plan], { dataDir: server.dataDir }).code).toBe(0);
    setPlan("pro");
    expect((await api(server.base, key, "PUT", "/user/byok/provider_a", { api_key: "sk-stored-while-pro" })).status).toBe(200);
    setPlan("free");
    await page.reload();
    await page.getByText("Bring your own key requires a Pro plan.").waitFor();
    await page.getByText("API key creation requires a Pro plan.").waitFor();
    await page.getByText("0 of 50 ideas used").waitFor();
    // Billing is off on this instance: the Plan section says who sets plans and offers no payment.
    await page.getByRole("region", { name: "Plan" }).getByText("Plans on this instance are set by its operator.").waitFor();
    expect(await page.getByRole("button", { name: "Upgrade" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Create API key" }).count()).toBe(0);
    expect(await page.getByLabel("Provider A key", { exact: true }).count()).toBe(0);
    // The gates are real: the API refuses what the page does not offer.
    expect((await api(server.base, key, "POST", "/user/api-keys", {})).body.pro_required).toBe(true);
    expect(await a11yViolations(page)).toEqual([]);
    // Deleting a provider key works on Free (no test button: testing is Pro).
    await page.getByText("Active provider: Provider A").waitFor();
    expect(await page.getByRole("button", { name: "Test Provider A key" }).count()).toBe(0);
    await page.getByRole("button", { name: "Delete Provider A key" }).click();
    await page.getByRole("dialog", { name: "Delete the Provider A key?" }).getByRole("button", { name: "Delete key" }).click();
    await page.getByText("Active provider: none").waitFor();
    expect((await api(server.base, key, "GET", "/user/byok/status")).body.has_provider_a_key).toBe(false);
    // Revoking works on Free: the CLI's "default" key is listed and revoked here.
    await page.getByRole("button", { name: "Revoke key default" }).click();
    await page.getByRole("dialog", { name: "Revoke key “default”?" }).getByRole("button", { name: "Revoke key" }).click();
    await page.getByText("No API keys").waitFor();
    expect((await api(server.base, key, "GET", "/user/me")).status).toBe(401);
    expectClean(o);
    await o.context.close();
  }, 40_000);

  test("delete account: the dialog asks for the password; a wrong one is said next to it; the right one deletes and signs out", async () => {
    // Another account stays, so the instance is not empty afterwards (an empty one shows first-run setup instead).
    createAccount(server, `stays${Math.random().toString(36).slice(2, 8)}@example.com`, "another password", "free");
    const o = await openSignedIn(web, server, "/settings#delete-account");
    const { page, key, email } = o;
    // Said before anything is deleted: backups taken earlier still hold the account (docs/auth.md).
    await page.getByText("Backups the server took before keep theirs until the operator removes them or newer ones replace them.", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Delete account…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.getByText(`${email} and its 0 ideas (archived ones too) will be deleted for good`).waitFor();
    // Escape leaves, nothing happens.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Delete account…" }).click();
    expect(await a11yViolations(page)).toEqual([]);
    await dialog.getByLabel("Your password").fill("not my password");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await dialog.getByRole("alert").getByText("Password is incorrect").waitFor();
    allowConsole(o, /status of 403 .*\/api\/v1\/user\)/);
    expect((await api(server.base, key, "GET", "/user/me")).status).toBe(200);

    await dialog.getByLabel("Your password").fill("correct horse battery");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await page.getByRole("heading", { name: "Sign in to idearepo" }).waitFor();
    expect((await api(server.base, key, "GET", "/user/me")).status).toBe(401);
    expect(await pageHolds(page, "correct horse battery")).toBe(false);
    expectClean(o);
    await o.context.close();
  }, 40_000);

  test("phone and dark layouts", async () => {
    const phone = await openSignedIn(web, server, "/settings", { viewport: "phone" });
    await phone.page.getByText("No MCP clients connected").waitFor();
    // The quick-capture address is the API's; the bookmarklet is text to copy, never a javascript: link on this page.
    const { quick_capture_url } = (await api(server.base, phone.key, "GET", "/user/shortcuts")).body;
    await phone.page.getByLabel("Quick-capture address").getByText(quick_capture_url, { exact: true }).waitFor();
    expect(await phone.page.getByLabel("Bookmarklet").textContent()).toStartWith(`javascript:(function(){`);
    expect(await phone.page.getByLabel("Bookmarklet").textContent()).toContain(JSON.stringify(`${quick_capture_url}?`));
    expect(await phone.page.locator('a[href^="javascript:"]').count()).toBe(0);
    // No mailbox configured on this server: capture by e-mail says it is off instead of showing an address.
    await phone.page.getByText("Off on this instance: the operator has not given idearepo a mailbox to read").waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    expect(await a11yViolations(phone.page)).toEqual([]);
    await screenshot(phone.page, "settings-phone");
    expectClean(phone);
    await phone.context.close();

    const dark = await openSignedIn(web, server, "/settings#api-keys", { colorScheme: "dark" });
    await dark.page.getByText("No MCP clients connected").waitFor();
    expect(await a11yViolations(dark.page)).toEqual([]);
    await screenshot(dark.page, "settings-dark");
    expectClean(dark);
    await dark.context.close();
  }, 40_000);
});
