// Ideas page: newest first, filters in the URL, one page of 50 at a time, keyboard moves, selection with bulk
// status / tag changes and archive, and "looks like #N" where a pending duplicate detection pairs two rows.
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { archiveIdea, bulkUpdate, listDuplicates } from "../api/ideas";
import { listTags } from "../api/tags";
import { LIMITS, type Detection, type Idea, type Tag } from "../api/types";
import { ConfirmDialog } from "../components/dialog";
import { EmptyState, Loading, Notice } from "../components/notices";
import { Page } from "../components/page";
import { notify, notifyError } from "../components/toast";
import { describeError } from "../errors";
import { addShortcut } from "../lib/keys";
import { useListKeys } from "../lib/use-list-keys";
import { setQuery, useLocation } from "../router";
import { isPro, useSession } from "../session";
import { BulkBar, type BulkAction } from "./ideas/bulk-bar";
import { FilterBar, hasFilters, readFilters, type FilterChange } from "./ideas/filters";
import { IdeaRow, type LooksLike } from "./ideas/idea-row";
import { useIdeaList } from "./ideas/use-idea-list";

interface BulkReport { what: string; updated: number; errors: Array<{ id: number; label: string; error: string }> }

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

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

function describeAction(a: BulkAction): string {
  if ("status" in a) return `Status set to ${a.status}`;
  if ("add_tags" in a) return `Added ${a.add_tags.join(", ")}`;
  return `Removed ${a.remove_tags.join(", ")}`;
}

export function IdeasPage(_props: { params: Record<string, string> }) {
  const { query } = useLocation();
  const session = useSession();
  const filters = readFilters(query);
  const types = filters.tag ? undefined : filters.types.join(",") || undefined;
  const list = useIdeaList({ status: filters.status, tag: filters.tag, connection_types: types });
  const filterKey = `${filters.status ?? ""}|${filters.tag ?? ""}|${types ?? ""}`;

  const [tags, setTags] = useState<Tag[] | null>(null);
  const [looksLike, setLooksLike] = useState<Map<number, LooksLike[]>>(() => new Map());
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [activeId, setActiveId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<BulkReport | null>(null);
  const [confirming, setConfirming] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);

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

  // New filters, new list: the selection and any bulk report belonged to the old one.
  useEffect(() => {
    setSelected(new Set());
    setReport(null);
    setActiveId(null);
  }, [filterKey]);

  // Keep the selection to rows still on the list (after a reload, archived or filtered-out ideas leave).
  useEffect(() => {
    setSelected((prev) => {
      if (prev.size === 0) return prev;
      const ids = new Set(list.ideas.map((i) => i.id));
      const next = new Set([...prev].filter((id) => ids.has(id)));
      return next.size === prev.size ? prev : next;
    });
  }, [list.ideas]);

  const onSelect = useCallback((id: number, on: boolean) => {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const onFocusRow = useCallback((id: number) => setActiveId(id), []);

  // Keyboard: j/k (and the arrow keys inside the list) move between rows by focusing the title link, so Enter opens
  // the idea as any link does; x selects the current row.
  const ids = useMemo(() => list.ideas.map((i) => i.id), [list.ideas]);
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
  const activeRef = useRef<number | null>(activeId);
  activeRef.current = activeId;
  useEffect(() => addShortcut({
    keys: "x",
    description: "Select or unselect the current idea",
    run: () => {
      const id = activeRef.current;
      if (id !== null) setSelected((prev) => {
        const next = new Set(prev);
        if (!next.delete(id)) next.add(id);
        return next;
      });
    },
  }), []);

  const changeFilters = (c: FilterChange) => setQuery({ ...c });
  const clearFilters = () => setQuery({ status: null, tag: null, connection_types: null });

  const selectedIdeas = useMemo(() => list.ideas.filter((i) => selected.has(i.id)), [list.ideas, selected]);
  const allSelected = list.ideas.length > 0 && selectedIdeas.length === list.ideas.length;
  const selectAllRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = selectedIdeas.length > 0 && !allSelected;
  }, [selectedIdeas.length, allSelected]);
  const selectAll = () => setSelected(new Set(list.ideas.map((i) => i.id)));
  const clearSelection = () => setSelected(new Set());

  async function applyBulk(action: BulkAction) {
    const ideas = selectedIdeas;
    if (!ideas.length) return;
    setBusy(true);
    setReport(null);
    try {
      const results: Array<{ id: number; status: "updated" | "error"; error?: string }> = [];
      // The API takes at most 50 ids a request; a selection across pages is sent in turn.
      for (let i = 0; i < ideas.length; i += LIMITS.bulk) {
        const r = await bulkUpdate({ ids: ideas.slice(i, i + LIMITS.bulk).map((x) => x.id), ...action });
        results.push(...r.results);
      }
      const byId = new Map(ideas.map((x) => [x.id, x]));
      const errors = results.filter((r) => r.status === "error").map((r) => {
        const idea = byId.get(r.id);
        return { id: r.id, label: idea ? `#${idea.number} ${idea.title}` : `id ${r.id}`, error: r.error ?? "Not changed" };
      });
      const updated = results.length - errors.length;
      if (errors.length) setReport({ what: describeAction(action), updated, errors });
      else notify(`${describeAction(action)} on ${plural(updated, "idea")}.`);
      await list.reload();
    } catch (e) {
      notifyError(describeError(e));
    } finally {
      setBusy(false);
    }
  }

  async function archiveSelected() {
    const ideas = selectedIdeas;
    setConfirming(false);
    setBusy(true);
    setReport(null);
    const failed: Array<{ idea: Idea; error: unknown }> = [];
    // A few at a time: quick for a page of 50 without flooding the server.
    for (let i = 0; i < ideas.length; i += 6) {
      await Promise.all(ideas.slice(i, i + 6).map((idea) => archiveIdea(idea.id).catch((error) => failed.push({ idea, error }))));
    }
    const done = ideas.length - failed.length;
    if (done) notify(`Archived ${plural(done, "idea")}.`);
    if (failed.length) notifyError(`${plural(failed.length, "idea")} could not be archived: ${describeError(failed[0].error)}`);
    setSelected(new Set(failed.map((f) => f.idea.id)));
    await list.reload();
    setBusy(false);
  }

  const filtered = hasFilters(filters);
  return (
    <Page title="Ideas" actions={<a class="btn primary" href="/capture">Capture</a>}>
      <FilterBar filters={filters} tags={tags} onChange={changeFilters} />

      {report && (
        <Notice kind="error">
          <p class="bulk-report-head">
            {report.what}: {plural(report.updated, "idea")} updated, {report.errors.length} not:
          </p>
          <ul class="bulk-errors">
            {report.errors.map((e) => <li key={e.id}><strong>{e.label}</strong>: {e.error}</li>)}
          </ul>
          <button type="button" class="btn small" onClick={() => setReport(null)}>Dismiss</button>
        </Notice>
      )}

      {list.phase === "loading" && <Loading label="Loading ideas" />}
      {list.phase === "error" && (
        <Notice kind="error">
          {list.error} <button type="button" class="btn small" onClick={() => list.reload()}>Try again</button>
        </Notice>
      )}
      {list.phase === "ready" && list.ideas.length === 0 && (
        filtered ? (
          <EmptyState title="No ideas match these filters">
            <button type="button" class="btn" onClick={clearFilters}>Clear filters</button>
          </EmptyState>
        ) : (
          <EmptyState title="No ideas yet">
            <p>Ideas you capture appear here, newest first.</p>
            <a class="btn primary" href="/capture">Capture an idea</a>
          </EmptyState>
        )
      )}

      {list.phase === "ready" && list.ideas.length > 0 && (
        <>
          <div class="list-head">
            <label class="select-all">
              <input ref={selectAllRef} type="checkbox" checked={allSelected} onChange={(e) => (e.currentTarget.checked ? selectAll() : clearSelection())} />
              Select all shown
            </label>
            <span class="muted small">{plural(list.ideas.length, "idea")} shown</span>
            <span class="muted small keys-hint" aria-hidden="true"><kbd>j</kbd>/<kbd>k</kbd> move · <kbd>x</kbd> select · <kbd>Enter</kbd> open</span>
          </div>
          {selectedIdeas.length > 0 && (
            <BulkBar
              count={selectedIdeas.length}
              pageCount={list.ideas.length}
              busy={busy}
              onApply={applyBulk}
              onArchive={() => setConfirming(true)}
              onSelectAll={selectAll}
              onClear={clearSelection}
            />
          )}
          <ul class="list idea-list" ref={listRef} aria-label="Ideas" onKeyDown={onListKey}>
            {list.ideas.map((idea) => (
              <IdeaRow
                key={idea.id}
                idea={idea}
                selected={selected.has(idea.id)}
                active={activeId === idea.id}
                looksLike={looksLike.get(idea.id)}
                onSelect={onSelect}
                onFocusRow={onFocusRow}
              />
            ))}
          </ul>
          <div class="list-foot">
            {list.error && <Notice kind="error">{list.error}</Notice>}
            {list.hasMore ? (
              <button type="button" class="btn" disabled={list.loadingMore} onClick={() => list.loadMore()}>
                {list.loadingMore ? "Loading…" : "Show more"}
              </button>
            ) : (
              <p class="list-end" role="status">That is all: {plural(list.ideas.length, filtered ? "matching idea" : "idea")}.</p>
            )}
          </div>
        </>
      )}

      <ConfirmDialog
        open={confirming}
        title={`Archive ${plural(selectedIdeas.length, "idea")}?`}
        danger
        confirmLabel="Archive"
        onCancel={() => setConfirming(false)}
        onConfirm={archiveSelected}
        message={
          <>
            <p>
              Archiving is permanent: no operation restores an idea. Archived ideas leave this list, search, the map,
              review and exports; each stays readable at its own address.
            </p>
            <ul class="archive-list">
              {selectedIdeas.slice(0, 5).map((i) => <li key={i.id}>#{i.number} {i.title}</li>)}
              {selectedIdeas.length > 5 && <li>and {selectedIdeas.length - 5} more</li>}
            </ul>
          </>
        }
      />
    </Page>
  );
}
