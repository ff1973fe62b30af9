// The list's states around its rows: loading, a failed first load with Try again, the two empty lists (none yet, none
// matching the filters), and the foot (a failed "more", Show more, or where the list ends).
import { EmptyState, Loading, Notice } from "../../components/notices";
import { plural } from "../../lib/plural";
import type { IdeaList } from "./use-idea-list";

export function ListStates({ list, filtered, onClearFilters }: { list: IdeaList; filtered: boolean; onClearFilters: () => void }) {
  if (list.phase === "loading") return <Loading label="Loading ideas" />;
  if (list.phase === "error") {
    return (
      <Notice kind="error">
        {list.error} <button type="button" class="btn small" onClick={() => list.reload()}>Try again</button>
      </Notice>
    );
  }
  if (list.ideas.length > 0) return null;
  return filtered ? (
    <EmptyState title="No ideas match these filters">
      <button type="button" class="btn" onClick={onClearFilters}>Clear filters</button>
    </EmptyState>
  ) : (
    <EmptyState title="No ideas yet">
      <p>Ideas you capture appear here, newest first.</p>
      <a class="btn primary" href="/capture">Capture an idea</a>
    </EmptyState>
  );
}

export function ListFoot({ list, filtered }: { list: IdeaList; filtered: boolean }) {
  return (
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
  );
}
