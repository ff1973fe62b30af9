// Modal dialogs on the native <dialog> element: focus is trapped and Escape closes, as the browser does it.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  // Closes this component makes itself: their close events are not the person's (see below).
  const ownCloses = useRef(0);
  useEffect(() => {
    const d = ref.current!;
    if (open && !d.open) d.showModal();
    if (!open && d.open) {
      ownCloses.current++;
      d.close();
    }
  }, [open]);
  return (
    // The close event is queued, not dispatched at once, and Chromium runs input first: the event of our own close()
    // can arrive after a key that asks again (Escape, then "a" at once), and would cancel that new question. Only a
    // close this component did not make is the person's.
    <dialog
      ref={ref}
      class="dialog"
      aria-label={title}
      onClose={() => { if (ownCloses.current > 0) ownCloses.current--; else onClose(); }}
      onCancel={(e) => { e.preventDefault(); onClose(); }}
    >
      {open && (
        <div class="dialog-body">
          <h2>{title}</h2>
          {children}
        </div>
      )}
    </dialog>
  );
}

/** Asks before something that cannot be undone; resolves true on confirm. */
export function ConfirmDialog(props: { open: boolean; title: string; message: ComponentChildren; confirmLabel: string; danger?: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onCancel}>
      <div class="dialog-message">{props.message}</div>
      <div class="actions">
        <button type="button" class="btn" onClick={props.onCancel}>Cancel</button>
        <button type="button" class={`btn ${props.danger ? "danger" : "primary"}`} onClick={props.onConfirm} autofocus>
          {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
