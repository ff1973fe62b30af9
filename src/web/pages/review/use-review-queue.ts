// The review page's state: the queue as loaded, what was handled here (so counts go down as the person works), the
// item in focus, work in progress (one item, or a bulk action with its progress) and the confirmation asked for.
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { getReview, publishReviewTotal } from "../../api/review";
import { describeError, planGate } from "../../errors";
import { notifyError } from "../../components/toast";
import { useLoad } from "../../lib/use-load";
import { arrange, INITIAL_SHOWN, visibleEntries, type Entry, type Shown } from "./queue-model";

export interface Confirm { title: string; message: ComponentChildren; confirmLabel: string; run: () => void }
export interface Progress { label: string; done: number; total: number }

export function useReviewQueue() {
  const { data: queue, error: loadError, reload: load } = useLoad(getReview);
  /** Items handled on this page (resolved through the API, or a connection kept in this browser). */
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [shown, setShown] = useState<Shown>(INITIAL_SHOWN);
  /** Idea groups the person opened to see all their items. */
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const [current, setCurrent] = useState<string | null>(null);
  const [focusKey, setFocusKey] = useState<{ key: string | null } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [gate, setGate] = useState<{ feature: string; upgrade_url: string } | null>(null);
  const nodes = useRef(new Map<string, HTMLElement>());
  const doneRef = useRef<HTMLDivElement>(null);

  // A queue read again starts clean: what was handled here is gone from it.
  useEffect(() => setGone(new Set()), [queue]);

  const arranged = useMemo(() => (queue ? arrange(queue, gone) : null), [queue, gone]);
  const entries = useMemo(() => (arranged ? visibleEntries(arranged, shown, opened) : []), [arranged, shown, opened]);
  const target = entries.find((e) => e.key === current) ?? entries[0];
  const total = arranged?.counts.total ?? 0;

  useEffect(() => {
    if (queue) publishReviewTotal(total);
  }, [queue, total]);

  // After an action the next item takes focus (or the "all caught up" note when none is left).
  useEffect(() => {
    if (!focusKey) return;
    if (focusKey.key && nodes.current.get(focusKey.key)) {
      nodes.current.get(focusKey.key)!.focus();
      setCurrent(focusKey.key);
    } else if (entries.length > 0) {
      const first = nodes.current.get(entries[0].key);
      first?.focus();
      setCurrent(entries[0].key);
    } else doneRef.current?.focus();
    setFocusKey(null);
  }, [focusKey, entries]);

  /** Removes items from view and moves focus to the first item after them (or before, at the end). */
  const resolve = (keys: string[]) => {
    const set = new Set(keys);
    const last = Math.max(...keys.map((k) => entries.findIndex((e) => e.key === k)));
    const first = Math.min(...keys.map((k) => entries.findIndex((e) => e.key === k)).filter((i) => i >= 0));
    const next = entries.slice(last + 1).find((e) => !set.has(e.key)) ?? entries.slice(0, Math.max(0, first)).reverse().find((e) => !set.has(e.key));
    setGone((g) => new Set([...g, ...keys]));
    setFocusKey({ key: next?.key ?? null });
  };
  const restore = (keys: string[]) => setGone((g) => { const n = new Set(g); for (const k of keys) n.delete(k); return n; });

  const fail = (e: unknown) => {
    const g = planGate(e);
    if (g) setGate(g);
    notifyError(describeError(e));
  };

  /** One item's API call; one at a time, and not while a bulk action runs. */
  const act = async (key: string, fn: () => Promise<void>) => {
    if (busy || progress) return;
    setBusy(key);
    try {
      await fn();
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
    }
  };

  /** A bulk action: `run` gets a progress callback; nothing else runs meanwhile. */
  const bulk = async (label: string, count: number, run: (onProgress: (done: number) => void) => Promise<void>) => {
    if (busy || progress) return;
    setProgress({ label, done: 0, total: count });
    try {
      await run((done) => setProgress({ label, done, total: count }));
    } catch (e) {
      fail(e);
    } finally {
      setProgress(null);
    }
  };

  const showMore = (section: keyof Shown) => setShown((s) => ({ ...s, [section]: s[section] + INITIAL_SHOWN[section] }));
  const openGroup = (key: string) => setOpened((o) => new Set(o).add(key));

  const frame = (e: Entry) => ({
    itemKey: e.key,
    current: e.key === target?.key,
    busy: busy === e.key || !!progress,
    nodeRef: (el: HTMLElement | null) => { if (el) nodes.current.set(e.key, el); else nodes.current.delete(e.key); },
  });

  return {
    queue, loadError, load, arranged, entries, target, total, shown, showMore, opened, openGroup, busy, progress, confirm, setConfirm, gate,
    doneRef, setCurrent, setFocusKey, resolve, restore, act, bulk, fail, frame,
  };
}
export type ReviewState = ReturnType<typeof useReviewQueue>;
