// The ideas list from the keyboard: j/k (and ↓/↑ inside the list, lib/use-list-keys.ts) move between rows by
// focusing the title link, so Enter opens the idea as any link does; x selects the current row.
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Idea } from "../../api/types";
import { addShortcut } from "../../lib/keys";
import { useListKeys } from "../../lib/use-list-keys";

export function useRowKeys(ideas: Idea[], filterKey: string, toggle: (id: number) => void) {
  const [activeId, setActiveId] = useState<number | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => setActiveId(null), [filterKey]);
  const onFocusRow = useCallback((id: number) => setActiveId(id), []);

  const ids = useMemo(() => ideas.map((i) => i.id), [ideas]);
  const onListKey = useListKeys({
    keys: ids,
    current: activeId,
    itemSelector: "li[data-id]",
    next: "Next idea",
    previous: "Previous idea",
    focus: (id) => {
      setActiveId(id);
      const link = listRef.current?.querySelector<HTMLElement>(`#idea-title-${id}`);
      link?.focus();
      link?.closest("li")?.scrollIntoView({ block: "nearest" });
    },
  });
  const latest = useRef({ activeId, toggle });
  latest.current = { activeId, toggle };
  useEffect(() => addShortcut({
    keys: "x",
    description: "Select or unselect the current idea",
    run: () => {
      const { activeId: id, toggle: flip } = latest.current;
      if (id !== null) flip(id);
    },
  }), []);

  return { activeId, onFocusRow, onListKey, listRef };
}
