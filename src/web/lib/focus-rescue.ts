// Where the focus goes when the element holding it is removed from the page (lib/keep-focus.ts notices it): the next
// row when a row goes (the one before when it was the last), the control that takes its place or comes next when a
// control goes, and otherwise the heading of the nearest section around it (the page's <h1> at worst), so Tab goes
// on from there. Only within a page: when a whole page is replaced (a link followed), nothing is moved; nor within a
// dialog, whose close gives the focus back to the control that opened it (components/dialog.tsx).

/** Where the removed element was: its parent, its neighbours then, what replaced it, and whether it was a list's item. */
export interface RemovalSpot { parent: Element; next: Node | null; prev: Node | null; added: Node[]; item: boolean }

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";
const ITEM = "li, tr, [role=listitem], [role=row], [role=option], [data-key]";
const CONTAINER = "section, article, aside, form, fieldset, [role=region], [role=group]";
const HEADING = "h1, h2, h3, h4, legend";

const visible = (el: Element) => el.isConnected && (el as HTMLElement).checkVisibility?.() !== false && el.getClientRects().length > 0;

/** The node itself when it takes the focus, else its first descendant that does. */
function firstFocusable(n: Node | null): HTMLElement | null {
  if (!(n instanceof HTMLElement) || !visible(n)) return null;
  if (n.matches(FOCUSABLE)) return n;
  for (const el of n.querySelectorAll<HTMLElement>(FOCUSABLE)) if (visible(el)) return el;
  return null;
}

/** The record that took `holder` away, from the outermost removal still attached to the page. */
export function removalSpot(records: MutationRecord[], holder: Node): RemovalSpot | null {
  for (const r of records) {
    if (r.type !== "childList" || !r.target.isConnected) continue;
    const gone = [...r.removedNodes].find((n) => n.contains(holder));
    if (!gone) continue;
    // What was put in the same parent in the same change is what replaced it (Remove parent gives way to the picker).
    const inPlace = (n: Node) => n.isConnected && n.parentNode === r.target && n.nextSibling === r.nextSibling && n.previousSibling === r.previousSibling;
    const added = records.filter((a) => a.target === r.target).flatMap((a) => [...a.addedNodes]).filter(inPlace);
    return { parent: r.target as Element, next: r.nextSibling, prev: r.previousSibling, added, item: gone instanceof Element && gone.matches(ITEM) };
  }
  return null;
}

/** The element that takes the focus after a removal at `spot`, or null when the removal was not within a page. */
export function placeAfterRemoval(spot: RemovalSpot): HTMLElement | null {
  const page = spot.parent.closest(".page");
  // Not within a page (a whole page replaced), or within a dialog: its close returns the focus to what opened it.
  if (!page || !spot.parent.isConnected || spot.parent.closest("dialog")) return null;
  for (const n of spot.added) {
    const f = firstFocusable(n);
    if (f) return f;
  }
  for (let n = spot.next; n; n = n.nextSibling) {
    const f = firstFocusable(n);
    if (f) return f;
  }
  if (spot.item) {
    for (let n = spot.prev; n; n = n.previousSibling) {
      const f = firstFocusable(n);
      if (f) return f;
    }
  }
  for (let a: Element | null = spot.parent; a && page.contains(a); a = a.parentElement) {
    if (a instanceof HTMLElement && a.hasAttribute("tabindex") && visible(a)) return a;
    if (!a.matches(CONTAINER) && a !== page) continue;
    // The container's own heading, not one of a section nested in it.
    const heading = [...a.querySelectorAll<HTMLElement>(HEADING)].find((h) => h.parentElement?.closest(`${CONTAINER}, .page`) === a && visible(h));
    if (heading) {
      // Focusable from script only: a heading is a place to start from, not a stop for Tab.
      if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
      return heading;
    }
  }
  return null;
}
