// Short confirmations and errors in one polite live region; an optional action (Undo) on each.
import { useEffect, useState } from "preact/hooks";

export interface Toast { id: number; text: string; kind: "info" | "error"; action?: { label: string; run: () => void } }

let seq = 0;
const listeners = new Set<(t: Toast[]) => void>();
let toasts: Toast[] = [];
const publish = () => listeners.forEach((fn) => fn(toasts));

export function notify(text: string, opts: { kind?: Toast["kind"]; action?: Toast["action"]; ms?: number } = {}): void {
  const t: Toast = { id: ++seq, text, kind: opts.kind ?? "info", action: opts.action };
  toasts = [...toasts.slice(-3), t];
  publish();
  setTimeout(() => dismiss(t.id), opts.ms ?? (opts.action ? 8000 : 4000));
}

export const notifyError = (text: string) => notify(text, { kind: "error", ms: 7000 });

function dismiss(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  publish();
}

export function Toasts() {
  const [list, setList] = useState<Toast[]>(toasts);
  useEffect(() => {
    listeners.add(setList);
    return () => void listeners.delete(setList);
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} class={`toast ${t.kind}`}>
          <span>{t.text}</span>
          {t.action && (
            <button type="button" class="btn small" onClick={() => { t.action!.run(); dismiss(t.id); }}>
              {t.action.label}
            </button>
          )}
          <button type="button" class="btn icon small" aria-label="Dismiss" onClick={() => dismiss(t.id)}>×</button>
        </div>
      ))}
    </div>
  );
}
