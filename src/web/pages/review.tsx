// Review queue: stale ideas, new connections and possible duplicates, grouped by idea and best first, worked through
// with one key per item or one button per group; counts go down as the person works. The state is the page hook
// (review/use-review-queue.ts), what each action does review/actions.tsx, the keys review/use-review-keys.ts.
import { Page } from "../components/page";
import { ConfirmDialog } from "../components/dialog";
import { EmptyState, Loading, Notice } from "../components/notices";
import { isPro, useSession } from "../session";
import { reviewActions } from "./review/actions";
import { BulkProgress } from "./review/groups";
import { ConnectionsSection, DuplicatesProNote, DuplicatesSection, StaleSection } from "./review/sections";
import { useReviewKeys } from "./review/use-review-keys";
import { useReviewQueue } from "./review/use-review-queue";

export function ReviewPage(_props: { params: Record<string, string> }) {
  const session = useSession();
  const pro = isPro(session.user);
  const s = useReviewQueue();
  const a = reviewActions(s, pro);
  const onListKey = useReviewKeys(s, a);

  if (s.loadError) return <Page title="Review"><Notice kind="error">{s.loadError} <button type="button" class="btn small" onClick={s.load}>Try again</button></Notice></Page>;
  if (!s.queue || !s.arranged) return <Page title="Review"><Loading label="Loading the review queue" /></Page>;
  const sections = { s, a, arranged: s.arranged, pro, working: !!s.busy || !!s.progress };
  const total = s.arranged.counts.total;

  return (
    <Page title="Review" heading={<>Review <span class="review-total muted">{total} to review</span></>}>
      <BulkProgress progress={s.progress} />
      {total === 0 ? (
        <>
          <div ref={s.doneRef} tabIndex={-1} class="review-done">
            <EmptyState title="All caught up">
              <p>Nothing stale, no new connections this week{pro ? ", no possible duplicates" : ""}. Capture something new, or come back later.</p>
            </EmptyState>
          </div>
          {!pro && <DuplicatesProNote />}
        </>
      ) : (
        <div
          class="review-queue"
          onFocusIn={(ev) => {
            const k = (ev.target as HTMLElement).closest?.("[data-key]")?.getAttribute("data-key");
            if (k) s.setCurrent(k);
          }}
          onKeyDown={onListKey}
        >
          <p class="review-keys muted small">
            Keys: <kbd>j</kbd>/<kbd>↓</kbd> next, <kbd>↑</kbd> previous, <kbd>k</kbd> keep, <kbd>s</kbd> <kbd>e</kbd> <kbd>b</kbd> <kbd>h</kbd> move to
            shelved/exploring/building/shipped, <kbd>a</kbd> archive, <kbd>r</kbd> reject, <kbd>d</kbd> dismiss, <kbd>m</kbd> merge;
            with Shift, <kbd>K</kbd> <kbd>R</kbd> <kbd>D</kbd> do it for every item of the idea in focus.
          </p>
          <StaleSection {...sections} />
          <ConnectionsSection {...sections} />
          <DuplicatesSection {...sections} />
        </div>
      )}

      <ConfirmDialog
        open={!!s.confirm}
        title={s.confirm?.title ?? ""}
        message={s.confirm?.message}
        confirmLabel={s.confirm?.confirmLabel ?? "OK"}
        danger
        onCancel={() => { s.setConfirm(null); s.setFocusKey({ key: s.target?.key ?? null }); }}
        onConfirm={() => { const c = s.confirm; s.setConfirm(null); c?.run(); }}
      />
    </Page>
  );
}
