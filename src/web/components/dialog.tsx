// Modal dialogs on the native <dialog> element: focus is trapped and Escape closes, as the browser does it.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { focusedOrWaiting, focusIsLost, returnFocusWhenEnabled } from "../lib/keep-focus";

/**
 * A native <dialog> kept in step with `open`: shown modal when it turns true (then `onOpen`), closed when it turns
 * false. The close event is queued, not dispatched at once, and Chromium runs input first: the event of our own
 * close() can arrive after a key that asks again (Escape then "a", or Ctrl+K right after a palette choice), and would
 * cancel that new question. So only a close this hook did not make is the person's and calls `onClose`.
 * `closeNow` closes at once, before the next render (a key pressed right after lands on the page).
 * The browser returns the focus to where it was when the dialog opened; when that was nowhere (the button that opened
 * it was disabled while its request ran, e.g. "Create API key"), the dialog returns it to that button itself, and when
 * that button is disabled still (busy with what the dialog asked for), once it is enabled again.
 */
export function useModalDialog(open: boolean, onClose: () => void, onOpen?: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const ownCloses = useRef(0);
  const opener = useRef<HTMLElement | null>(null);
  const closeNow = () => {
    const d = ref.current;
    if (!d?.open) return;
    ownCloses.current++;
    d.close();
  };
  useEffect(() => {
    const d = ref.current!;
    if (open && !d.open) {
      opener.current = focusedOrWaiting();
      d.showModal();
      onOpen?.();
    }
    if (!open) closeNow();
  }, [open]);
  const dialogProps = {
    ref,
    onClose: () => {
      if (focusIsLost() && opener.current?.isConnected) {
        opener.current.focus();
        // Still busy with what the dialog asked for (Archive…): it gets the focus once it is enabled again.
        returnFocusWhenEnabled(opener.current);
      }
      if (ownCloses.current > 0) ownCloses.current--;
      else onClose();
    },
    onCancel: (e: Event) => { e.preventDefault(); onClose(); },
  };
  return { ref, dialogProps, closeNow };
}

export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ComponentChildren }) {
  const { dialogProps } = useModalDialog(open, onClose);
  return (
    <dialog {...dialogProps} class="dialog" aria-label={title}>
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
