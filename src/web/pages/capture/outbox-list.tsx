// Captures kept in this browser until the server takes them: what waits, what was refused and why (fix or discard).
import { useEffect, useState } from "preact/hooks";
import { discardCapture, retryCaptures, useOutbox, type QueuedCapture } from "../../api/outbox";
import { ConfirmDialog } from "../../components/dialog";
import { IdeaCapNotice } from "../../components/notices";
import { notifyError } from "../../components/toast";

/** The clock for "retrying in …", ticking only while something waits (an empty outbox re-renders nothing each second). */
function useNow(ms: number, ticking: boolean): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!ticking) return;
    const t = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(t);
  }, [ms, ticking]);
  return Date.now();
}

export function OutboxList({ onEdit }: { onEdit: (capture: QueuedCapture) => void }) {
  const list = useOutbox();
  const now = useNow(1000, list.length > 0);
  const [discarding, setDiscarding] = useState<QueuedCapture | null>(null);
  if (list.length === 0) return null;
  const waiting = list.filter((c) => c.state === "waiting").length;
  return (
    <section class="outbox card" id="outbox" aria-labelledby="outbox-h">
      <div class="outbox-head">
        <h2 id="outbox-h">Kept in this browser ({list.length})</h2>
        <button type="button" class="btn small" onClick={() => retryCaptures().catch(() => notifyError("Could not read the browser's storage."))}>
          Send now
        </button>
      </div>
      <p class="muted small">
        {waiting > 0 ? "These captures are sent in order as soon as the server answers. Closing the tab keeps them. " : ""}
        {list.length > waiting ? "The server refused some: fix them in the form or discard them." : ""}
      </p>
      <ul class="list outbox-list">
        {list.map((c) => (
          <li key={c.clientId} class={`outbox-item ${c.state}`}>
            <div class="outbox-title">{c.idea.title}</div>
            {c.state === "waiting" ? (
              <div class="row-meta">
                <span>Waiting to send</span>
                {c.attempts > 0 && <span>· {c.error ?? "Sending failed"} · next try {c.nextAttemptAt <= now ? "now" : `in ${Math.ceil((c.nextAttemptAt - now) / 1000)} s`}</span>}
              </div>
            ) : (
              <>
                {c.cap ? (
                  <IdeaCapNotice message={c.cap.message} upgradeUrl={c.cap.upgradeUrl} featureRequestUrl={c.cap.featureRequestUrl} />
                ) : (
                  <div class="error" role="alert">Not saved: {c.error}</div>
                )}
                <div class="actions">
                  <button type="button" class="btn small" onClick={() => onEdit(c)} aria-label={`Fix “${c.idea.title}” in the form`}>Fix in the form</button>
                  <button type="button" class="btn small ghost" onClick={() => setDiscarding(c)} aria-label={`Discard “${c.idea.title}”`}>Discard</button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={discarding !== null}
        title="Discard this capture?"
        message={<p>“{discarding?.idea.title}” was never saved on the server; discarding removes it from this browser for good.</p>}
        confirmLabel="Discard"
        danger
        onCancel={() => setDiscarding(null)}
        onConfirm={() => {
          const c = discarding!;
          setDiscarding(null);
          discardCapture(c.clientId).catch(() => notifyError("Could not read the browser's storage."));
        }}
      />
    </section>
  );
}
