// Review queue: stale ideas, new connections and possible duplicates, grouped by idea and best first, worked through
// with one key per item or one button per group; counts go down as the person works.
import { Page } from "../components/page";
import { ConfirmDialog } from "../components/dialog";
import { EmptyState, Loading, Notice, ProNotice } from "../components/notices";
import { isPro, useSession } from "../session";
import { reviewActions } from "./review/actions";
import { BulkButton, BulkProgress, IdeaGroupView, Section, ShowMore } from "./review/groups";
import { ConnectionCard, DuplicateCard, StaleCard } from "./review/items";
import { useReviewKeys } from "./review/use-review-keys";
import { useReviewQueue } from "./review/use-review-queue";
import { shownOf } from "./review/queue-model";

export function ReviewPage(_props: { params: Record<string, string> }) {
  const session = useSession();
  const pro = isPro(session.user);
  const s = useReviewQueue();
  const a = reviewActions(s, pro);
  const onListKey = useReviewKeys(s, a);

  if (s.loadError) return <Page title="Review"><Notice kind="error">{s.loadError} <button type="button" class="btn small" onClick={s.load}>Try again</button></Notice></Page>;
  if (!s.queue || !s.arranged) return <Page title="Review"><Loading label="Loading the review queue" /></Page>;
  const { stale, conn, dup, counts } = s.arranged;
  const working = !!s.busy || !!s.progress;

  const dupNotice = !pro && (
    <div class="review-pro">
      <ProNotice feature="Finding duplicate ideas" />
      <p class="muted small">On the Free plan the duplicates group stays empty: possible duplicates are only detected for Pro accounts.</p>
    </div>
  );
  const allConnections = conn.flatMap((g) => g.entries);
  const allDuplicates = dup.flatMap((g) => g.entries);

  return (
    <Page title="Review" heading={<>Review <span class="review-total muted">{counts.total} to review</span></>}>
      <BulkProgress progress={s.progress} />
      {counts.total === 0 ? (
        <>
          <div ref={s.doneRef} tabIndex={-1} class="review-done">
            <EmptyState title="All caught up">
              <p>Nothing stale, no new connections this week{pro ? ", no possible duplicates" : ""}. Capture something new, or come back later.</p>
            </EmptyState>
          </div>
          {dupNotice}
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

          <Section id="stale" title="Stale ideas" count={counts.stale} empty="Nothing stale." intro={
            <p class="muted small">
              Captured ideas without changes for more than {s.queue.stale_threshold_days} days.{" "}
              <a href="/settings">Change the threshold in Settings</a>
            </p>
          } actions={<>
            <BulkButton label={`Keep all ${counts.stale}`} of="stale ideas" onClick={() => a.keepAllStale(stale)} disabled={working} />
            <BulkButton label={`Shelve all ${counts.stale}`} of="stale ideas" onClick={() => a.shelveAllStale(stale)} disabled={working} />
          </>}>
            <ul class="list review-list">
              {stale.slice(0, s.shown.stale).map((e) => (
                <li key={e.key}>
                  <StaleCard item={e.item} frame={s.frame(e)} onKeep={() => a.keepStale(e)} onMove={(st) => a.moveStale(e, st)} onArchive={() => a.archiveStale(e)} />
                </li>
              ))}
            </ul>
            <ShowMore left={counts.stale - s.shown.stale} noun="stale ideas" onClick={() => s.showMore("stale")} />
          </Section>

          <Section id="connections" title="New connections" count={counts.conn} empty="No new connections in the last 7 days." intro={<>
            <p class="muted small">
              Connections made in the last 7 days, grouped by idea, best suggestions first. Keep one to clear it from this
              page (this browser remembers it); reject one to delete it. Links carried over by an import are not listed.
            </p>
            {!pro && <ProNotice feature="Rejecting a connection" />}
            {pro && s.gate && <ProNotice feature={s.gate.feature} upgradeUrl={s.gate.upgrade_url} />}
          </>} actions={<>
            <BulkButton label={`Keep all ${counts.conn}`} of="connections" onClick={() => a.keepConnectionsOf(allConnections)} disabled={working} />
            {pro && <BulkButton label={`Reject all ${counts.conn}`} of="connections" onClick={() => a.rejectConnections(allConnections)} danger disabled={working} />}
          </>}>
            <ul class="list review-ideas">
              {conn.slice(0, s.shown.conn).map((g) => (
                <IdeaGroupView key={g.key} group={g} noun={["connection", "connections"]} hidden={g.entries.length - shownOf(g, s.opened).length} onOpen={() => s.openGroup(g.key)} actions={<>
                  <BulkButton label={`Keep all ${g.entries.length}`} of={`connections of #${g.number}`} keyHint="K" onClick={() => a.keepConnectionsOf(g.entries)} disabled={working} />
                  {pro && <BulkButton label={`Reject all ${g.entries.length}`} of={`connections of #${g.number}`} keyHint="R" onClick={() => a.rejectConnections(g.entries)} danger disabled={working} />}
                </>}>
                  {shownOf(g, s.opened).map((e) => (
                    <li key={e.key}>
                      <ConnectionCard item={e.item} frame={s.frame(e)} canReject={pro} onKeep={() => a.keepConnectionsOf([e])} onReject={() => a.rejectConnections([e])} />
                    </li>
                  ))}
                </IdeaGroupView>
              ))}
            </ul>
            <ShowMore left={conn.length - s.shown.conn} noun="ideas with connections" onClick={() => s.showMore("conn")} />
          </Section>

          <Section id="duplicates" title="Possible duplicates" count={counts.dup} empty={pro ? "No possible duplicates." : null} intro={dupNotice}
            actions={<BulkButton label={`Dismiss all ${counts.dup}`} of="possible duplicates" onClick={() => a.dismissAllDups(allDuplicates)} disabled={working} />}>
            <ul class="list review-ideas">
              {dup.slice(0, s.shown.dup).map((g) => (
                <IdeaGroupView key={g.key} group={g} noun={["possible duplicate", "possible duplicates"]} hidden={g.entries.length - shownOf(g, s.opened).length} onOpen={() => s.openGroup(g.key)}
                  actions={<BulkButton label={`Dismiss all ${g.entries.length}`} of={`possible duplicates of #${g.number}`} keyHint="D" onClick={() => a.dismissAllDups(g.entries)} disabled={working} />}>
                  {shownOf(g, s.opened).map((e) => (
                    <li key={e.key}>
                      <DuplicateCard item={e.item} frame={s.frame(e)} onDismiss={() => a.dismissDup(e)} onMerge={() => a.mergeDup(e)} />
                    </li>
                  ))}
                </IdeaGroupView>
              ))}
            </ul>
            <ShowMore left={dup.length - s.shown.dup} noun="ideas with possible duplicates" onClick={() => s.showMore("dup")} />
          </Section>
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
