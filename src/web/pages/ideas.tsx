// Ideas page: newest first, filters in the URL, one page of 50 at a time, keyboard moves, selection with bulk
// status / tag changes and archive, and "looks like #N" where a pending duplicate detection pairs two rows.
import { useEffect, useRef, useState } from "preact/hooks";
import { listDuplicates } from "../api/ideas";
import { listTags } from "../api/tags";
import type { Detection, Tag } from "../api/types";
import { Page } from "../components/page";
import { setQuery, useLocation } from "../router";
import { isPro, useSession } from "../session";
import { BulkBar } from "./ideas/bulk-bar";
import { FilterBar, hasFilters, listQuery, readFilters, type FilterChange } from "./ideas/filters";
import { IdeaRow, type LooksLike } from "./ideas/idea-row";
import { ListFoot, ListStates } from "./ideas/list-states";
import { ArchiveDialog, BulkReportNotice, ListHead } from "./ideas/selection-parts";
import { useIdeaList } from "./ideas/use-idea-list";
import { useRowKeys } from "./ideas/use-row-keys";
import { useSelection } from "./ideas/use-selection";

/** Both ideas of a pending detection point at each other: each row says which idea it looks like. */
function indexDuplicates(list: Detection[], known: Map<number, LooksLike[]>): Map<number, LooksLike[]> {
  const m = new Map(known);
  const add = (id: number, other: LooksLike) => {
    const l = m.get(id) ?? [];
    if (!l.some((x) => x.id === other.id)) m.set(id, [...l, other]);
  };
  for (const d of list) {
    add(d.idea_id, { id: d.duplicate_of_id, number: d.duplicate_number, title: d.duplicate_title });
    add(d.duplicate_of_id, { id: d.idea_id, number: d.idea_number, title: d.idea_title });
  }
  return m;
}

export function IdeasPage(_props: { params: Record<string, string> }) {
  const { query } = useLocation();
  const session = useSession();
  const filters = readFilters(query);
  const types = filters.tag ? undefined : filters.types.join(",") || undefined;
  const list = useIdeaList(listQuery(filters));
  const filterKey = `${filters.status ?? ""}|${filters.tag ?? ""}|${types ?? ""}`;
  const sel = useSelection(list, filterKey);
  const keys = useRowKeys(list.ideas, filterKey, sel.toggle);

  const [tags, setTags] = useState<Tag[] | null>(null);
  const [looksLike, setLooksLike] = useState<Map<number, LooksLike[]>>(() => new Map());

  // The tag vocabulary once; the rows do not wait for it.
  useEffect(() => {
    listTags().then((r) => setTags(r.tags), () => setTags([]));
  }, []);

  // "Looks like #N" for the rows shown: the detections of these ideas only (GET /ideas/duplicates?idea_ids, at most
  // 100 a request), asked once per idea as pages arrive, never the whole listing.
  const askedDuplicates = useRef(new Set<number>());
  useEffect(() => {
    if (!isPro(session.user)) return;
    const ids = list.ideas.map((i) => i.id).filter((id) => !askedDuplicates.current.has(id));
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      chunk.forEach((id) => askedDuplicates.current.add(id));
      listDuplicates(chunk).then((r) => {
        if (r.duplicates.length) setLooksLike((prev) => indexDuplicates(r.duplicates, prev));
      }, () => chunk.forEach((id) => askedDuplicates.current.delete(id)));
    }
  }, [list.ideas]);

  // A deep link with both tag and connection_types: the tag wins, so the ignored half leaves the URL.
  useEffect(() => {
    if (filters.tag && query.get("connection_types")) setQuery({ connection_types: null });
  }, [filters.tag, query.get("connection_types")]);

  const changeFilters = (c: FilterChange) => setQuery({ ...c });
  const clearFilters = () => setQuery({ status: null, tag: null, connection_types: null });
  const filtered = hasFilters(filters);

  return (
    <Page title="Ideas" actions={<a class="btn primary" href="/capture">Capture</a>}>
      <FilterBar filters={filters} tags={tags} onChange={changeFilters} />
      {sel.report && <BulkReportNotice report={sel.report} onDismiss={sel.dismissReport} />}
      <ListStates list={list} filtered={filtered} onClearFilters={clearFilters} />
      {list.phase === "ready" && list.ideas.length > 0 && (
        <>
          <ListHead sel={sel} shown={list.ideas.length} />
          {sel.ideas.length > 0 && (
            <BulkBar
              count={sel.ideas.length}
              pageCount={list.ideas.length}
              busy={sel.busy}
              onApply={sel.applyBulk}
              onArchive={() => sel.setConfirming(true)}
              onSelectAll={sel.selectAll}
              onClear={sel.clear}
            />
          )}
          <ul class="list idea-list" ref={keys.listRef} aria-label="Ideas" onKeyDown={keys.onListKey}>
            {list.ideas.map((idea) => (
              <IdeaRow
                key={idea.id}
                idea={idea}
                selected={sel.selected.has(idea.id)}
                active={keys.activeId === idea.id}
                looksLike={looksLike.get(idea.id)}
                onSelect={sel.onSelect}
                onFocusRow={keys.onFocusRow}
              />
            ))}
          </ul>
          <ListFoot list={list} filtered={filtered} />
        </>
      )}
      <ArchiveDialog sel={sel} />
    </Page>
  );
}
