// Ideas page: newest first, filters in the URL, one page of 50 at a time, keyboard moves, selection with bulk
// status / tag changes and archive, and "looks like #N" where a pending duplicate detection pairs two rows.
import { useEffect, useRef, useState } from "preact/hooks";
import { summarizeDuplicates, type DuplicateSummary } from "../api/ideas";
import { listTags } from "../api/tags";
import type { Tag } from "../api/types";
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

/** Each summarised row's badge: its closest look-alike and how many pending detections pair it. */
function indexSummaries(list: DuplicateSummary[], known: Map<number, LooksLike>): Map<number, LooksLike> {
  const m = new Map(known);
  for (const s of list) m.set(s.idea_id, { id: s.closest.idea_id, number: s.closest.number, title: s.closest.title, pending: s.pending });
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
  const [looksLike, setLooksLike] = useState<Map<number, LooksLike>>(() => new Map());

  // The tag vocabulary once; the rows do not wait for it.
  useEffect(() => {
    listTags().then((r) => setTags(r.tags), () => setTags([]));
  }, []);

  // "Looks like #N" for the rows shown: per idea only the count and the closest detection
  // (GET /ideas/duplicates/summary, at most 100 ids a request), asked once per idea as pages arrive. The detections
  // themselves are read only where they are shown in full (Review, an idea's page).
  const askedDuplicates = useRef(new Set<number>());
  useEffect(() => {
    if (!isPro(session.user)) return;
    const ids = list.ideas.map((i) => i.id).filter((id) => !askedDuplicates.current.has(id));
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      chunk.forEach((id) => askedDuplicates.current.add(id));
      summarizeDuplicates(chunk).then((r) => {
        if (r.summaries.length) setLooksLike((prev) => indexSummaries(r.summaries, prev));
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
          {/* Kept while a bulk change runs, so the control that started it keeps its place until the change is done. */}
          {(sel.ideas.length > 0 || sel.busy) && (
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
