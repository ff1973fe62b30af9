// The operator's page in a real browser: accounts made with a password or an invitation (accepted at /invite in
// another browser), plan, trial and disable checked through the API, instance health, the backup download, and what
// a non-operator sees (the app's not-found page, no Operator link).
import { beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { api, runCommand } from "../ops/harness";
import { a11yViolations, allowConsole, createAccount, describeBrowser, expectClean, screenshot, signIn, VIEWPORTS, webScope, type WebServer } from "./harness";

const OPERATOR = { email: "ops@example.com", password: "operator password 1" };

describeBrowser("operator page", () => {
  const web = webScope("idearepo-web-admin-");
  let server: WebServer;
  let opKey: string;
  beforeAll(async () => {
    server = await web.server();
    const out = runCommand(["users", "create", "--email", OPERATOR.email, "--name", "Olga Operator", "--plan", "pro", "--operator", "--password-stdin"], {
      dataDir: server.dataDir,
      stdin: OPERATOR.password,
    });
    expect(out.code).toBe(0);
    opKey = JSON.parse(out.stdout).api_key;
  }, 40_000);

  const adminUser = async (email: string) => {
    const r = await api(server.base, opKey, "GET", "/admin/users");
    expect(r.status).toBe(200);
    return r.body.users.find((u: { email: string }) => u.email === email);
  };
  const openAsOperator = async (opts: Parameters<ReturnType<typeof webScope>["open"]>[2] = {}) => {
    const o = await web.open(server.base, "/admin", opts);
    await signIn(o.page, OPERATOR.email, OPERATOR.password);
    await o.page.getByRole("heading", { level: 1, name: "Operator" }).waitFor();
    await o.page.getByRole("heading", { name: "Instance" }).waitFor();
    return o;
  };

  test("an account made with a password signs in at once, in another browser", async () => {
    const o = await openAsOperator();
    const { page } = o;
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Operator" }).count()).toBe(1);
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "admin-desktop");

    // Invalid fields on purpose: the API's 400 field messages are what the form shows; Chromium logs the 400.
    allowConsole(o, /status of 400 .*\/api\/v1\/admin\/users\)/);
    await page.getByLabel("E-mail").fill("not an address");
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("email must be an e-mail address").waitFor(); // the API's field message, at its field
    expect(await adminUser("not an address")).toBeUndefined();

    await page.getByLabel("E-mail").fill("pat@example.com");
    await page.getByLabel("Name").fill("Pat Password");
    await page.getByLabel("Password", { exact: true }).fill("pat password 1");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("button", { name: "Manage pat@example.com" }).waitFor();
    const pat = await adminUser("pat@example.com");
    expect(pat).toMatchObject({ display_name: "Pat Password", plan: "free", disabled: false, is_operator: false });

    const other = await web.open(server.base, "/");
    await signIn(other.page, "pat@example.com", "pat password 1");
    expect(await other.page.getByRole("link", { name: "Operator" }).count()).toBe(0);
    expectClean(other);
    expectClean(o);
  }, 40_000);

  test("an invitation link: the invitee sets a password in another browser and is signed in", async () => {
    const o = await openAsOperator();
    const { page } = o;
    await page.getByLabel("E-mail").fill("ivy@example.com");
    await page.getByLabel("Plan").selectOption("pro");
    await page.getByLabel("Make an invitation link").check();
    expect(await page.getByLabel("Password", { exact: true }).count()).toBe(0); // no password field for an invitation
    await page.getByRole("button", { name: "Create account" }).click();
    const link = await page.getByLabel("Invitation link", { exact: true }).inputValue();
    expect(link).toMatch(new RegExp(`^${server.base}/invite\\?token=[0-9a-f]{64}$`));
    expect(await adminUser("ivy@example.com")).toMatchObject({ plan: "pro", display_name: "ivy" });
    expect(await a11yViolations(page)).toEqual([]);

    // A made-up token is refused, and says what to do.
    const wrong = await web.open(server.base, `/invite?token=${"0".repeat(64)}`);
    // A made-up token on purpose: the API's 400 is what the page shows; Chromium logs it.
    allowConsole(wrong, /status of 400 .*\/api\/v1\/auth\/accept-invitation\)/);
    await wrong.page.getByLabel("New password").fill("ivy password 1");
    await wrong.page.getByLabel("Repeat the password").fill("ivy password 1");
    await wrong.page.getByRole("button", { name: "Set password and sign in" }).click();
    await wrong.page.getByText("Invitation is invalid or has expired").waitFor();
    expectClean(wrong);

    const invitee = await web.open(server.base, new URL(link).pathname + new URL(link).search);
    const ip = invitee.page;
    await ip.getByRole("heading", { name: "Welcome to idearepo" }).waitFor();
    expect(await a11yViolations(ip)).toEqual([]);
    await ip.getByLabel("New password").fill("ivy password 1");
    await ip.getByLabel("Repeat the password").fill("ivy password 2");
    await ip.getByRole("button", { name: "Set password and sign in" }).click();
    await ip.getByText("The two passwords differ.").waitFor();
    await ip.getByLabel("Repeat the password").fill("ivy password 1");
    await ip.getByRole("button", { name: "Set password and sign in" }).click();
    await ip.getByRole("navigation", { name: "Main" }).waitFor();
    expect(new URL(ip.url()).pathname).toBe("/capture"); // the token left the address bar
    // Signed in as the invitee, by the cookie the acceptance set: the app's own session answers as Ivy.
    const me = await ip.evaluate(async () => (await (await fetch("/api/v1/user/me")).json()) as { email: string });
    expect(me.email).toBe("ivy@example.com");
    // The link was for one use.
    const again = await api(server.base, null, "POST", "/auth/accept-invitation", { token: new URL(link).searchParams.get("token"), password: "another password" });
    expect(again.status).toBe(400);
    // And the password works from now on.
    const fresh = await web.open(server.base, "/");
    await signIn(fresh.page, "ivy@example.com", "ivy password 1");
    expectClean(fresh);
    expectClean(invitee);
    expectClean(o);
  }, 40_000);

  test("plan, trial, a new password and disable, each checked through the API", async () => {
    createAccount(server, "max@example.com", "max password 1", "free");
    const maxBrowser = await web.open(server.base, "/ideas");
    await signIn(maxBrowser.page, "max@example.com", "max password 1");

    const o = await openAsOperator();
    const { page } = o;
    await page.getByRole("button", { name: "Manage max@example.com" }).click();
    const dialog = page.getByRole("dialog", { name: "Manage max@example.com" });
    await dialog.waitFor();
    expect(await a11yViolations(page)).toEqual([]);

    await dialog.getByLabel("Plan").selectOption("pro");
    await dialog.getByRole("button", { name: "Save plan" }).click();
    await page.getByText("max@example.com is now on Pro.").waitFor();
    expect(await adminUser("max@example.com")).toMatchObject({ plan: "pro", is_trialing: false });

    await dialog.getByLabel("Plan").selectOption("free");
    await dialog.getByRole("button", { name: "Save plan" }).click();
    await page.getByText("max@example.com is now on Free.").waitFor();
    await dialog.getByLabel("Trial days").fill("30");
    await dialog.getByRole("button", { name: "Start trial" }).click();
    await page.getByText("Pro trial of 30 days started for max@example.com.").waitFor();
    const trial = await adminUser("max@example.com");
    expect(trial).toMatchObject({ plan: "pro", is_trialing: true });
    const days = (Date.parse(trial.trial_ends_at.replace(" ", "T") + "Z") - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);

    await dialog.getByLabel("New password").fill("max password 2");
    await dialog.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Password of max@example.com replaced.").waitFor();
    expect((await api(server.base, null, "POST", "/auth/login", { email: "max@example.com", password: "max password 2" })).status).toBe(200);

    await dialog.getByRole("button", { name: "Disable account" }).click();
    await dialog.getByRole("button", { name: "Enable account" }).waitFor();
    expect(await adminUser("max@example.com")).toMatchObject({ disabled: true });
    // Max's open session ended with it: the next request shows the sign-in page.
    await maxBrowser.page.reload();
    await maxBrowser.page.getByRole("heading", { name: "Sign in to idearepo" }).waitFor();

    await dialog.getByRole("button", { name: "Enable account" }).click();
    await dialog.getByRole("button", { name: "Disable account" }).waitFor();
    expect(await adminUser("max@example.com")).toMatchObject({ disabled: false });
    await dialog.getByRole("button", { name: "Close" }).click();
    // The list shows what changed.
    const row = page.getByRole("listitem").filter({ has: page.getByRole("button", { name: "Manage max@example.com" }) });
    await row.getByText(/^Trial ends in /).waitFor();

    // The operator cannot disable themself: the page does not offer it.
    await page.getByRole("button", { name: `Manage ${OPERATOR.email}` }).click();
    await page.getByText("This is your own account: it cannot be disabled").waitFor();
    expect(await page.getByRole("button", { name: "Disable account" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    expectClean(maxBrowser);
    expectClean(o);
  }, 40_000);

  test("delete an account from its Manage dialog: only once its e-mail is typed; the list and the API lose it", async () => {
    const key = createAccount(server, "leaving@example.com", "leaving password 1", "free");
    expect((await api(server.base, key, "POST", "/ideas", { title: "Something to take along" })).status).toBe(201);
    const o = await openAsOperator();
    const { page } = o;
    await page.getByRole("button", { name: "Manage leaving@example.com" }).click();
    const dialog = page.getByRole("dialog", { name: "Manage leaving@example.com" });
    const confirm = dialog.getByLabel("Type the account's e-mail to delete it");
    const remove = dialog.getByRole("button", { name: "Delete account" });
    expect(await remove.isDisabled()).toBe(true);
    await confirm.fill("leaving@example.co");
    expect(await remove.isDisabled()).toBe(true);
    await confirm.fill("Leaving@example.com");
    await remove.click();
    await page.getByText("leaving@example.com and its 1 idea were deleted.").waitFor();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.getByRole("button", { name: "Manage leaving@example.com" }).count()).toBe(0);
    expect(await adminUser("leaving@example.com")).toBeUndefined();
    expect((await api(server.base, key, "GET", "/user/me")).status).toBe(401);
    // The operator's own account offers no deletion here (Settings → Delete account does, with the password).
    await page.getByRole("button", { name: `Manage ${OPERATOR.email}` }).click();
    await page.getByRole("dialog", { name: `Manage ${OPERATOR.email}` }).getByText("This is your own account").waitFor();
    expect(await page.getByLabel("Type the account's e-mail to delete it").count()).toBe(0);
    await page.keyboard.press("Escape");
    expectClean(o);
  }, 40_000);

  test("instance health shows the model and the queue; the backup download is the SQLite database (pg_dump named on PostgreSQL)", async () => {
    const o = await openAsOperator();
    const { page } = o;
    const info = (await api(server.base, opKey, "GET", "/admin/instance")).body;
    const facts = page.locator(".admin-facts");
    await facts.getByText(info.embeddings.model, { exact: true }).waitFor();
    await facts.getByText(/\d+ waiting, \d+ running/).waitFor();
    await facts.getByText(/^\d+(\.\d)? (bytes|KB|MB|GB)/).first().waitFor(); // human-readable sizes
    expect(await facts.textContent()).toContain(info.version);

    if (info.database === "sqlite") {
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download a backup" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^idearepo-backup-\d{4}-\d{2}-\d{2}\.db$/);
      const bytes = readFileSync((await download.path())!);
      expect(bytes.subarray(0, 16).toString("latin1")).toBe("SQLite format 3\0");
      expect(new URL(page.url()).pathname).toBe("/admin"); // the page stayed
      // The download is recorded as the last backup, and the page shows it after a refresh.
      expect((await api(server.base, opKey, "GET", "/admin/instance")).body.last_backup).toMatchObject({ path: null });
      await page.getByRole("button", { name: "Refresh" }).click();
      await facts.getByText("(downloaded in a browser)").waitFor();
    } else {
      // On PostgreSQL (IDEAREPO_TEST_STORE) there is no file to download: the page points to pg_dump instead.
      expect(info.database).toBe("postgresql");
      await page.getByText(/back it up with pg_dump/).waitFor();
      expect(await page.getByRole("link", { name: "Download a backup" }).count()).toBe(0);
    }

    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByRole("heading", { name: "Accounts" }).scrollIntoViewIfNeeded();
    expect(await a11yViolations(page)).toEqual([]);
    await screenshot(page, "admin-phone");
    expectClean(o);

    const dark = await openAsOperator({ colorScheme: "dark" });
    expect(await a11yViolations(dark.page)).toEqual([]);
    await screenshot(dark.page, "admin-dark");
    expectClean(dark);
  }, 40_000);

  test("a non-operator sees the not-found page at /admin, and no Operator link", async () => {
    const key = createAccount(server, "nora@example.com", "nora password 1", "pro");
    expect((await api(server.base, key, "GET", "/admin/users")).status).toBe(404); // what the page mirrors
    const o = await web.open(server.base, "/admin");
    await signIn(o.page, "nora@example.com", "nora password 1");
    await o.page.getByRole("heading", { level: 1, name: "Not found" }).waitFor();
    expect(await o.page.getByRole("link", { name: "Operator" }).count()).toBe(0);
    expect(await o.page.getByRole("heading", { name: "Accounts" }).count()).toBe(0);
    expectClean(o);
  }, 40_000);
});
