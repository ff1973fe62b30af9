// Modal dialogs on the native <dialog> element: focus is trapped and Escape closes, as the browser does it.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current!;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} class="dialog" aria-label={title} onClose={onClose} onCancel={(e) => { e.preventDefault(); onClose(); }}>
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
