// Moving through a list from the keyboard, written once for the ideas list and the review queue: j (and k, where the
// page gives k no other job) from anywhere on the page, ↓/↑ inside the list. Each move focuses an item; the page says
// which item is current and how an item takes the focus.
//
// The rule: with no current item, j goes to the first and k to the last; with the focus on an item, one step (held at
// both ends); with the focus elsewhere on the page, the first press goes back to the current item.
import { useEffect, useRef } from "preact/hooks";
import { addShortcut, isTyping } from "./keys";

export interface ListKeys<K> {
  /** The items' keys in the order they are shown. */
  keys: readonly K[];
  current: K | null;
  /** Moves the focus to the item (and makes it current). */
  focus: (key: K) => void;
  /** What marks an item's element ("[data-key]"): the focus is on an item when it is inside one. */
  itemSelector: string;
  /** The shortcuts' descriptions in the help; no `previous`, no k. */
  next: string;
  previous?: string;
}

/** Registers j (and k) while the page is shown; returns the list's keydown handler for ↓/↑. */
export function useListKeys<K>(opts: ListKeys<K>): (e: KeyboardEvent) => void {
  const latest = useRef(opts);
  latest.current = opts;

  const step = (by: number) => {
    const { keys, current, focus, itemSelector } = latest.current;
    if (keys.length === 0) return;
    const i = current === null ? -1 : keys.indexOf(current);
    const onItem = !!document.activeElement?.closest?.(itemSelector);
    const next = i === -1 ? (by > 0 ? 0 : keys.length - 1) : onItem ? Math.min(keys.length - 1, Math.max(0, i + by)) : i;
    focus(keys[next]);
  };

  useEffect(() => {
    const offs = [addShortcut({ keys: "j", description: latest.current.next, run: () => step(1) })];
    const previous = latest.current.previous;
    if (previous) offs.push(addShortcut({ keys: "k", description: previous, run: () => step(-1) }));
    return () => offs.forEach((off) => off());
  }, []);

  return (e: KeyboardEvent) => {
    if ((e.key !== "ArrowDown" && e.key !== "ArrowUp") || e.altKey || e.ctrlKey || e.metaKey) return;
    if (isTyping(e.target) && (e.target as HTMLInputElement).type !== "checkbox") return;
    e.preventDefault();
    step(e.key === "ArrowDown" ? 1 : -1);
  };
}
