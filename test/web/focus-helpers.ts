// Where the keyboard focus is, as the focus tests name it, and a bounded wait for it to get somewhere.
// Functions passed to page.evaluate run in the browser, where these exist.
declare const document: any;
import { expect } from "bun:test";
import type { Page } from "playwright-core";

/** The focused element's name as the tests name controls (aria-label, label or text); `expected` is passed through. */
export function focusedName(expected?: string): string | boolean {
  const el = document.activeElement;
  const name = !el || el === document.body ? "(nothing: the page body)" : (el.getAttribute("aria-label") || el.labels?.[0]?.textContent || el.textContent || "").trim();
  return expected === undefined ? name : name === expected;
}

/** Waits (generously: the machine is loaded) for the focus to be on the control named `name`; fails naming where it is. */
export async function expectFocusOn(page: Page, name: string): Promise<void> {
  // A function, not a string: the page's CSP forbids eval, which a string predicate needs.
  await page.waitForFunction(focusedName, name, { timeout: 10_000 }).catch(() => {});
  expect(await page.evaluate(focusedName, undefined)).toBe(name);
}
