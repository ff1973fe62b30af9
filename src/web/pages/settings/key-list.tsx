// A list of API keys or MCP tokens (label, created, last used) with a revoke button that asks first.
import { useState } from "preact/hooks";
import type { ApiKeyRecord } from "../../api/account";
import { ConfirmDialog } from "../../components/dialog";
import { fullTime, relativeTime } from "../../lib/time";

export function KeyList({ items, kind, onRevoke }: { items: ApiKeyRecord[]; kind: "key" | "token"; onRevoke: (item: ApiKeyRecord) => Promise<void> }) {
  const [revoking, setRevoking] = useState<ApiKeyRecord | null>(null);
  const noun = kind === "key" ? "key" : "token";
  return (
    <>
      <ul class="list key-list">
        {items.map((k) => (
          <li key={k.id} class="key-row">
            <div class="key-main">
              <span class="key-label">{k.label}</span>
              <div class="row-meta">
                <span>Created <time dateTime={k.created_at} title={fullTime(k.created_at)}>{relativeTime(k.created_at)}</time></span>
                <span aria-hidden="true">·</span>
                <span>
                  Last used{" "}
                  {k.last_used_at ? <time dateTime={k.last_used_at} title={fullTime(k.last_used_at)}>{relativeTime(k.last_used_at)}</time> : "never"}
                </span>
                {k.scopes && (
                  <>
                    <span aria-hidden="true">·</span>
                    <span>Scopes: {k.scopes}</span>
                  </>
                )}
              </div>
            </div>
            <button type="button" class="btn small" aria-label={`Revoke ${noun} ${k.label}`} onClick={() => setRevoking(k)}>Revoke</button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${noun} “${revoking?.label ?? ""}”?`}
        message={`Anything using this ${noun} stops working at once. This cannot be undone.`}
        confirmLabel={`Revoke ${noun}`}
        danger
        onConfirm={async () => {
          const k = revoking!;
          setRevoking(null);
          await onRevoke(k);
        }}
        onCancel={() => setRevoking(null)}
      />
    </>
  );
}
