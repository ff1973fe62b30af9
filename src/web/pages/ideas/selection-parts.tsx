// What the selection shows around the list: the head (select all, how many shown, the keys), the report of a bulk
// change some ideas refused, and the archive question.
import { useEffect, useRef } from "preact/hooks";
import { ConfirmDialog } from "../../components/dialog";
import { Notice } from "../../components/notices";
import { plural } from "../../lib/plural";
import type { BulkReport, Selection } from "./use-selection";

export function ListHead({ sel, shown }: { sel: Selection; shown: number }) {
  const box = useRef<HTMLInputElement>(null);
  const some = sel.ideas.length > 0 && !sel.allSelected;
  useEffect(() => {
    if (box.current) box.current.indeterminate = some;
  }, [some]);
  return (
    <div class="list-head">
      <label class="select-all">
        <input ref={box} type="checkbox" checked={sel.allSelected} onChange={(e) => (e.currentTarget.checked ? sel.selectAll() : sel.clear())} />
        Select all shown
      </label>
      <span class="muted small">{plural(shown, "idea")} shown</span>
      <span class="muted small keys-hint" aria-hidden="true"><kbd>j</kbd>/<kbd>k</kbd> move · <kbd>x</kbd> select · <kbd>Enter</kbd> open</span>
    </div>
  );
}

export function BulkReportNotice({ report, onDismiss }: { report: BulkReport; onDismiss: () => void }) {
  return (
    <Notice kind="error">
      <p class="bulk-report-head">
        {report.what}: {plural(report.updated, "idea")} updated, {report.errors.length} not:
      </p>
      <ul class="bulk-errors">
        {report.errors.map((e) => <li key={e.id}><strong>{e.label}</strong>: {e.error}</li>)}
      </ul>
      <button type="button" class="btn small" onClick={onDismiss}>Dismiss</button>
    </Notice>
  );
}

export function ArchiveDialog({ sel }: { sel: Selection }) {
  const chosen = sel.ideas;
  return (
    <ConfirmDialog
      open={sel.confirming}
      title={`Archive ${plural(chosen.length, "idea")}?`}
      danger
      confirmLabel="Archive"
      onCancel={() => sel.setConfirming(false)}
      onConfirm={sel.archive}
      message={
        <>
          <p>
            Archiving is permanent: no operation restores an idea. Archived ideas leave this list, search, the map,
            review and exports; each stays readable at its own address.
          </p>
          <ul class="archive-list">
            {chosen.slice(0, 5).map((i) => <li key={i.id}>#{i.number} {i.title}</li>)}
            {chosen.length > 5 && <li>and {chosen.length - 5} more</li>}
          </ul>
        </>
      }
    />
  );
}
