// The review page's keys: j and ↓/↑ through the items (lib/use-list-keys.ts; k keeps here), one key per action on the
// item in focus, a capital for "all of this idea's suggestions".
import { useEffect, useMemo, useRef } from "preact/hooks";
import { addShortcut } from "../../lib/keys";
import { useListKeys } from "../../lib/use-list-keys";
import type { ReviewActions } from "./actions";
import { MOVES } from "./items";
import type { Entry, IdeaGroup, ConnEntry, DupEntry } from "./queue-model";
import type { ReviewState } from "./use-review-queue";

export const REVIEW_KEYS: Array<[string, string]> = [
  ["k", "keep"], ["s", "move to shelved"], ["e", "move to exploring"], ["b", "move to building"], ["h", "move to shipped"],
  ["a", "archive"], ["r", "reject a connection"], ["d", "dismiss a duplicate"], ["m", "merge a duplicate"],
  ["K", "keep every connection of this idea"], ["R", "reject every connection of this idea"], ["D", "dismiss every duplicate of this idea"],
];

function groupOf<E extends ConnEntry | DupEntry>(groups: IdeaGroup<E>[], e: E): E[] {
  return groups.find((g) => g.key === e.group)?.entries ?? [e];
}

/** Registers the review keys while the page is shown; returns the queue's keydown handler for ↓/↑. */
export function useReviewKeys(s: ReviewState, a: ReviewActions): (e: KeyboardEvent) => void {
  const keys = useMemo(() => s.entries.map((e) => e.key), [s.entries]);
  const onListKey = useListKeys({
    keys,
    current: s.target?.key ?? null,
    focus: (key) => s.setFocusKey({ key }),
    itemSelector: "[data-key]",
    next: "Review: next item",
  });
  /** One key → one action on the current item; keys that do not apply to it do nothing. */
  const runKey = (key: string) => {
    const e: Entry | undefined = s.target;
    if (!e || s.busy || s.progress || !s.arranged) return;
    if (e.kind === "stale") {
      if (key === "k") return a.keepStale(e);
      if (key === "a") return a.archiveStale(e);
      const move = MOVES.find((m) => m.key === key);
      if (move) return a.moveStale(e, move.status);
    } else if (e.kind === "conn") {
      if (key === "k") return a.keepConnectionsOf([e]);
      if (key === "r") return a.rejectConnections([e]);
      if (key === "K") return a.keepConnectionsOf(groupOf(s.arranged.conn, e));
      if (key === "R") return a.rejectConnections(groupOf(s.arranged.conn, e));
    } else {
      if (key === "d") return a.dismissDup(e);
      if (key === "m") return a.mergeDup(e);
      if (key === "D") return a.dismissAllDups(groupOf(s.arranged.dup, e));
    }
  };
  const handlers = useRef({ runKey });
  handlers.current = { runKey };
  useEffect(() => {
    const offs = REVIEW_KEYS.map(([k, d]) => addShortcut({ keys: k, description: `Review: ${d}`, run: () => handlers.current.runKey(k) }));
    return () => offs.forEach((off) => off());
  }, []);
  return onListKey;
}
