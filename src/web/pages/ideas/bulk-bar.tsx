// The bar that appears while ideas are selected: status for all, add or remove tags, archive (after a confirmation).
import { useState } from "preact/hooks";
import { LIMITS, STATUSES, type Status } from "../../api/types";

/** "a, b ,c" → ["a","b","c"]: the plain field used until a shared tag input exists. */
export const splitTags = (text: string) => [...new Set(text.split(",").map((t) => t.trim()).filter(Boolean))];

export type BulkAction = { status: Status } | { add_tags: string[] } | { remove_tags: string[] };

interface BulkBarProps {
  count: number;
  pageCount: number;
  busy: boolean;
  onApply: (a: BulkAction) => void;
  onArchive: () => void;
  onSelectAll: () => void;
  onClear: () => void;
}

export function BulkBar({ count, pageCount, busy, onApply, onArchive, onSelectAll, onClear }: BulkBarProps) {
  const [status, setStatus] = useState<Status | "">("");
  const [add, setAdd] = useState("");
  const [remove, setRemove] = useState("");
  const tooLong = (text: string) => splitTags(text).some((t) => t.length > LIMITS.tagName);
  return (
    <section class="bulk-bar" aria-label="Selected ideas">
      <div class="bulk-count">
        <strong>{count} selected</strong>
        {count < pageCount && <button type="button" class="btn link" onClick={onSelectAll}>Select all {pageCount} shown</button>}
        <button type="button" class="btn link" onClick={onClear}>Clear selection</button>
      </div>
      <form class="bulk-group" onSubmit={(e) => { e.preventDefault(); if (status) onApply({ status }); }}>
        <label for="bulk-status" class="visually-hidden">New status</label>
        <select id="bulk-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as Status | "")}>
          <option value="">Set status…</option>
          {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <button type="submit" class="btn small" disabled={busy || !status}>Apply status</button>
      </form>
      <form class="bulk-group" onSubmit={(e) => { e.preventDefault(); if (splitTags(add).length && !tooLong(add)) { onApply({ add_tags: splitTags(add) }); setAdd(""); } }}>
        <label for="bulk-add" class="visually-hidden">Tags to add (comma-separated)</label>
        <input id="bulk-add" type="text" placeholder="Add tags: a, b" value={add} onInput={(e) => setAdd(e.currentTarget.value)} aria-invalid={tooLong(add)} />
        <button type="submit" class="btn small" disabled={busy || !splitTags(add).length || tooLong(add)}>Add tags</button>
      </form>
      <form class="bulk-group" onSubmit={(e) => { e.preventDefault(); if (splitTags(remove).length) { onApply({ remove_tags: splitTags(remove) }); setRemove(""); } }}>
        <label for="bulk-remove" class="visually-hidden">Tags to remove (comma-separated)</label>
        <input id="bulk-remove" type="text" placeholder="Remove tags: a, b" value={remove} onInput={(e) => setRemove(e.currentTarget.value)} />
        <button type="submit" class="btn small" disabled={busy || !splitTags(remove).length}>Remove tags</button>
      </form>
      <button type="button" class="btn small danger" disabled={busy} onClick={onArchive}>Archive…</button>
    </section>
  );
}
