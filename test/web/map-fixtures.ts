// What the mind map's browser tests share: a small connected map in a fresh Pro account, the map opened signed in (sigma's chunk held if asked), a drag held over a target, and the connect dialog's check.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any;
import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { api } from "../ops/harness";
import { createAccount, signIn, type Opened, type WebServer, type webScope } from "./harness";

export const SMALL_MAP_TITLES = ["Tide clock", "Bike lane sensor", "Seed library", "Shared tool shed", "Night market map", "Rooftop beehives"];

/** A Pro account with SMALL_MAP_TITLES, four in a ring and two paired; answers its key, e-mail and the ideas' ids. */
export async function smallMapAccount(server: WebServer, prefix: string): Promise<{ key: string; email: string; ids: number[] }> {
  const email = `${prefix}${Math.random().toString(36).slice(2, 9)}@example.com`;
  const key = createAccount(server, email, "correct horse battery", "pro");
  const ids: number[] = [];
  for (const title of SMALL_MAP_TITLES) {
    const res = await api(server.base, key, "POST", "/ideas", { title });
    expect(res.status).toBe(201);
    ids.push(res.body.id as number);
  }
  for (const [s, t] of [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5]]) {
    expect((await api(server.base, key, "POST", "/map/relations", { source_idea_id: ids[s], target_idea_id: ids[t], relation_type: "related" })).status).toBe(201);
  }
  return { key, email, ids };
}

export interface OpenedMap extends Opened {
  /** Lets sigma's chunk through (nothing to do when it was not held). */
  release: () => void;
  /** Whether the page has asked for sigma's chunk yet. */
  asked: () => boolean;
}

/**
 * Opens /map signed in as `email` and waits for the first view (layout settled). `holdSigma`: sigma's chunk is held on
 * the network until `release()` (as a slow connection would), so "before sigma" is a state the test controls; it needs
 * the service worker blocked, so page.route() sees the request. `touch`: the page has a touch screen. `init`: a script
 * run in the map's page before its own.
 */
export async function openMap(web: ReturnType<typeof webScope>, server: WebServer, email: string, opts: { holdSigma?: boolean; touch?: boolean; init?: () => void } = {}): Promise<OpenedMap> {
  const opened = await web.open(server.base, "/", opts.holdSigma ? { serviceWorkers: "block", hasTouch: opts.touch } : { hasTouch: opts.touch });
  await signIn(opened.page, email, "correct horse battery");
  let release: () => void = () => {};
  let asked = false;
  if (opts.holdSigma) {
    const held = new Promise<void>((r) => (release = r));
    await opened.page.route(/\/assets\/sigma[^/]*\.js$/, async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
  }
  if (opts.init) await opened.page.addInitScript(opts.init);
  await opened.page.goto(`${server.base}/map`);
  await opened.page.getByRole("heading", { level: 1, name: "Mind map" }).waitFor();
  await opened.page.waitForFunction(() => document.querySelector(".map-canvas")?.idearepoMap?.layoutMs != null, null, { timeout: 20_000 });
  return Object.assign(opened, { release: () => release(), asked: () => asked });
}

/** Presses at `from` and moves, in steps, by way of the midpoint to `to`, still held (the caller releases). */
export async function pressAndMoveTo(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
}

/** The connect dialog opens for the ideas titled `from` and `to` (both named in it); then it is cancelled. */
export async function expectConnectDialog(page: Page, from: string, to: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "Connect two ideas" });
  await dialog.waitFor({ timeout: 10_000 });
  expect(await dialog.getByText(from).count(), `the connect dialog names "${from}"`).toBeGreaterThan(0);
  expect(await dialog.getByText(to).count(), `the connect dialog names "${to}"`).toBeGreaterThan(0);
  await dialog.getByRole("button", { name: "Cancel" }).click();
}
