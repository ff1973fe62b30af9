// The signed-in shell at phone width, in a real browser: every page of the main navigation can be seen and reached.
import { beforeAll, expect, test } from "bun:test";
import { describeBrowser, expectClean, openSignedIn, VIEWPORTS, webScope, type WebServer } from "./harness";

describeBrowser("shell at phone width", () => {
  const web = webScope("idearepo-web-shell-");
  let server: WebServer;
  beforeAll(async () => {
    server = await web.server();
  }, 30_000);

  test("every link of the main navigation is inside the screen at 390 and 320 px, the current page's too", async () => {
    const o = await openSignedIn(web, server, "/settings", { viewport: "phone" });
    const { page } = o;
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const width of [390, VIEWPORTS.phone.width, 320]) {
      await page.setViewportSize({ width, height: 844 });
      const outside: string[] = [];
      for (const link of await nav.getByRole("link").all()) {
        const box = (await link.boundingBox())!;
        if (box.x < 0 || box.x + box.width > width) outside.push(`${await link.innerText()} (${Math.round(box.x)}–${Math.round(box.x + box.width)} px)`);
      }
      expect({ width, outside }).toEqual({ width, outside: [] });
    }
    expect(await nav.getByRole("link").count()).toBeGreaterThanOrEqual(7);
    expect(await nav.getByRole("link", { name: "Settings" }).getAttribute("aria-current")).toBe("page");
    expectClean(o);
  });
});
