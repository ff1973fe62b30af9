// Review queue: stale ideas, the week's new connections and possible duplicates, worked through with one key each.
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Detection, Status } from "../api/types";
import { getReview, keepIdea, publishReviewTotal, type ConnectionItem, type ReviewQueue, type StaleItem } from "../api/review";
import { archiveIdea, deleteRelation, dismissDuplicate, mergeDuplicate, updateIdea } from "../api/ideas";
import { Page } from "../components/page";
import { ConfirmDialog } from "../components/dialog";
import { EmptyState, Loading, Notice, ProNotice } from "../components/notices";
import { notify, notifyError } from "../components/toast";
import { describeError, planGate } from "../errors";
import { addShortcut } from "../lib/keys";
import { isPro, useSession } from "../session";
import { ConnectionCard, DuplicateCard, MOVES, StaleCard } from "./review/items";

type Entry =
  | { key: string; kind: "stale"; item: StaleItem }
  | { key: string; kind: "conn"; item: ConnectionItem }
  | { key: string; kind: "dup"; item: Detection };

interface Confirm { title: string; message: ComponentChildren; confirmLabel: string; run: () => void }

export function ReviewPage(_props: { params: Record<string, string> }) {
  const session = useSession();
  const pro = isPro(session.user);
  const [queue, setQueue] = useState<ReviewQueue | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  /** Items handled on this page (resolved through the API, or a connection kept locally). */
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [current, setCurrent] = useState<string | null>(null);
  const [focusKey, setFocusKey] = useState<{ key: string | null } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [gate, setGate] = useState<{ feature: string; upgrade_url: string } | null>(null);
  const nodes = useRef(new Map<string, HTMLElement>());
  const doneRef = useRef<HTMLDivElement>(null);

  const load = () => {
    setLoadError(null);
    getReview().then((q) => { setQueue(q); setGone(new Set()); }, (e) => setLoadError(describeError(e)));
  };
  useEffect(load, []);

  const entries = useMemo<Entry[]>(() => {
    if (!queue) return [];
    return [
      ...queue.stale.map((item) => ({ key: `stale-${item.id}`, kind: "stale" as const, item })),
      ...queue.connections.map((item) => ({ key: `conn-${item.id}`, kind: "conn" as const, item })),
      ...queue.duplicates.map((item) => ({ key: `dup-${item.id}`, kind: "dup" as const, item })),
    ].filter((e) => !gone.has(e.key));
  }, [queue, gone]);
  const groups = {
    stale: entries.filter((e) => e.kind === "stale"),
    conn: entries.filter((e) => e.kind === "conn"),
    dup: entries.filter((e) => e.kind === "dup"),
  };
  const target = entries.find((e) => e.key === current) ?? entries[0];

  useEffect(() => {
    if (queue) publishReviewTotal(entries.length);
  }, [queue, entries.length]);

  // After an action the next item takes focus (or the "all caught up" note when none is left).
  useEffect(() => {
    if (!focusKey) return;
    if (focusKey.key && nodes.current.get(focusKey.key)) {
      nodes.current.get(focusKey.key)!.focus();
      setCurrent(focusKey.key);
    } else doneRef.current?.focus();
    setFocusKey(null);
  }, [focusKey, entries]);

  /** Removes an item from view and moves focus to the one after it. */
  const resolve = (key: string) => {
    const i = entries.findIndex((e) => e.key === key);
    const next = entries[i + 1] ?? entries[i - 1];
    setGone((g) => new Set(g).add(key));
    setFocusKey({ key: next?.key ?? null });
  };
  const restore = (key: string) => setGone((g) => { const n = new Set(g); n.delete(key); return n; });

  const act = async (key: string, fn: () => Promise<void>) => {
    if (busy) return;
    setBusy(key);
    try {
      await fn();
    } catch (e) {
      const g = planGate(e);
      if (g) setGate(g);
      notifyError(describeError(e));
    } finally {
      setBusy(null);
    }
  };

  const keepStale = (e: Entry & { kind: "stale" }) => act(e.key, async () => {
    await keepIdea(e.item.id);
    resolve(e.key);
    notify(`Kept #${e.item.number}. A keep cannot be undone; the idea comes back after ${queue!.stale_threshold_days} days without changes.`);
  });
  const moveStale = (e: Entry & { kind: "stale" }, status: Status) => act(e.key, async () => {
    const previous = e.item.status;
    await updateIdea(e.item.id, { status });
    resolve(e.key);
    notify(`Moved #${e.item.number} to ${status}.`, {
      action: {
        label: "Undo",
        run: () => updateIdea(e.item.id, { status: previous }).then(
          () => notify(`#${e.item.number} is ${previous} again.`),
          (err) => notifyError(describeError(err)),
        ),
      },
    });
  });
  const archiveStale = (e: Entry & { kind: "stale" }) => setConfirm({
    title: `Archive #${e.item.number}?`,
    message: <p>“{e.item.title}” leaves your lists, search and the map. Archiving is permanent: there is no way to bring it back from here.</p>,
    confirmLabel: "Archive",
    run: () => act(e.key, async () => {
      await archiveIdea(e.item.id);
      resolve(e.key);
      notify(`Archived #${e.item.number}.`);
    }),
  });
  const keepConnection = (e: Entry & { kind: "conn" }) => {
    resolve(e.key);
    notify("Connection kept.", { action: { label: "Undo", run: () => restore(e.key) } });
  };
  const rejectConnection = (e: Entry & { kind: "conn" }) => {
    if (!pro) return notify("Rejecting a connection requires a Pro plan.");
    setConfirm({
      title: "Reject this connection?",
      message: <p>The connection between #{e.item.source_number} and #{e.item.target_number} is deleted, and the background pass will not propose this pair again. This cannot be undone.</p>,
      confirmLabel: "Reject",
      run: () => act(e.key, async () => {
        await deleteRelation(e.item.id);
        resolve(e.key);
        notify("Connection rejected.");
      }),
    });
  };
  const dismissDup = (e: Entry & { kind: "dup" }) => act(e.key, async () => {
    await dismissDuplicate(e.item.id);
    resolve(e.key);
    notify(`Dismissed: #${e.item.duplicate_number} and #${e.item.idea_number} will not be proposed as duplicates again.`);
  });
  const mergeDup = (e: Entry & { kind: "dup" }) => setConfirm({
    title: `Merge #${e.item.duplicate_number} into #${e.item.idea_number}?`,
    message: <p>The newer idea #{e.item.idea_number} keeps both bodies and all tags; the older #{e.item.duplicate_number} is archived. This cannot be undone.</p>,
    confirmLabel: "Merge",
    run: () => act(e.key, async () => {
      await mergeDuplicate(e.item.id);
      resolve(e.key);
      notify(`Merged #${e.item.duplicate_number} into #${e.item.idea_number}.`);
    }),
  });

  /** One key → one action on the current item; keys that do not apply to it do nothing. */
  const runKey = (key: string) => {
    const e = target;
    if (!e || busy) return;
    if (e.kind === "stale") {
      if (key === "k") return keepStale(e);
      if (key === "a") return archiveStale(e);
      const move = MOVES.find((m) => m.key === key);
      if (move) return moveStale(e, move.status);
    } else if (e.kind === "conn") {
      if (key === "k") return keepConnection(e);
      if (key === "r") return rejectConnection(e);
    } else {
      if (key === "d") return dismissDup(e);
      if (key === "m") return mergeDup(e);
    }
  };
  const step = (by: number) => {
    if (entries.length === 0) return;
    const inside = document.activeElement?.closest?.("[data-key]");
    const i = entries.findIndex((e) => e.key === target?.key);
    const next = inside ? entries[Math.min(entries.length - 1, Math.max(0, i + by))] : entries[Math.max(0, i)];
    setFocusKey({ key: next.key });
  };

  const keyHandlers = useRef({ runKey, step });
  keyHandlers.current = { runKey, step };
  useEffect(() => {
    const offs = [
      addShortcut({ keys: "j", description: "Review: next item", run: () => keyHandlers.current.step(1) }),
      ...[
        ["k", "keep"], ["s", "move to shelved"], ["e", "move to exploring"], ["b", "move to building"], ["h", "move to shipped"],
        ["a", "archive"], ["r", "reject a connection"], ["d", "dismiss a duplicate"], ["m", "merge a duplicate"],
      ].map(([k, d]) => addShortcut({ keys: k, description: `Review: ${d}`, run: () => keyHandlers.current.runKey(k) })),
    ];
    return () => offs.forEach((off) => off());
  }, []);

  const frame = (e: Entry) => ({
    itemKey: e.key,
    current: e.key === target?.key,
    busy: busy === e.key,
    nodeRef: (el: HTMLElement | null) => { if (el) nodes.current.set(e.key, el); else nodes.current.delete(e.key); },
  });

  if (loadError) return <Page title="Review"><Notice kind="error">{loadError} <button type="button" class="btn small" onClick={load}>Try again</button></Notice></Page>;
  if (!queue) return <Page title="Review"><Loading label="Loading the review queue" /></Page>;

  const dupNotice = !pro && (
    <div class="review-pro">
      <ProNotice feature="Finding duplicate ideas" />
      <p class="muted small">On the Free plan the duplicates group stays empty: possible duplicates are only detected for Pro accounts.</p>
    </div>
  );

  return (
    <Page title="Review" heading={<>Review <span class="review-total muted">{entries.length} to review</span></>}>
      {entries.length === 0 ? (
        <>
          <div ref={doneRef} tabIndex={-1} class="review-done">
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
            if (k) setCurrent(k);
          }}
          onKeyDown={(ev) => {
            if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
            ev.preventDefault();
            step(ev.key === "ArrowDown" ? 1 : -1);
          }}
        >
          <p class="review-keys muted small">
            Keys: <kbd>j</kbd>/<kbd>↓</kbd> next, <kbd>↑</kbd> previous, <kbd>k</kbd> keep, <kbd>s</kbd> <kbd>e</kbd> <kbd>b</kbd> <kbd>h</kbd> move to
            shelved/exploring/building/shipped, <kbd>a</kbd> archive, <kbd>r</kbd> reject, <kbd>d</kbd> dismiss, <kbd>m</kbd> merge.
          </p>

          <Group id="stale" title="Stale ideas" count={groups.stale.length} empty="Nothing stale." intro={
            <p class="muted small">
              Captured ideas without changes for more than {queue.stale_threshold_days} days.{" "}
              <a href="/settings">Change the threshold in Settings</a>
            </p>
          }>
            {groups.stale.map((e) => e.kind === "stale" && (
              <li key={e.key}>
                <StaleCard item={e.item} frame={frame(e)} onKeep={() => keepStale(e)} onMove={(s) => moveStale(e, s)} onArchive={() => archiveStale(e)} />
              </li>
            ))}
          </Group>

          <Group id="connections" title="New connections" count={groups.conn.length} empty="No new connections in the last 7 days." intro={<>
            <p class="muted small">Connections made in the last 7 days. Keep one to clear it from this page; reject one to delete it.</p>
            {!pro && <ProNotice feature="Rejecting a connection" />}
            {pro && gate && <ProNotice feature={gate.feature} upgradeUrl={gate.upgrade_url} />}
          </>}>
            {groups.conn.map((e) => e.kind === "conn" && (
              <li key={e.key}>
                <ConnectionCard item={e.item} frame={frame(e)} canReject={pro} onKeep={() => keepConnection(e)} onReject={() => rejectConnection(e)} />
              </li>
            ))}
          </Group>

          <Group id="duplicates" title="Possible duplicates" count={groups.dup.length} empty={pro ? "No possible duplicates." : null} intro={dupNotice}>
            {groups.dup.map((e) => e.kind === "dup" && (
              <li key={e.key}>
                <DuplicateCard item={e.item} frame={frame(e)} onDismiss={() => dismissDup(e)} onMerge={() => mergeDup(e)} />
              </li>
            ))}
          </Group>
        </div>
      )}

      <ConfirmDialog
        open={!!confirm}
        title={confirm?.title ?? ""}
        message={confirm?.message}
        confirmLabel={confirm?.confirmLabel ?? "OK"}
        danger
        onCancel={() => { setConfirm(null); setFocusKey({ key: target?.key ?? null }); }}
        onConfirm={() => { const c = confirm; setConfirm(null); c?.run(); }}
      />
    </Page>
  );
}

/** One group: a heading with its count, an intro, and its items (or a short line when it is empty). */
function Group({ id, title, count, empty, intro, children }: { id: string; title: string; count: number; empty: string | null; intro: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="review-group" aria-labelledby={`group-${id}`}>
      <h2 id={`group-${id}`}>{title} <span class="count">{count}</span></h2>
      {intro}
      {count === 0 && empty && <p class="review-group-empty muted">{empty}</p>}
      {count > 0 && <ul class="list review-list">{children}</ul>}
    </section>
  );
}
