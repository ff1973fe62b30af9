// Gives the focus back to a control that lost it by being disabled while its request ran (a submit button, the
// status select): Chromium moves the focus of a disabled element to <body>, and a keyboard user would have to start
// again from the top of the page. Installed once, so every `disabled={busy}` in the app keeps the focus. Also the
// one hook that returns the focus to the button of an inline form once the form closes.
import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";

/** The control disabled while focused, until it is enabled again or the person moves the focus or clicks elsewhere. */
let waiting: HTMLElement | null = null;

const isDisabled = (el: Element) => (el as HTMLButtonElement).disabled === true;
export const focusIsLost = () => !document.activeElement || document.activeElement === document.body;

/** Where the focus is, or the control that lost it by being disabled (a dialog opened by a busy button returns there). */
export const focusedOrWaiting = (): HTMLElement | null => (focusIsLost() ? waiting : (document.activeElement as HTMLElement));

export function installFocusKeeper(): void {
  let last: HTMLElement | null = null;
  document.addEventListener("focusin", (e) => {
    last = e.target as HTMLElement;
    waiting = null; // the focus is somewhere again: nothing to give back
  });
  document.addEventListener("pointerdown", () => void (waiting = null), true);
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target as HTMLElement;
      if (el === last && isDisabled(el) && (document.activeElement === el || focusIsLost())) waiting = el;
      else if (el === waiting && !isDisabled(el)) {
        waiting = null;
        if (el.isConnected && focusIsLost()) el.focus();
      }
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["disabled"] });
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
