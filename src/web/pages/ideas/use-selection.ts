// The ideas list's selection and what is done to it: rows chosen (kept to rows still listed, cleared with new
// filters), bulk status and tag changes (50 ids a request, each idea's refusal reported), and archive; where the focus
// goes when a bulk change takes the selected rows, and the bar with them, off the list.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { archiveIdea, bulkUpdate } from "../../api/ideas";
import { LIMITS, type Idea } from "../../api/types";
import { notify, notifyError } from "../../components/toast";
import { describeError } from "../../errors";
import { focusedOrWaiting, focusIsLost } from "../../lib/keep-focus";
import { plural } from "../../lib/plural";
import type { BulkAction } from "./bulk-bar";
import type { IdeaList } from "./use-idea-list";

export interface BulkReport { what: string; updated: number; errors: Array<{ id: number; label: string; error: string }> }

function describeAction(a: BulkAction): string {
  if ("status" in a) return `Status set to ${a.status}`;
  if ("add_tags" in a) return `Added ${a.add_tags.join(", ")}`;
  return `Removed ${a.remove_tags.join(", ")}`;
}

export function useSelection(list: IdeaList, filterKey: string) {
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<BulkReport | null>(null);
  const [confirming, setConfirming] = useState(false);

  // New filters, new list: the selection and any bulk report belonged to the old one.
  useEffect(() => {
    setSelected(new Set());
    setReport(null);
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
  const toggle = useCallback((id: number) => setSelected((prev) => {
    const next = new Set(prev);
    if (!next.delete(id)) next.add(id);
    return next;
  }), []);

  const ideas = useMemo(() => list.ideas.filter((i) => selected.has(i.id)), [list.ideas, selected]);

  // Where the first selected row was when a bulk change began. Once the change is done and the bar is gone (nothing
  // left selected: archived, or moved out of the filter), the row now in that place takes the focus (its title, as
  // j/k do), or the last row; the control that held the focus left with the bar. Before paint, so the focus is never
  // seen on the page itself (and lib/keep-focus.ts finds nothing to rescue).
  const anchor = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (busy || anchor.current === null) return;
    const at = anchor.current;
    anchor.current = null;
    if (!focusIsLost() || focusedOrWaiting()?.isConnected || list.ideas.length === 0) return;
    const row = list.ideas[Math.min(at, list.ideas.length - 1)];
    document.getElementById(`idea-title-${row.id}`)?.focus();
  }, [busy]);
  const begin = () => {
    anchor.current = Math.max(0, list.ideas.findIndex((i) => selected.has(i.id)));
    setBusy(true);
  };
  const allSelected = list.ideas.length > 0 && ideas.length === list.ideas.length;
  const selectAll = () => setSelected(new Set(list.ideas.map((i) => i.id)));
  const clear = () => setSelected(new Set());

  async function applyBulk(action: BulkAction) {
    const chosen = ideas;
    if (!chosen.length) return;
    begin();
    setReport(null);
    try {
      const results: Array<{ id: number; status: "updated" | "error"; error?: string }> = [];
      // The API takes at most 50 ids a request; a selection across pages is sent in turn.
      for (let i = 0; i < chosen.length; i += LIMITS.bulk) {
        const r = await bulkUpdate({ ids: chosen.slice(i, i + LIMITS.bulk).map((x) => x.id), ...action });
        results.push(...r.results);
      }
      const byId = new Map(chosen.map((x) => [x.id, x]));
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

  async function archive() {
    const chosen = ideas;
    setConfirming(false);
    begin();
    setReport(null);
    const failed: Array<{ idea: Idea; error: unknown }> = [];
    // A few at a time: quick for a page of 50 without flooding the server.
    for (let i = 0; i < chosen.length; i += 6) {
      await Promise.all(chosen.slice(i, i + 6).map((idea) => archiveIdea(idea.id).catch((error) => failed.push({ idea, error }))));
    }
    const done = chosen.length - failed.length;
    if (done) notify(`Archived ${plural(done, "idea")}.`);
    if (failed.length) notifyError(`${plural(failed.length, "idea")} could not be archived: ${describeError(failed[0].error)}`);
    setSelected(new Set(failed.map((f) => f.idea.id)));
    await list.reload();
    setBusy(false);
  }

  return {
    selected, ideas, allSelected, onSelect, toggle, selectAll, clear, busy, report, dismissReport: () => setReport(null),
    confirming, setConfirming, applyBulk, archive,
  };
}
export type Selection = ReturnType<typeof useSelection>;
