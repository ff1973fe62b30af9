// Settings → Folder in a real browser: a person chooses a folder under the instance's vaults root by keyboard, a note
// written there becomes an idea and shows in the section's files and last sync; a name outside the root is refused.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api } from "../ops/harness";
import { a11yViolations, allowConsole, describeBrowser, expectClean, openSignedIn, webScope, type WebServer } from "./harness";

describeBrowser("settings: folder", () => {
  const web = webScope("idearepo-web-folder-");
  const root = mkdtempSync(join(tmpdir(), "idearepo-web-vaults-"));
  let server: WebServer;
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test("connect a folder under the root, see a note arrive as a file count and a last sync, disconnect", async () => {
    server = await web.server({ IDEAREPO_VAULTS_DIR: root });
    const o = await openSignedIn(web, server, "/settings#folder", { colorScheme: "dark" });
    const { page, key } = o;
    const section = page.getByRole("region", { name: "Folder" });
    await section.getByText("Not connected to a folder.").waitFor();

    // The refused name below is a 400 the browser logs as a failed resource load: expected here.
    allowConsole(o, /status of 400 .*\/api\/v1\/vault/);
    const name = section.getByLabel("Folder name");
    await name.fill("../outside");
    await name.press("Enter");
    await section.getByRole("alert").filter({ hasText: "vaults root" }).waitFor();

    await name.fill("garden");
    await name.press("Enter");
    const facts = section.getByLabel("Folder state");
    await facts.getByText("garden").waitFor();

    writeFileSync(join(root, "garden", "Compost bin.md"), "Greens and browns, turned weekly.\n");
    // The section reads the state again every 5 s while connected.
    const text = async () => (await facts.innerText()).replace(/\s+/g, " ");
    const deadline = Date.now() + 20_000;
    while (!/Files 1 /.test(await text()) && Date.now() < deadline) await Bun.sleep(250);
    expect(await text()).toMatch(/Files 1 Conflicts 0 Errors 0/);
    expect(await text()).toMatch(/Last sync (just now|\d+ seconds? ago)/);
    const ideas = await api(server.base, key, "GET", "/ideas");
    expect(JSON.stringify(ideas.body)).toContain("Compost bin");

    expect(await a11yViolations(page)).toEqual([]);
    const disconnect = section.getByRole("button", { name: "Disconnect folder" });
    await disconnect.focus();
    await page.keyboard.press("Enter");
    await section.getByText("Not connected to a folder.").waitFor();
    expect((await api(server.base, key, "GET", "/vault")).body.connected).toBe(false);
    expectClean(o);
  }, 60_000);
});
