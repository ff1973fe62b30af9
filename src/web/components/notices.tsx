// Notices for the API's quiet refusals: a Pro feature on a Free account, the Free idea cap.
import type { ComponentChildren } from "preact";

export function Notice({ kind = "info", children }: { kind?: "info" | "warn" | "error"; children: ComponentChildren }) {
  return <div class={`notice ${kind}`} role={kind === "error" ? "alert" : "note"}>{children}</div>;
}

/** What a Free account sees instead of a Pro control: the gate's own sentence and where to upgrade. */
export function ProNotice({ feature, upgradeUrl }: { feature: string; upgradeUrl?: string }) {
  return (
    <Notice>
      {feature} requires a Pro plan.{" "}
      {upgradeUrl ? <a href={upgradeUrl} target="_blank" rel="noopener noreferrer">Upgrade</a> : "Ask the operator of this instance to upgrade your account."}
    </Notice>
  );
}

export function IdeaCapNotice({ message, upgradeUrl, featureRequestUrl }: { message: string; upgradeUrl: string; featureRequestUrl: string }) {
  return (
    <Notice kind="warn">
      {message}{" "}
      <a href={upgradeUrl} target="_blank" rel="noopener noreferrer">Upgrade</a>
      {" · "}
      <a href={featureRequestUrl} target="_blank" rel="noopener noreferrer">Request a feature</a>
    </Notice>
  );
}

export function Loading({ label = "Loading" }: { label?: string }) {
  return <div class="loading" role="status" aria-live="polite">{label}…</div>;
}

export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children}
    </div>
  );
}
