// The rows of the list's first render: only those that fit a first screen, the rest in the next task, so the page
// paints before it builds 50 rows (on a cold load the first render runs in the same task as the bundle's parse).
import { useEffect, useState } from "preact/hooks";

/** Rows of the first render: more than a tall desktop screen shows (rows are ~80 px), so the rest land below the fold. */
export const FIRST_SCREEN_ROWS = 15;

/**
 * The items to render: the first FIRST_SCREEN_ROWS until the page has painted once with rows, then all of them (and
 * all from then on: "Show more" and reloads render whole). The rest comes in a task of its own after the paint
 * (Preact runs effects after the next frame; the timeout yields once more), so input between the two is answered.
 */
export function useFirstScreen<T>(items: T[]): T[] {
  const [all, setAll] = useState(false);
  const cut = !all && items.length > FIRST_SCREEN_ROWS;
  useEffect(() => {
    if (!cut) return;
    const timer = setTimeout(() => setAll(true), 0);
    return () => clearTimeout(timer);
  }, [cut]);
  return cut ? items.slice(0, FIRST_SCREEN_ROWS) : items;
}
