// Keeps the keyboard focus where the person is, installed once for the whole app. Two ways it gets lost in Chromium:
// a control disabled while its request runs (a submit button, the status select) moves the focus to <body>, and so
// does an element removed while it holds the focus (a revoked key's row, a bulk bar once nothing is selected, the
// actions of an idea just archived). A keyboard user would have to start again from the top of the page each time.
// The first gets the focus back once the control is enabled again; the second gives it to the nearest sensible place
// (focus-rescue.ts) unless the page placed it itself first. Also the one hook that returns the focus to the button of
// an inline form once the form closes.
import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { placeAfterRemoval, removalSpot, type RemovalSpot } from "./focus-rescue";

/** The control disabled while focused, until it is enabled again or the person moves the focus or clicks elsewhere. */
let waiting: HTMLElement | null = null;

const isDisabled = (el: Element) => (el as HTMLButtonElement).disabled === true;
export const focusIsLost = () => !document.activeElement || document.activeElement === document.body;

/** Where the focus is, or the control that lost it by being disabled (a dialog opened by a busy button returns there). */
export const focusedOrWaiting = (): HTMLElement | null => (focusIsLost() ? waiting : (document.activeElement as HTMLElement));

/**
 * A control that could not take the focus back because it is disabled (a dialog's opener still busy with the request
 * the dialog started): it gets the focus when it is enabled again, unless the person moves on first.
 */
export function returnFocusWhenEnabled(el: HTMLElement): void {
  if (focusIsLost() && el.isConnected && isDisabled(el)) waiting = el;
}

export function installFocusKeeper(): void {
  let last: HTMLElement | null = null;
  document.addEventListener("focusin", (e) => {
    last = e.target as HTMLElement;
    waiting = null; // the focus is somewhere again: nothing to give back
  });
  // A click elsewhere is the person's own move: nothing to give back or to rescue.
  document.addEventListener("pointerdown", () => void (waiting = last = null), true);
  /**
   * Runs after the page's own handlers have had their turn: their focus calls in the same task or its microtasks, and
   * Preact's effects (useReturnFocus, a dialog's close), which run after the next frame (or 100 ms without frames).
   */
  const rescue = (spot: RemovalSpot) => {
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      setTimeout(() => {
        // A modal dialog is open (its own close returns the focus), or the page or the person placed the focus already.
        if (!focusIsLost() || waiting?.isConnected || document.querySelector("dialog[open]")) return;
        placeAfterRemoval(spot)?.focus();
      }, 0);
    };
    requestAnimationFrame(start);
    setTimeout(start, 120);
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type !== "attributes") continue;
      const el = r.target as HTMLElement;
      if (el === last && isDisabled(el) && (document.activeElement === el || focusIsLost())) waiting = el;
      else if (el === waiting && !isDisabled(el)) {
        waiting = null;
        if (el.isConnected && focusIsLost()) el.focus();
      }
    }
    // What held the focus (or waited for it) left the page with it: find where it was.
    const holder = waiting ?? last;
    if (holder && !holder.isConnected && focusIsLost()) {
      const spot = removalSpot(records, holder);
      if (spot) {
        waiting = last = null;
        rescue(spot);
      }
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled"] });
}

/**
 * For a button that opens an inline form and is hidden while it is open (Edit, Add link, Add relation): when the form
 * closes (saved, cancelled, Escape) and the focus went down with it, the button gets it back. Returns the button's ref.
 */
export function useReturnFocus<T extends HTMLElement>(open: boolean): RefObject<T> {
  const ref = useRef<T>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open && focusIsLost()) ref.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return ref;
}

/**
 * `ref={focusOnMount}` on a field that takes the focus when it appears (the sign-in e-mail, a new link's URL, a tag's
 * new name). The `autofocus` attribute does it only once per document in Chromium, and this app never reloads: the
 * second link form, or the sign-in page after signing out, opened with the focus nowhere. (In a dialog `autofocus`
 * works: showModal looks for it each time.)
 */
export const focusOnMount = (el: HTMLElement | null): void => el?.focus();
