// The bar that appears while ideas are selected: status for all, add or remove tags, archive (after a confirmation).
import { useState } from "preact/hooks";
import { STATUSES, type Status } from "../../api/types";
import { TagInput } from "../../components/tag-input";

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

/**
 * After "Add tags" or "Remove tags" the emptied list leaves its button disabled for good, and the focus with it went to
 * <body>; it goes back to the form's tag field, ready for the next tags.
 */
const focusTagField = (e: Event) => (e.currentTarget as HTMLFormElement).querySelector<HTMLInputElement>("[data-tag-input]")?.focus();

export function BulkBar({ count, pageCount, busy, onApply, onArchive, onSelectAll, onClear }: BulkBarProps) {
  const [status, setStatus] = useState<Status | "">("");
  const [add, setAdd] = useState<string[]>([]);
  const [remove, setRemove] = useState<string[]>([]);
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
      <form class="bulk-group bulk-tags" onSubmit={(e) => { e.preventDefault(); if (add.length) { onApply({ add_tags: add }); setAdd([]); focusTagField(e); } }}>
        <TagInput label="Tags to add" value={add} onChange={setAdd} />
        <button type="submit" class="btn small" disabled={busy || !add.length}>Add tags</button>
      </form>
      <form class="bulk-group bulk-tags" onSubmit={(e) => { e.preventDefault(); if (remove.length) { onApply({ remove_tags: remove }); setRemove([]); focusTagField(e); } }}>
        <TagInput label="Tags to remove" value={remove} onChange={setRemove} />
        <button type="submit" class="btn small" disabled={busy || !remove.length}>Remove tags</button>
      </form>
      <button type="button" class="btn small danger" disabled={busy} onClick={onArchive}>Archive…</button>
    </section>
  );
}
